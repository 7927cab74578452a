//===- DriverTest.cpp - Tests for the compiler driver's helpers -----------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "threadbind/Driver/BundleBuilder.h"
#include "threadbind/Driver/CompileSession.h"
#include "threadbind/Driver/Manifest.h"
#include "threadbind/Driver/Occupancy.h"
#include "threadbind/Driver/Ptxas.h"
#include "threadbind/Pipelines/Pipelines.h"
#include "threadbind/Runtime/Bundle.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Parser/Parser.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Host.h"

#include <cstddef>

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::threadbind;

namespace {

/// The bundle's table is built as LLVM globals and read through the C
/// header: the two layouts must agree, field by field, on this host.
TEST(BundleTableTest, LLVMLayoutMatchesTheCHeader) {
  llvm::InitializeNativeTarget();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  ASSERT_TRUE(target) << error;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "generic", "", llvm::TargetOptions(), std::nullopt));
  llvm::DataLayout layout = machine->createDataLayout();
  llvm::LLVMContext context;
  auto check = [&](llvm::StructType *type, size_t size,
                   std::initializer_list<size_t> offsets) {
    const llvm::StructLayout *fields = layout.getStructLayout(type);
    EXPECT_EQ(fields->getSizeInBytes(), size);
    ASSERT_EQ(type->getNumElements(), offsets.size());
    unsigned i = 0;
    for (size_t offset : offsets)
      EXPECT_EQ(fields->getElementOffset(i++), offset) << "field " << i - 1;
  };
  check(getBundleArgumentType(context), sizeof(ThreadBindArgument),
        {offsetof(ThreadBindArgument, isMemRef),
         offsetof(ThreadBindArgument, elementType),
         offsetof(ThreadBindArgument, rank), offsetof(ThreadBindArgument, access),
         offsetof(ThreadBindArgument, shape),
         offsetof(ThreadBindArgument, paddedTo),
         offsetof(ThreadBindArgument, strided),
         offsetof(ThreadBindArgument, strides),
         offsetof(ThreadBindArgument, offset)});
  check(getBundleTermType(context), sizeof(ThreadBindTerm),
        {offsetof(ThreadBindTerm, kind), offsetof(ThreadBindTerm, arg),
         offsetof(ThreadBindTerm, dim), offsetof(ThreadBindTerm, value)});
  check(getBundleGuardType(context), sizeof(ThreadBindGuard),
        {offsetof(ThreadBindGuard, lower), offsetof(ThreadBindGuard, upper)});
  check(getBundleRequirementType(context), sizeof(ThreadBindRequirement),
        {offsetof(ThreadBindRequirement, arg),
         offsetof(ThreadBindRequirement, dim),
         offsetof(ThreadBindRequirement, bound),
         offsetof(ThreadBindRequirement, offset),
         offsetof(ThreadBindRequirement, numGuards),
         offsetof(ThreadBindRequirement, guards),
         offsetof(ThreadBindRequirement, where)});
  check(getBundleEntryType(context), sizeof(ThreadBindEntry),
        {offsetof(ThreadBindEntry, name), offsetof(ThreadBindEntry, gpu),
         offsetof(ThreadBindEntry, reference),
         offsetof(ThreadBindEntry, numArguments),
         offsetof(ThreadBindEntry, arguments),
         offsetof(ThreadBindEntry, numRequirements),
         offsetof(ThreadBindEntry, requirements)});
}

/// The per-SM limits of `chip`, from the one chip table.
static std::optional<SMLimits> chipLimits(StringRef chip) {
  if (std::optional<ChipInfo> info = lookupChip(chip))
    return info->sm;
  return std::nullopt;
}

