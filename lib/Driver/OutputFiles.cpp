//===- OutputFiles.cpp - Outputs written all at once, or not at all -------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/OutputFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <optional>

using namespace mlir;
using namespace mlir::threadbind;
namespace fs = llvm::sys::fs;

namespace {
/// What a path names, however it is spelled: the device and inode of an
/// existing file, else the real path of its folder joined with its name.
struct Identity {
  std::optional<fs::UniqueID> id;
  std::string where;
  /// An existing file that is not a regular one (/dev/null, a pipe).
  bool special = false;

  bool sameFile(const Identity &other) const {
    if (id || other.id)
      return id && other.id && *id == *other.id;
    return where == other.where;
  }
};
} // namespace

static llvm::Expected<Identity> identify(StringRef path) {
  Identity identity;
  fs::file_status status;
  if (!fs::status(path, status)) {
    identity.id = status.getUniqueID();
    identity.special = status.type() != fs::file_type::regular_file;
    return identity;
  }
  SmallString<256> absolute(path);
  if (std::error_code ec = fs::make_absolute(absolute))
    return llvm::createStringError(ec, "cannot resolve '" + path + "'");
  StringRef folder = llvm::sys::path::parent_path(absolute);
  SmallString<256> real;
  if (std::error_code ec = fs::real_path(folder, real))
    return llvm::createStringError(ec, "cannot write '" + path +
                                           "': no folder '" + folder + "'");
  llvm::sys::path::append(real, llvm::sys::path::filename(absolute));
  identity.where = std::string(real);
  return identity;
}

struct OutputFiles::Output {
  std::string flag;
  std::string path;
  Identity identity;
  /// Standard output or a special file: written from memory at commit.
  bool buffered = false;
  std::string buffer;
  std::optional<fs::TempFile> temp;
  std::unique_ptr<llvm::raw_ostream> os;
};

OutputFiles::OutputFiles(StringRef input) : input(input.str()) {}

OutputFiles::~OutputFiles() {
  for (std::unique_ptr<Output> &output : outputs) {
    output->os.reset();
    if (output->temp)
      llvm::consumeError(output->temp->discard());
  }
}

bool OutputFiles::isRegularPath(StringRef path) {
  if (path == "-")
    return false;
  fs::file_status status;
  if (fs::status(path, status))
    return true; // not there yet
  return status.type() == fs::file_type::regular_file;
}

llvm::Expected<llvm::raw_ostream *> OutputFiles::add(StringRef flag,
                                                     StringRef path) {
  auto output = std::make_unique<Output>();
  output->flag = flag.str();
  output->path = path.str();
  if (path == "-") {
    output->buffered = true;
  } else {
    llvm::Expected<Identity> identity = identify(path);
    if (!identity)
      return identity.takeError();
    output->identity = std::move(*identity);
    output->buffered = output->identity.special;

    // The input: a named file, or whatever standard input is redirected
    // from.
    std::optional<Identity> in;
    if (input == "-") {
      fs::file_status status;
      if (!fs::status(/*FD=*/0, status) &&
          status.type() == fs::file_type::regular_file)
        in = Identity{status.getUniqueID(), "", false};
    } else if (llvm::Expected<Identity> named = identify(input)) {
      in = std::move(*named);
    } else {
      llvm::consumeError(named.takeError());
    }
    if (in && !in->special && in->sameFile(output->identity))
      return llvm::createStringError(
          flag + " names the input file" +
          (input == "-" ? " (standard input)" : " '" + input + "'"));
    for (const std::unique_ptr<Output> &other : outputs) {
      if (other->path == "-" || other->identity.special ||
          output->identity.special ||
          !other->identity.sameFile(output->identity))
        continue;
      return llvm::createStringError(other->flag + " and " + flag +
                                     " name the same file, '" + path + "'");
    }
  }

  if (output->buffered) {
    output->os = std::make_unique<llvm::raw_string_ostream>(output->buffer);
  } else {
    // Beside the target, so the rename stays within one file system.
    SmallString<256> model(output->path);
    llvm::sys::path::remove_filename(model);
    llvm::sys::path::append(
        model, "." + llvm::sys::path::filename(output->path) + "-%%%%%%.tmp");
    llvm::Expected<fs::TempFile> temp = fs::TempFile::create(model);
    if (!temp)
      return llvm::createStringError(
          "cannot write '" + path +
          "': " + llvm::toString(temp.takeError()));
    output->temp.emplace(std::move(*temp));
    output->os = std::make_unique<llvm::raw_fd_ostream>(
        output->temp->FD, /*shouldClose=*/false);
  }
  llvm::raw_ostream *os = output->os.get();
  outputs.push_back(std::move(output));
  return os;
}

static llvm::Error cannotWrite(StringRef path, std::error_code ec) {
  return llvm::createStringError(ec, "cannot write '" + path +
                                         "': " + ec.message());
}

/// Flushes `os` and turns a write error into an llvm::Error.
static llvm::Error finish(llvm::raw_fd_ostream &os, StringRef path) {
  os.flush();
  if (std::error_code ec = os.error()) {
    os.clear_error();
    return cannotWrite(path, ec);
  }
  return llvm::Error::success();
}

llvm::Error OutputFiles::commit() {
  // What cannot be renamed first: a device that fails (/dev/full) must
  // fail the run before any file appears.
  for (std::unique_ptr<Output> &output : outputs) {
    if (!output->buffered)
      continue;
    output->os.reset();
    if (output->path == "-") {
      llvm::outs() << output->buffer;
      if (llvm::Error error = finish(llvm::outs(), "standard output"))
        return error;
      continue;
    }
    std::error_code ec;
    llvm::raw_fd_ostream file(output->path, ec, fs::OF_None);
    if (ec)
      return cannotWrite(output->path, ec);
    file << output->buffer;
    if (llvm::Error error = finish(file, output->path))
      return error;
    file.close();
    if (std::error_code closeError = file.error()) {
      file.clear_error();
      return cannotWrite(output->path, closeError);
    }
  }
  for (std::unique_ptr<Output> &output : outputs) {
    if (output->buffered)
      continue;
    if (llvm::Error error = finish(
            static_cast<llvm::raw_fd_ostream &>(*output->os), output->path))
      return error;
    output->os.reset();
  }
  for (std::unique_ptr<Output> &output : outputs) {
    if (output->buffered)
      continue;
    llvm::Error error = output->temp->keep(output->path);
    output->temp.reset();
    if (error)
      return llvm::createStringError("cannot write '" + output->path +
                                     "': " + llvm::toString(std::move(error)));
  }
  return llvm::Error::success();
}
