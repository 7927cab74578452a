//===- Target.cpp - Every fact ThreadBind knows about a chip --------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Target/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::threadbind;

//===----------------------------------------------------------------------===//
// Chips
//===----------------------------------------------------------------------===//

namespace {
constexpr unsigned KiB = 1024;
// Per-SM limits: threads, blocks, registers, register unit, registers a
// thread, shared memory, shared memory reserved a block (CUDA C++
// Programming Guide, "Technical Specifications per Compute Capability").
constexpr SMLimits kTuring{1024, 16, 65536, 256, 255, 64 * KiB, 0};
constexpr SMLimits kAmpere{2048, 32, 65536, 256, 255, 164 * KiB, KiB};
constexpr SMLimits kAmpereGA10x{1536, 16, 65536, 256, 255, 100 * KiB, KiB};
constexpr SMLimits kAda{1536, 24, 65536, 256, 255, 100 * KiB, KiB};
constexpr SMLimits kHopper{2048, 32, 65536, 256, 255, 228 * KiB, KiB};
constexpr SMLimits kBlackwell{2048, 32, 65536, 256, 255, 228 * KiB, KiB};
constexpr SMLimits kBlackwellRTX{1536, 32, 65536, 256, 255, 128 * KiB, KiB};
} // namespace

// Each chip with the lowest PTX ISA version that supports it. All of them
// assemble with CUDA 13's ptxas; sm_50 to sm_72 are no longer accepted by
// it.
static constexpr ChipInfo kChips[] = {
    {"sm_75", 63, kTuring},         {"sm_80", 70, kAmpere},
    {"sm_86", 71, kAmpereGA10x},    {"sm_87", 74, kAmpere},
    {"sm_89", 78, kAda},            {"sm_90", 78, kHopper},
    {"sm_90a", 80, kHopper},        {"sm_100", 86, kBlackwell},
    {"sm_100a", 86, kBlackwell},    {"sm_120", 87, kBlackwellRTX},
    {"sm_120a", 87, kBlackwellRTX},
};

std::string ChipInfo::getFeatures() const {
  return llvm::formatv("+ptx{0}", ptxVersion);
}

std::string ChipInfo::getPtxVersionString() const {
  return llvm::formatv("{0}.{1}", ptxVersion / 10, ptxVersion % 10);
}

ArrayRef<ChipInfo> threadbind::getSupportedChips() { return kChips; }

std::optional<ChipInfo> threadbind::lookupChip(StringRef name) {
  for (const ChipInfo &chip : kChips)
    if (chip.name == name)
      return chip;
  return std::nullopt;
}

std::string threadbind::getSupportedChipList() {
  std::string list;
  llvm::raw_string_ostream os(list);
  llvm::interleaveComma(kChips, os,
                        [&](const ChipInfo &chip) { os << chip.name; });
  return list;
}

//===----------------------------------------------------------------------===//
// The CUDA toolkit
//===----------------------------------------------------------------------===//

SmallVector<std::string>
threadbind::getCudaToolkitCandidates(StringRef cudaPath) {
  if (!cudaPath.empty())
    return {cudaPath.str()};
  SmallVector<std::string> candidates;
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *env = std::getenv(var); env && *env)
      candidates.push_back(env);
  candidates.push_back("/usr/local/cuda");
  llvm::ErrorOr<std::string> ptxas = llvm::sys::findProgramByName("ptxas");
  SmallString<256> real;
  if (ptxas && !llvm::sys::fs::real_path(*ptxas, real))
    candidates.push_back(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(real))
            .str());
  return candidates;
}

llvm::Expected<std::string> threadbind::findPtxas(StringRef cudaPath) {
  SmallVector<std::string> tried;
  for (const std::string &root : getCudaToolkitCandidates(cudaPath)) {
    SmallString<256> path(root);
    llvm::sys::path::append(path, "bin", "ptxas");
    tried.push_back(std::string(path));
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
  }
  if (cudaPath.empty())
    tried.push_back("ptxas on PATH");
  return llvm::createStringError(
      "ptxas not found (looked for " + llvm::join(tried, ", ") +
      "); install the CUDA toolkit or pass --cuda-path");
}

std::optional<std::string>
threadbind::findLibdeviceToolkit(StringRef cudaPath) {
  for (const std::string &root : getCudaToolkitCandidates(cudaPath)) {
    SmallString<256> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(path))
      return root;
  }
  return std::nullopt;
}