TEST(OccupancyTest, RegistersLimitWarpsInUnitsOf256) {
  std::optional<SMLimits> h100 = chipLimits("sm_90");
  ASSERT_TRUE(h100);
  // 32 registers: 8 blocks of 256, the whole SM.
  EXPECT_EQ(residentBlocks(*h100, 256, 32, 0), 8u);
  EXPECT_DOUBLE_EQ(occupancy(*h100, 256, 32, 0), 1.0);
  // 40 registers: 1280 a warp, 51 warps, 6 blocks of 8 warps: 75%.
  EXPECT_EQ(residentBlocks(*h100, 256, 40, 0), 6u);
  EXPECT_DOUBLE_EQ(occupancy(*h100, 256, 40, 0), 0.75);
  // The same kernel in blocks of 1024 fits once: 50%; of 128, 12: 75%.
  EXPECT_DOUBLE_EQ(occupancy(*h100, 1024, 40, 0), 0.5);
  EXPECT_EQ(residentBlocks(*h100, 128, 40, 0), 12u);
  // 33 registers cost a warp 1056, rounded to 1280: the same as 40.
  EXPECT_EQ(residentBlocks(*h100, 256, 33, 0), 6u);
}

TEST(OccupancyTest, BlockCountAndSharedMemoryLimit) {
  std::optional<SMLimits> h100 = chipLimits("sm_90");
  ASSERT_TRUE(h100);
  // 32 blocks at most, whatever their size.
  EXPECT_EQ(residentBlocks(*h100, 32, 16, 0), 32u);
  EXPECT_DOUBLE_EQ(occupancy(*h100, 32, 16, 0), 0.5);
  // 48 KiB of shared memory a block (plus 1 KiB reserved): 4 of 228 KiB.
  EXPECT_EQ(residentBlocks(*h100, 256, 32, 48 * 1024), 4u);
  // Blocks larger than the SM, or registers past the limit, do not fit.
  EXPECT_EQ(residentBlocks(*h100, 4096, 32, 0), 0u);
  EXPECT_EQ(residentBlocks(*h100, 256, 256, 0), 0u);
  // An sm_86 SM holds 1536 threads: one block of 1024.
  std::optional<SMLimits> a10 = chipLimits("sm_86");
  ASSERT_TRUE(a10);
  EXPECT_EQ(residentBlocks(*a10, 1024, 32, 0), 1u);
  EXPECT_EQ(residentBlocks(*a10, 512, 32, 0), 3u);
}

TEST(OccupancyTest, ChoosesTheSizeBestForTheWorstKernel) {
  std::optional<SMLimits> h100 = chipLimits("sm_90");
  ASSERT_TRUE(h100);
  SmallVector<unsigned> sizes = {128, 256, 512, 1024};
  // Light kernels fill the SM at any size but 1024 with 40 registers: the
  // tie goes to the preferred 256.
  PtxasKernelInfo light{"light", 32, 0, 0, 0, 0, 0};
  BlockSizeChoice choice = chooseBlockSize(*h100, {light}, sizes, 256);
  EXPECT_EQ(choice.threadsPerBlock, 256u);
  EXPECT_NE(choice.why.find("'light' (32 registers"), std::string::npos);
  // 72 registers: 2304 a warp, 28 of the SM's 64 warps: 7 blocks of 128
  // (28 warps, 44%), 3 of 256 (24, 38%), 1 of 512 (16, 25%), none of 1024:
  // 128 wins, and says so.
  PtxasKernelInfo heavy{"heavy", 72, 0, 0, 0, 0, 0};
  choice = chooseBlockSize(*h100, {light, heavy}, sizes, 256);
  EXPECT_EQ(choice.threadsPerBlock, 128u);
  EXPECT_NE(choice.why.find("'heavy'"), std::string::npos);
  EXPECT_NE(choice.why.find("by size: 128 44% 256 38% 512 25% 1024 0%"),
            std::string::npos)
      << choice.why;
  // Nothing to weigh: the preferred size.
  EXPECT_EQ(chooseBlockSize(*h100, {}, sizes, 256).threadsPerBlock, 256u);
}

