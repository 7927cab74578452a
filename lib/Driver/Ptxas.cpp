//===- Ptxas.cpp - Run ptxas and read its resource report -----------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/Ptxas.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::threadbind;

SmallVector<PtxasKernelInfo> threadbind::parsePtxasReport(StringRef report) {
  SmallVector<PtxasKernelInfo> kernels;
  llvm::Regex properties("Function properties for ([A-Za-z0-9_$.]+)");
  llvm::Regex frame("([0-9]+) bytes stack frame, ([0-9]+) bytes spill "
                    "stores, ([0-9]+) bytes spill loads");
  llvm::Regex used("Used ([0-9]+) registers");
  llvm::Regex barriers("used ([0-9]+) barriers");
  llvm::Regex smem("([0-9]+) bytes smem");
  SmallVector<StringRef> lines;
  report.split(lines, '\n');
  SmallVector<StringRef, 4> m;
  for (StringRef line : lines) {
    if (properties.match(line, &m)) {
      kernels.emplace_back();
      kernels.back().name = m[1].str();
      continue;
    }
    if (kernels.empty())
      continue;
    PtxasKernelInfo &k = kernels.back();
    if (frame.match(line, &m)) {
      m[1].getAsInteger(10, k.stackBytes);
      m[2].getAsInteger(10, k.spillStoreBytes);
      m[3].getAsInteger(10, k.spillLoadBytes);
    }
    if (used.match(line, &m))
      m[1].getAsInteger(10, k.registers);
    if (barriers.match(line, &m))
      m[1].getAsInteger(10, k.barriers);
    if (smem.match(line, &m))
      m[1].getAsInteger(10, k.sharedBytes);
  }
  return kernels;
}

llvm::Expected<SmallVector<PtxasKernelInfo>>
threadbind::runPtxas(StringRef ptxas, StringRef ptxFile, StringRef chip,
                     StringRef cubinFile, unsigned threads) {
  SmallString<128> logFile;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("threadbind-ptxas", "log",
                                             logFile))
    return llvm::createStringError(ec, "cannot create a temporary file");
  llvm::FileRemover removeLog(logFile);
  std::string arch = ("-arch=" + chip).str();
  std::string split = "--split-compile=" + std::to_string(threads);
  auto run = [&](bool splitCompile, std::string &message) {
    SmallVector<StringRef> args = {ptxas,   "-v", "-O3",    arch.c_str(),
                                   ptxFile, "-o", cubinFile};
    if (splitCompile)
      args.push_back(split);
    std::optional<StringRef> redirects[] = {std::nullopt, logFile, logFile};
    return llvm::sys::ExecuteAndWait(ptxas, args, /*Env=*/std::nullopt,
                                     redirects, /*SecondsToWait=*/0,
                                     /*MemoryLimit=*/0, &message);
  };
  std::string message;
  int status = run(threads > 1, message);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> log =
      llvm::MemoryBuffer::getFile(logFile);
  StringRef output = log ? (*log)->getBuffer() : StringRef();
  // A ptxas older than --split-compile (CUDA 12.1) assembles on one thread.
  if (status != 0 && threads > 1 && output.contains("split-compile")) {
    message.clear();
    status = run(false, message);
    log = llvm::MemoryBuffer::getFile(logFile);
    output = log ? (*log)->getBuffer() : StringRef();
  }
  if (status != 0)
    return llvm::createStringError(
        "ptxas failed" + (message.empty() ? "" : ": " + message) +
        (output.empty() ? "" : "\n" + output.rtrim().str()));
  return parsePtxasReport(output);
}

namespace {
/// Where the header of entry `kernel` lies in `ptx`: from `.entry NAME(` to
/// the `{` that opens its body; none if there is no such entry.
std::optional<std::pair<size_t, size_t>> findEntryHeader(StringRef ptx,
                                                         StringRef kernel) {
  std::string needle = (".entry " + kernel + "(").str();
  size_t start = ptx.find(needle);
  if (start == StringRef::npos)
    return std::nullopt;
  size_t body = ptx.find("\n{", start);
  if (body == StringRef::npos)
    return std::nullopt;
  return std::make_pair(start, body);
}

/// The `.maxntid` line in `ptx`'s range `header`: its start and its end
/// (past the newline); none if the header has none.
std::optional<std::pair<size_t, size_t>>
findMaxntidLine(StringRef ptx, std::pair<size_t, size_t> header) {
  StringRef text = ptx.slice(header.first, header.second);
  size_t at = text.find("\n.maxntid ");
  if (at == StringRef::npos)
    return std::nullopt;
  size_t begin = header.first + at + 1;
  size_t end = ptx.find('\n', begin);
  return std::make_pair(begin, end == StringRef::npos ? ptx.size() : end + 1);
}
} // namespace

std::optional<unsigned> threadbind::getMaxntidThreads(StringRef ptx,
                                                      StringRef kernel) {
  std::optional<std::pair<size_t, size_t>> header =
      findEntryHeader(ptx, kernel);
  if (!header)
    return std::nullopt;
  std::optional<std::pair<size_t, size_t>> line = findMaxntidLine(ptx, *header);
  if (!line)
    return std::nullopt;
  StringRef extents = ptx.slice(line->first, line->second)
                          .drop_front(StringRef(".maxntid ").size())
                          .trim();
  SmallVector<StringRef, 3> parts;
  extents.split(parts, ',');
  unsigned threads = 1;
  for (StringRef part : parts) {
    unsigned n;
    if (part.trim().getAsInteger(10, n) || n == 0)
      return std::nullopt;
    threads *= n;
  }
  return threads;
}

llvm::StringMap<unsigned>
threadbind::getMaxntidThreadsOfEntries(StringRef ptx) {
  llvm::StringMap<unsigned> bounds;
  for (size_t at = ptx.find(".entry "); at != StringRef::npos;
       at = ptx.find(".entry ", at + 1)) {
    StringRef rest = ptx.drop_front(at);
    StringRef name =
        rest.drop_front(StringRef(".entry ").size()).take_until([](char c) {
          return c == '(' || c == '\n';
        });
    // Searching from this entry on finds it at once.
    if (std::optional<unsigned> threads = getMaxntidThreads(rest, name.trim()))
      bounds[name.trim()] = *threads;
  }
  return bounds;
}

std::string threadbind::removeMaxntid(StringRef ptx,
                                      ArrayRef<std::string> kernels) {
  SmallVector<std::pair<size_t, size_t>> cuts;
  for (const std::string &kernel : kernels)
    if (std::optional<std::pair<size_t, size_t>> header =
            findEntryHeader(ptx, kernel))
      if (std::optional<std::pair<size_t, size_t>> line =
              findMaxntidLine(ptx, *header))
        cuts.push_back(*line);
  llvm::sort(cuts);
  std::string result;
  size_t from = 0;
  for (auto [begin, end] : cuts) {
    result += ptx.slice(from, begin);
    from = end;
  }
  result += ptx.drop_front(from);
  return result;
}
