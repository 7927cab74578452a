//===- PassRegistrationTest.cpp - Tests for pass registration -------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "threadbind/InitAllPasses.h"

#include "mlir/Pass/PassRegistry.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

TEST(PassRegistrationTest, TestPassesAreRegisteredUnderTheProjectPrefix) {
  threadbind::registerAllPasses();
  threadbind::test::registerThreadBindTestPasses();
  const PassInfo *info =
      PassInfo::lookup("threadbind-test-emulate-gpu-launch");
  ASSERT_NE(info, nullptr);
  EXPECT_FALSE(info->getPassDescription().empty());
}

TEST(PassRegistrationTest, PassesAndPipelinesAreRegistered) {
  threadbind::registerAllPasses();
  for (StringRef name :
       {"threadbind-map-loops-to-threads", "threadbind-merge-gpu-modules",
        "threadbind-allow-fp-contraction", "threadbind-bind-grid-queries"})
    EXPECT_NE(PassInfo::lookup(name), nullptr) << name.str();
  for (StringRef name : {"threadbind-normalize", "threadbind-map-to-gpu",
                         "threadbind-to-ptx"})
    EXPECT_NE(PassPipelineInfo::lookup(name), nullptr) << name.str();
}

TEST(PassRegistrationTest, RegistrationIsIdempotent) {
  // The plugin and the tool may both register; a second call must not abort.
  threadbind::registerAllPasses();
  threadbind::registerAllPasses();
  threadbind::test::registerThreadBindTestPasses();
  threadbind::test::registerThreadBindTestPasses();
  EXPECT_NE(PassInfo::lookup("threadbind-test-emulate-gpu-launch"), nullptr);
}

} // namespace