TEST(OccupancyTest, DropsALaunchBoundOnlyWhereItSpillsAndTheBlockFits) {
  std::optional<SMLimits> h100 = chipLimits("sm_90");
  ASSERT_TRUE(h100);
  // ptxas spilled under .maxntid 1024 (64 registers each), and without it
  // needs 54: a block of 1024 still fits, so the bound goes.
  PtxasKernelInfo bounded{"k", 64, 0, 72, 72, 0, 0};
  PtxasKernelInfo unbounded{"k", 54, 0, 0, 0, 0, 0};
  LaunchBoundChoice choice =
      chooseLaunchBound(*h100, 1024, bounded, unbounded);
  EXPECT_TRUE(choice.drop);
  EXPECT_NE(choice.why.find("with .maxntid 1024, 64 registers and 144 B of "
                            "spills a thread; without it, 54 registers and 0 "
                            "B: the bound is dropped"),
            std::string::npos)
      << choice.why;
  // Without the bound it needs 96: 1024 threads of those do not fit.
  unbounded.registers = 96;
  choice = chooseLaunchBound(*h100, 1024, bounded, unbounded);
  EXPECT_FALSE(choice.drop);
  EXPECT_NE(choice.why.find("too many for a block of 1024"), std::string::npos);
  // The same 96 in blocks of 256 fit.
  EXPECT_TRUE(chooseLaunchBound(*h100, 256, bounded, unbounded).drop);
  // Spilling as much without the bound gains nothing.
  unbounded = bounded;
  EXPECT_FALSE(chooseLaunchBound(*h100, 256, bounded, unbounded).drop);
}

TEST(PtxasReportTest, FindsAndRemovesEachEntrysLaunchBound) {
  constexpr StringLiteral ptx = R"(.visible .entry k(
	.param .u64 k_param_0
)
.maxntid 256, 1, 1
{
	ret;
}
.visible .entry k_0(
	.param .u64 k_0_param_0
)
.maxntid 32, 8, 2
{
	ret;
}
.visible .entry free(
	.param .u64 free_param_0
)
{
	ret;
}
)";
  EXPECT_EQ(getMaxntidThreads(ptx, "k"), 256u);
  EXPECT_EQ(getMaxntidThreads(ptx, "k_0"), 512u);
  EXPECT_EQ(getMaxntidThreads(ptx, "free"), std::nullopt);
  EXPECT_EQ(getMaxntidThreads(ptx, "absent"), std::nullopt);
  // Only the named entry loses its bound; a name that is a prefix of
  // another's is not confused with it.
  std::string relaxed = removeMaxntid(ptx, {"k"});
  EXPECT_EQ(getMaxntidThreads(relaxed, "k"), std::nullopt);
  EXPECT_EQ(getMaxntidThreads(relaxed, "k_0"), 512u);
  EXPECT_EQ(relaxed.size(), ptx.size() - StringRef(".maxntid 256, 1, 1\n").size());
  EXPECT_EQ(removeMaxntid(ptx, {"free", "absent"}), ptx.str());
  std::string both = removeMaxntid(ptx, {"k_0", "k"});
  EXPECT_EQ(StringRef(both).find(".maxntid"), StringRef::npos);
  // All bounds in one pass: the same answers, entries without one absent.
  llvm::StringMap<unsigned> bounds = getMaxntidThreadsOfEntries(ptx);
  EXPECT_EQ(bounds.size(), 2u);
  EXPECT_EQ(bounds.lookup("k"), 256u);
  EXPECT_EQ(bounds.lookup("k_0"), 512u);
  EXPECT_FALSE(bounds.contains("free"));
}

TEST(PtxasReportTest, ReadsEveryKernelsResources) {
  // The shape of `ptxas -v` output from CUDA 13.
  constexpr StringLiteral report = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'copy_kernel' for 'sm_90'
ptxas info    : Function properties for copy_kernel
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 20 registers, used 0 barriers
ptxas info    : Compiling entry function 'tree_kernel' for 'sm_90'
ptxas info    : Function properties for tree_kernel
    48 bytes stack frame, 16 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers, 4096 bytes smem
ptxas info    : Compile time = 24.289 ms
)";
  SmallVector<PtxasKernelInfo> kernels = parsePtxasReport(report);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "copy_kernel");
  EXPECT_EQ(kernels[0].registers, 20u);
  EXPECT_EQ(kernels[0].spillStoreBytes, 0u);
  EXPECT_EQ(kernels[0].sharedBytes, 0u);
  EXPECT_EQ(kernels[1].name, "tree_kernel");
  EXPECT_EQ(kernels[1].registers, 255u);
  EXPECT_EQ(kernels[1].stackBytes, 48u);
  EXPECT_EQ(kernels[1].spillStoreBytes, 16u);
  EXPECT_EQ(kernels[1].spillLoadBytes, 12u);
  EXPECT_EQ(kernels[1].sharedBytes, 4096u);
  EXPECT_EQ(kernels[1].barriers, 1u);
  EXPECT_TRUE(parsePtxasReport("").empty());
}

