//===- TargetTest.cpp - The chip table and the toolkit search -------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Target/Target.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <unistd.h>

using namespace mlir;
using namespace mlir::threadbind;

namespace {

/// Sets (or, given nullopt, clears) an environment variable for a scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, std::optional<std::string> value) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (saved)
      ::setenv(name, saved->c_str(), 1);
    else
      ::unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> saved;
};

// Every chip the driver accepts has every fact a pass or the driver asks
// of it: a new row with a fact missing fails here, not in a user's build.
TEST(TargetTest, EveryChipHasEveryFact) {
  llvm::StringSet<> seen;
  ASSERT_FALSE(getSupportedChips().empty());
  for (const ChipInfo &chip : getSupportedChips()) {
    SCOPED_TRACE(chip.name.str());
    EXPECT_TRUE(seen.insert(chip.name).second) << "listed twice";
    EXPECT_TRUE(chip.name.starts_with("sm_"));
    // LLVM 22's NVPTX backend knows PTX ISA 6.3 to 9.0.
    EXPECT_GE(chip.ptxVersion, 63u);
    EXPECT_LE(chip.ptxVersion, 90u);
    const SMLimits &sm = chip.sm;
    EXPECT_GE(sm.maxThreads, unsigned(GpuLimits::kMaxThreadsPerBlock));
    EXPECT_EQ(sm.maxThreads % GpuLimits::kWarpSize, 0u);
    EXPECT_GT(sm.maxBlocks, 0u);
    EXPECT_GE(sm.registers, 32768u);
    EXPECT_GT(sm.registerUnit, 0u);
    EXPECT_EQ(sm.registers % sm.registerUnit, 0u);
    EXPECT_EQ(sm.maxRegistersPerThread, 255u);
    EXPECT_GE(sm.sharedBytes, 48u * 1024);
    EXPECT_LT(sm.sharedReservedPerBlock, sm.sharedBytes);
    // The lookup returns the row itself.
    std::optional<ChipInfo> found = lookupChip(chip.name);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->ptxVersion, chip.ptxVersion);
    EXPECT_NE(getSupportedChipList().find(chip.name.str()), std::string::npos);
  }
  EXPECT_TRUE(lookupChip(kDefaultChip)) << "the default chip is not listed";
}

TEST(TargetTest, KnownChipsAndTheirPtxVersions) {
  std::optional<ChipInfo> sm90 = lookupChip("sm_90");
  ASSERT_TRUE(sm90);
  EXPECT_EQ(sm90->getFeatures(), "+ptx78");
  EXPECT_EQ(sm90->getPtxVersionString(), "7.8");
  EXPECT_EQ(sm90->sm.sharedBytes, 228u * 1024);
  std::optional<ChipInfo> sm80 = lookupChip("sm_80");
  ASSERT_TRUE(sm80);
  EXPECT_EQ(sm80->getPtxVersionString(), "7.0");
  // The consumer Blackwell SM holds 1536 threads, not the data-centre 2048.
  std::optional<ChipInfo> sm120 = lookupChip("sm_120");
  ASSERT_TRUE(sm120);
  EXPECT_EQ(sm120->sm.maxThreads, 1536u);
  EXPECT_FALSE(lookupChip("sm_50"));
  EXPECT_FALSE(lookupChip("gfx90a"));
  EXPECT_NE(getSupportedChipList().find("sm_80, sm_86"), std::string::npos);
}

TEST(TargetTest, ExplicitToolkitIsTheOnlyCandidate) {
  EXPECT_EQ(getCudaToolkitCandidates("/nonexistent/cuda"),
            SmallVector<std::string>{"/nonexistent/cuda"});
  llvm::Expected<std::string> found = findPtxas("/nonexistent/cuda");
  ASSERT_FALSE(static_cast<bool>(found));
  std::string message = llvm::toString(found.takeError());
  EXPECT_NE(message.find("/nonexistent/cuda/bin/ptxas"), std::string::npos)
      << message;
  EXPECT_FALSE(findLibdeviceToolkit("/nonexistent/cuda"));
}

// ptxas and libdevice are looked for in the same places in the same order:
// a toolkit named by $CUDA_HOME comes before /usr/local/cuda for both.
TEST(TargetTest, PtxasAndLibdeviceShareOneSearchOrder) {
  SmallString<128> root;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("toolkit", root));
  SmallString<128> bin(root), ptxas(root), nvvm(root), libdevice(root);
  llvm::sys::path::append(bin, "bin");
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  llvm::sys::path::append(nvvm, "nvvm", "libdevice");
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  ASSERT_FALSE(llvm::sys::fs::create_directories(bin));
  ASSERT_FALSE(llvm::sys::fs::create_directories(nvvm));
  for (StringRef file : {StringRef(ptxas), StringRef(libdevice)}) {
    int fd;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(file, fd));
    ::close(fd);
  }
  ASSERT_FALSE(llvm::sys::fs::setPermissions(
      ptxas, llvm::sys::fs::all_exe | llvm::sys::fs::owner_read));
  SmallVector<std::string> candidates;
  llvm::Expected<std::string> foundPtxas = std::string();
  std::optional<std::string> foundLibdevice;
  {
    ScopedEnv noRoot("CUDA_ROOT", std::nullopt);
    ScopedEnv home("CUDA_HOME", std::string(root));
    candidates = getCudaToolkitCandidates("");
    foundPtxas = findPtxas("");
    foundLibdevice = findLibdeviceToolkit("");
  }
  llvm::sys::fs::remove_directories(root);
  ASSERT_FALSE(candidates.empty());
  auto position = [&](StringRef dir) {
    return llvm::find(candidates, dir.str()) - candidates.begin();
  };
  EXPECT_LT(position(root), position("/usr/local/cuda"));
  ASSERT_TRUE(static_cast<bool>(foundPtxas))
      << llvm::toString(foundPtxas.takeError());
  EXPECT_EQ(*foundPtxas, std::string(ptxas));
  EXPECT_EQ(foundLibdevice, std::optional<std::string>(std::string(root)));
}

} // namespace
