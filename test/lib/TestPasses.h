//===- TestPasses.h - ThreadBind test-only passes ---------------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TEST_LIB_TESTPASSES_H
#define THREADBIND_TEST_LIB_TESTPASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::threadbind::test {

#define GEN_PASS_DECL
#include "TestPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "TestPasses.h.inc"

} // namespace mlir::threadbind::test

#endif // THREADBIND_TEST_LIB_TESTPASSES_H