TEST(DescribeHostValueTest, ExpressionsOverFunctionArguments) {
  MLIRContext context;
  context.loadDialect<arith::ArithDialect, func::FuncDialect,
                      memref::MemRefDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
func.func private @host_only(index) -> index
func.func @f(%a: memref<?x?xf32>, %n: index)
    -> (index, index, index, i1, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %d = memref.dim %a, %c1 : memref<?x?xf32>
  %e = arith.maxsi %d, %c0 : index
  %g = arith.ceildivui %e, %c256 : index
  %h = arith.muli %g, %n : index
  %s = arith.addi %h, %c1 : index
  %lt = arith.cmpi ult, %n, %d : index
  %t = arith.constant true
  %both = arith.andi %lt, %t : i1
  %q = call @host_only(%n) : (index) -> index
  %m = arith.minsi %q, %c256 : index
  return %g, %s, %c256, %both, %m : index, index, index, i1, index
}
)mlir",
                                                             &context);
  ASSERT_TRUE(module);
  auto func = *module->getOps<func::FuncOp>().begin();
  for (auto candidate : module->getOps<func::FuncOp>())
    if (!candidate.isDeclaration())
      func = candidate;
  Operation *ret = func.getBody().front().getTerminator();
  auto json = [](const LaunchExpr &e) {
    std::string text;
    llvm::raw_string_ostream os(text);
    e.writeJson(os);
    return text;
  };
  LaunchExpr grid = describeHostValue(ret->getOperand(0));
  EXPECT_EQ(grid.str(), "ceildivu(max(dim(arg0, 1), 0), 256)");
  EXPECT_EQ(json(grid), R"({"op":"ceildivu","args":[{"op":"max","args":)"
                        R"([{"dim":[0,1]},0]},256]})");
  EXPECT_TRUE(grid.isComputable());
  EXPECT_EQ(describeHostValue(ret->getOperand(1)).str(),
            "((ceildivu(max(dim(arg0, 1), 0), 256) * arg1) + 1)");
  LaunchExpr constant = describeHostValue(ret->getOperand(2));
  EXPECT_TRUE(constant.isConstant());
  EXPECT_EQ(json(constant), "256");
  // An i1 true is 1, not -1; logical and is "and".
  LaunchExpr condition = describeHostValue(ret->getOperand(3));
  EXPECT_EQ(json(condition), R"({"op":"and","args":[{"op":"ltu","args":)"
                             R"([{"arg":1},{"dim":[0,1]}]},1]})");
  // A value only the host function computes stays opaque, and so does
  // everything built on it.
  LaunchExpr opaque = describeHostValue(ret->getOperand(4));
  EXPECT_FALSE(opaque.isComputable());
  ASSERT_NE(opaque.findOpaque(), nullptr);
  EXPECT_EQ(opaque.findOpaque()->name, "host_only(arg1)");
  EXPECT_EQ(json(opaque),
            R"j({"op":"min","args":[{"opaque":"host_only(arg1)"},256]})j");
}

