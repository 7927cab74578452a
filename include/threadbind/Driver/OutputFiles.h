//===- OutputFiles.h - Outputs written all at once, or not at all -*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// One compilation can write several files (the output, the manifest, the
// --save-* forms). None of them may appear unless the whole run succeeded,
// none may overwrite the input, and no two may be the same file, however
// the paths are spelled.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_DRIVER_OUTPUTFILES_H
#define THREADBIND_DRIVER_OUTPUTFILES_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::threadbind {

/// The files one run writes. Each regular file goes to a temporary file
/// beside its target and is renamed into place by commit(), so a run that
/// fails before commit leaves nothing behind and never touches an existing
/// file. Standard output ("-") and existing files that are not regular
/// (/dev/null, a pipe) cannot be renamed onto; what goes to them is kept
/// in memory and written at commit, before any rename.
class OutputFiles {
public:
  /// `input` is the file the run reads ("-" for standard input); no output
  /// may be it.
  explicit OutputFiles(StringRef input);
  ~OutputFiles();
  OutputFiles(const OutputFiles &) = delete;
  OutputFiles &operator=(const OutputFiles &) = delete;

  /// Adds the output that option `flag` names at `path`. Fails, naming
  /// the option, when `path` is the input, is the file of an output added
  /// before (other than a device such as /dev/null), or cannot be created.
  /// The stream lives until commit() or destruction.
  llvm::Expected<llvm::raw_ostream *> add(StringRef flag, StringRef path);

  /// Whether a side file may go next to `path`: it is a regular file or
  /// does not exist yet, and is not standard output.
  static bool isRegularPath(StringRef path);

  /// Writes the buffered outputs, then renames every temporary file into
  /// place. On failure, the temporaries are removed.
  llvm::Error commit();

private:
  struct Output;
  std::string input;
  std::vector<std::unique_ptr<Output>> outputs;
};

} // namespace mlir::threadbind

#endif // THREADBIND_DRIVER_OUTPUTFILES_H
