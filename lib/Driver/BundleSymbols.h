//===- BundleSymbols.h - How a bundle names the input's symbols -*- C++ -*-===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Driver: shared by the preparation of a bundle's modules
// (BundleBuilder.cpp) and the building of its library (BundleLibrary.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef THREADBIND_LIB_DRIVER_BUNDLESYMBOLS_H
#define THREADBIND_LIB_DRIVER_BUNDLESYMBOLS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::threadbind::detail {

/// Prefixes of the names the input's own symbols take in a bundle: no name
/// the input can spell then meets the C library, the runtime's functions
/// or the other copy of the program.
inline constexpr llvm::StringLiteral kDeviceSymbolPrefix = "threadbind.host.";
inline constexpr llvm::StringLiteral kReferenceSymbolPrefix = "threadbind.ref.";

/// Renames every symbol `module` defines at its top level (functions with
/// bodies, globals) to `prefix` + its name, and every use with it;
/// declarations keep their names, as the linker resolves them. GPU modules
/// and binaries keep theirs.
void prefixDefinedSymbols(ModuleOp module, StringRef prefix);

} // namespace mlir::threadbind::detail

#endif // THREADBIND_LIB_DRIVER_BUNDLESYMBOLS_H
