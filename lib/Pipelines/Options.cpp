//===- Options.cpp - The options of each pipeline stage -------------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Pipelines/Options.h"

#include "threadbind/Transforms/KernelRewriting.h"

#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace mlir::threadbind;

llvm::raw_ostream &threadbind::operator<<(llvm::raw_ostream &os,
                                          BlockThreads threads) {
  if (threads.isAuto())
    return os << "auto";
  return os << threads.count;
}

/// The checks every stage's values need before any pass is built; the
/// passes check their own options again (threadbind-opt runs them alone).
static std::string verifyShared(const SharedOptions &shared,
                                const MappingOptions &mapping,
                                bool allowAutoThreads) {
  if (shared.vectorBytes != 0 && !isSupportedVectorBytes(shared.vectorBytes))
    return ("vector-bytes must be 0, 4, 8 or 16, not " +
            Twine(shared.vectorBytes))
        .str();
  if (mapping.threadsPerBlock.isAuto() && !allowAutoThreads)
    return "threads-per-block=auto is threadbind-compile's: it assembles "
           "the kernels with ptxas to weigh each size; give a number";
  if (mapping.threadsPerBlock.isAuto() && !mapping.blockShape.empty())
    return "threads-per-block=auto and block-shape both choose the block; "
           "give one";
  return "";
}

/// What a reduction pass would refuse at its first reduction: refused up
/// front, so a program without one does not take an out-of-range value.
static std::string verifyReductions(const ReductionOptions &reductions) {
  if (reductions.unroll < 0 || reductions.unroll > 16)
    return ("reduction-unroll must be 1 to 16, or 0 to choose, not " +
            Twine(reductions.unroll))
        .str();
  return "";
}

std::string MapToGPUOptions::verify() const {
  if (std::string error = verifyReductions(reductions); !error.empty())
    return error;
  return verifyShared(shared, mapping, /*allowAutoThreads=*/false);
}

std::string CompileOptions::verify(bool allowAutoThreads) const {
  if (!lookupChip(target.chip))
    return "unsupported chip '" + target.chip +
           "'; supported: " + getSupportedChipList();
  if (target.optLevel > 3)
    return "opt-level must be 0 to 3";
  if (kernels.widenUnroll == 0)
    return "widen-unroll must be at least 1";
  if (std::string error = verifyReductions(reductions); !error.empty())
    return error;
  return verifyShared(shared, mapping, allowAutoThreads);
}

bool llvm::cl::parser<BlockThreads>::parse(Option &option, StringRef argName,
                                           StringRef arg,
                                           BlockThreads &value) {
  if (arg == "auto") {
    value.count = 0;
    return false;
  }
  int64_t count;
  if (arg.getAsInteger(10, count) || count <= 0)
    return option.error("must be a positive number or 'auto', not '" + arg +
                        "'");
  value.count = count;
  return false;
}

void llvm::cl::parser<BlockThreads>::printOptionDiff(
    const Option &option, BlockThreads value, const OptVal &defaultValue,
    size_t globalWidth) const {
  printOptionName(option, globalWidth);
  llvm::outs() << "= " << value << "\n";
}

void llvm::cl::parser<BlockThreads>::anchor() {}