TEST(DescribeHostValueTest, WideningCastsKeepTheirSignedness) {
  MLIRContext context;
  context.loadDialect<arith::ArithDialect, func::FuncDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
func.func @g(%b: i1, %n: i32, %m: index) -> (i8, i8, index, index, i32) {
  %s = arith.extsi %b : i1 to i8
  %z = arith.extui %b : i1 to i8
  %i = arith.index_cast %n : i32 to index
  %u = arith.index_castui %n : i32 to index
  %t = arith.index_cast %m : index to i32
  return %s, %z, %i, %u, %t : i8, i8, index, index, i32
}
)mlir",
                                                             &context);
  ASSERT_TRUE(module);
  auto func = *module->getOps<func::FuncOp>().begin();
  Operation *ret = func.getBody().front().getTerminator();
  auto json = [&](unsigned i) {
    std::string text;
    llvm::raw_string_ostream os(text);
    describeHostValue(ret->getOperand(i)).writeJson(os);
    return text;
  };
  // An i1 true sign-extends to -1 and zero-extends to 1.
  EXPECT_EQ(json(0), R"({"op":"sext","args":[{"arg":0}],"bits":1})");
  EXPECT_EQ(json(1), R"({"op":"zext","args":[{"arg":0}],"bits":1})");
  EXPECT_EQ(json(2), R"({"op":"sext","args":[{"arg":1}],"bits":32})");
  EXPECT_EQ(json(3), R"({"op":"zext","args":[{"arg":1}],"bits":32})");
  // A narrowing cast keeps the value (the launch conditions bound it).
  EXPECT_EQ(json(4), R"({"arg":2})");
  EXPECT_EQ(describeHostValue(ret->getOperand(0)).str(), "sext1(arg0)");
}

/// A context that can run every stage of a compilation.
static void registerCompileDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
}

constexpr const char *kScale = R"mlir(
func.func @scale(%a: memref<?xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = arith.mulf %x, %s : f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}
)mlir";

/// The session behind threadbind-compile, driven without the tool: one run
/// fills the main output and every kept form, and the manifest describes
/// the kernel in the PTX.
/// Compiles kScale as `request` asks; fails the test if it does not.
static CompileResult compileScale(const CompileRequest &request) {
  DialectRegistry registry;
  registerCompileDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kScale, &context);
  CompileResult result;
  EXPECT_TRUE(module);
  if (!module)
    return result;
  CompileSession session(context, request);
  EXPECT_TRUE(succeeded(session.prepare()));
  TimingScope timing;
  EXPECT_TRUE(succeeded(session.run(*module, result, timing)));
  return result;
}

TEST(CompileSessionTest, OneRunGivesEveryFormAskedFor) {
  CompileRequest request;
  request.emit = EmitKind::PTX;
  request.keepMLIR = true;
  request.keepManifest = true;
  request.sourceName = "scale.mlir";
  CompileResult result = compileScale(request);
  EXPECT_NE(result.output.find(".entry scale_kernel"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find(".maxntid 256, 1, 1"), std::string::npos);
  EXPECT_NE(result.mlir.find("gpu.launch"), std::string::npos);
  EXPECT_EQ(result.mlir.find("scf.parallel"), std::string::npos);
  EXPECT_NE(result.manifest.find("\"scale_kernel\""), std::string::npos)
      << result.manifest;
  EXPECT_NE(result.manifest.find("\"scale.mlir\""), std::string::npos);
  EXPECT_TRUE(result.ptx.empty());
  EXPECT_TRUE(result.cubin.empty());
}

/// Options reach the stages: a block of 64 threads shows in the PTX.
TEST(CompileSessionTest, OptionsReachTheStages) {
  CompileRequest request;
  request.options.mapping.threadsPerBlock.count = 64;
  CompileResult result = compileScale(request);
  EXPECT_NE(result.output.find(".maxntid 64, 1, 1"), std::string::npos)
      << result.output;
}

/// Settings that do not fit together are refused before any work.
TEST(CompileSessionTest, RequestsThatDoNotFitAreRefused) {
  CompileRequest request;
  EXPECT_EQ(request.verify(), "");
  request.emit = EmitKind::MLIR;
  request.keepPTX = true;
  EXPECT_NE(request.verify().find("--save-ptx"), std::string::npos);
  request.keepPTX = false;
  request.keepManifest = true;
  EXPECT_NE(request.verify().find("--manifest"), std::string::npos);
  request = CompileRequest();
  request.mapper = Mapper::UpstreamTiled;
  request.upstreamTiles = {32, 0};
  EXPECT_NE(request.verify().find("positive, not 0"), std::string::npos);
  request = CompileRequest();
  request.options.target.chip = "sm_1";
  EXPECT_NE(request.verify().find("sm_1"), std::string::npos);
}

} // namespace
