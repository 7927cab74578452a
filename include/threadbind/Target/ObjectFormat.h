//===- ObjectFormat.h - What kernels are compiled to ------------*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// The forms serialisation gives kernels, apart from the serialiser, so that
// pass options (PassEnums.h) name them without pulling in the dialects.
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_TARGET_OBJECTFORMAT_H
#define THREADBIND_TARGET_OBJECTFORMAT_H

namespace mlir::threadbind {

/// What threadbind-serialize-kernels compiles kernels to.
enum class KernelObjectFormat {
  /// PTX assembly, every module's in one text.
  PTX,
  /// Optimised LLVM bitcode, every module linked into one.
  Bitcode,
};

} // namespace mlir::threadbind

#endif // THREADBIND_TARGET_OBJECTFORMAT_H
