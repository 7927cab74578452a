//===- ReductionCombiners.cpp - Combiners of mapped reductions ------------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//
//
// What a reduction's combiner is (an all-reduce kind and its identity, or
// an arbitrary pure region), partial results that may hold nothing yet, and
// the hardware atomics some combiners have.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

#include "threadbind/Transforms/KernelRewriting.h"
#include "threadbind/Transforms/MapLoopsToThreads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::threadbind;
using namespace mlir::threadbind::reductions;

//// The all-reduce kind and identity of a combiner of `type`, or nullopt.
static std::optional<std::pair<gpu::AllReduceOperation, TypedAttr>>
classifyCombiner(Operation *op, Type type) {
  using Kind = gpu::AllReduceOperation;
  Builder b(op->getContext());
  auto floatOf = [&](const APFloat &value) -> TypedAttr {
    return b.getFloatAttr(type, value);
  };
  auto intOf = [&](const APInt &value) -> TypedAttr {
    return b.getIntegerAttr(type, value);
  };
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    return TypeSwitch<Operation *, std::optional<std::pair<Kind, TypedAttr>>>(
               op)
        // x + -0 is x for every x, -0 included; +0 would turn -0 into +0.
        .Case([&](arith::AddFOp) {
          return std::make_pair(Kind::ADD,
                                floatOf(APFloat::getZero(sem, true)));
        })
        .Case([&](arith::MulFOp) {
          return std::make_pair(Kind::MUL, floatOf(APFloat::getOne(sem)));
        })
        // maxnum and minnum return the other operand for a quiet NaN.
        .Case([&](arith::MaxNumFOp) {
          return std::make_pair(Kind::MAXNUMF, floatOf(APFloat::getQNaN(sem)));
        })
        .Case([&](arith::MinNumFOp) {
          return std::make_pair(Kind::MINNUMF, floatOf(APFloat::getQNaN(sem)));
        })
        .Case([&](arith::MaximumFOp) {
          return std::make_pair(Kind::MAXIMUMF,
                                floatOf(APFloat::getInf(sem, true)));
        })
        .Case([&](arith::MinimumFOp) {
          return std::make_pair(Kind::MINIMUMF,
                                floatOf(APFloat::getInf(sem, false)));
        })
        .Default(std::nullopt);
  }
  unsigned width = type.getIntOrFloatBitWidth();
  return TypeSwitch<Operation *, std::optional<std::pair<Kind, TypedAttr>>>(op)
      .Case([&](arith::AddIOp) {
        return std::make_pair(Kind::ADD, intOf(APInt::getZero(width)));
      })
      .Case([&](arith::MulIOp) {
        return std::make_pair(Kind::MUL, intOf(APInt(width, 1)));
      })
      .Case([&](arith::AndIOp) {
        return std::make_pair(Kind::AND, intOf(APInt::getAllOnes(width)));
      })
      .Case([&](arith::OrIOp) {
        return std::make_pair(Kind::OR, intOf(APInt::getZero(width)));
      })
      .Case([&](arith::XOrIOp) {
        return std::make_pair(Kind::XOR, intOf(APInt::getZero(width)));
      })
      .Case([&](arith::MaxSIOp) {
        return std::make_pair(Kind::MAXSI,
                              intOf(APInt::getSignedMinValue(width)));
      })
      .Case([&](arith::MinSIOp) {
        return std::make_pair(Kind::MINSI,
                              intOf(APInt::getSignedMaxValue(width)));
      })
      .Case([&](arith::MaxUIOp) {
        return std::make_pair(Kind::MAXUI, intOf(APInt::getZero(width)));
      })
      .Case([&](arith::MinUIOp) {
        return std::make_pair(Kind::MINUI, intOf(APInt::getAllOnes(width)));
      })
      .Default(std::nullopt);
}

Operation *reductions::getArgumentCombiner(Block &body) {
  Operation *combiner = &body.front();
  auto yield = dyn_cast_or_null<scf::ReduceReturnOp>(combiner->getNextNode());
  if (!yield || combiner->getNumOperands() != 2 ||
      combiner->getNumResults() != 1 ||
      yield.getResult() != combiner->getResult(0))
    return nullptr;
  Value a = body.getArgument(0), b = body.getArgument(1);
  Value x = combiner->getOperand(0), y = combiner->getOperand(1);
  return (x == a && y == b) || (x == b && y == a) ? combiner : nullptr;
}

/// Checks that `loop` is a reduction this pass maps and describes each of
/// its results. Errors at the offending op otherwise; never changes the IR.
FailureOr<SmallVector<Reduction>>
reductions::analyzeReduction(scf::ParallelOp loop) {
  // Reductions over several dimensions were linearised by the pass.
  if (loop.getNumLoops() != 1)
    return loop.emitOpError("reduces over ")
           << loop.getNumLoops() << " dimensions; linearise it first";
  if (failed(verifyMappableBody(loop)))
    return failure();
  auto reduce = cast<scf::ReduceOp>(loop.getBody()->getTerminator());
  SmallVector<Reduction> reductions;
  for (auto [index, region] : llvm::enumerate(reduce.getReductions())) {
    Type type = loop.getResult(index).getType();
    if (!type.isF16() && !type.isBF16() && !type.isF32() && !type.isF64() &&
        !type.isInteger(8) && !type.isInteger(16) && !type.isInteger(32) &&
        !type.isInteger(64))
      return reduce.emitOpError("reduces a value of type ")
             << type
             << "; threadbind-map-reductions takes f16, bf16, f32, f64, "
                "i8, i16, i32 and i64, and index and i1 with an integer "
                "combiner (addi, muli, andi, ori, xori, min, max)";
    Block &body = region.front();
    std::optional<std::pair<gpu::AllReduceOperation, TypedAttr>> kind;
    if (Operation *combiner = getArgumentCombiner(body))
      kind = classifyCombiner(combiner, type);
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(region, captured);
    for (Value value : captured)
      if (!matchPattern(value, m_Constant()))
        return reduce.emitOpError("combiner ")
               << index
               << " uses a value defined outside it that is not a constant; "
                  "threadbind-map-reductions combines partial results in "
                  "regions of their own, which can take only constants "
                  "from outside";
    if (!kind) {
      // Any other region of pure ops combines too, with a flag beside each
      // partial value in place of an identity. A shuffle moves 64 bits, so
      // the flag fits beside values of 32 bits at most.
      for (Operation &op : body.without_terminator())
        if (!isPure(&op))
          return op.emitOpError("is in the combiner of a reduction; "
                                "threadbind-map-reductions evaluates "
                                "combiners speculatively, so they must be "
                                "pure ops");
      if (type.getIntOrFloatBitWidth() > 32)
        return reduce.emitOpError("combiner ")
               << index << " is a region on " << type
               << " values; threadbind-map-reductions maps combiner regions "
                  "on values of up to 32 bits (a flag rides beside the value "
                  "in a 64-bit shuffle), and addf, mulf, maxnumf, minnumf, "
                  "maximumf, minimumf, addi, muli, andi, ori, xori, maxsi, "
                  "minsi, maxui or minui of its two arguments on any type";
    }

    Reduction reduction{&body, std::nullopt, nullptr};
    if (kind) {
      reduction.kind = kind->first;
      reduction.identity = kind->second;
    }
    reductions.push_back(std::move(reduction));
  }
  return reductions;
}

/// Whether `value` is available where `loop` is: defined outside its block,
/// or before it in the block.
static bool isDefinedBefore(Value value, scf::ParallelOp loop) {
  // A block argument is there throughout its block and the regions in it.
  Operation *def = value.getDefiningOp();
  if (!def)
    return true;
  return def->getBlock() != loop->getBlock() || def->isBeforeInBlock(loop);
}

LogicalResult
reductions::collectEpilogue(scf::ParallelOp loop,
                            SmallVectorImpl<Operation *> &epilogue,
                            bool report, Operation *skip) {
  auto refuse = [&](Operation *op, const Twine &why) {
    if (report)
      op->emitOpError(why);
    return failure();
  };
  // The uses of the results, and of what is computed from them, all in the
  // loop's block after it.
  Block *block = loop->getBlock();
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist(loop.getResults());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (skip && skip->isAncestor(user))
        continue;
      if (user->getBlock() != block)
        return refuse(user, "uses a reduction result in another block; "
                            "threadbind-map-reductions moves the pure ops and "
                            "stores that follow a reduction, in its block, "
                            "into its kernel");
      if (auto store = dyn_cast<memref::StoreOp>(user)) {
        if (use.getOperandNumber() != 0)
          return refuse(user, "stores at a place computed from a reduction "
                              "result");
        slice.insert(store);
        continue;
      }
      // A terminator (scf.yield is pure) passes the result on, out of
      // the block that the kernel replaces.
      if (!isPure(user) || user->getNumRegions() != 0 ||
          user->hasTrait<OpTrait::IsTerminator>())
        return refuse(user, "uses a reduction result; threadbind-map-"
                            "reductions moves the pure ops and memref.stores "
                            "that follow a reduction into its kernel, and "
                            "this is neither");
      if (slice.insert(user))
        llvm::append_range(worklist, user->getResults());
    }
  }
  // Anything else they use must be there before the loop, or a constant
  // the kernel can make again.
  for (Operation *op : slice)
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def == loop || (def && slice.contains(def)) ||
          isDefinedBefore(operand, loop) ||
          (def && def->hasTrait<OpTrait::ConstantLike>()))
        continue;
      return refuse(op, isa<memref::StoreOp>(op)
                            ? "stores a reduction result at a place computed "
                              "after the loop"
                            : "combines a reduction result with a value "
                              "computed after the loop");
    }
  epilogue.assign(slice.begin(), slice.end());
  llvm::sort(epilogue,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  // The kernel does all of it where the loop was, so nothing between the
  // loop and the last of it may read or write memory.
  Operation *last = epilogue.empty() ? loop.getOperation() : epilogue.back();
  for (Operation *op = loop->getNextNode(); op && op != last;
       op = op->getNextNode())
    if (!slice.contains(op) && !isMemoryEffectFree(op))
      return refuse(op, "touches memory between a reduction and the use of "
                        "its result, which the reduction's kernel makes");
  return success();
}

void reductions::replayEpilogue(OpBuilder &builder, scf::ParallelOp loop,
                                ArrayRef<Operation *> epilogue,
                                IRMapping &mapping) {
  for (Operation *op : epilogue) {
    // Constants defined after the loop are made again inside.
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && !mapping.contains(operand) &&
          def->hasTrait<OpTrait::ConstantLike>() &&
          def->getBlock() == loop->getBlock() && loop->isBeforeInBlock(def))
        mapping.map(operand, builder.clone(*def)->getResult(0));
    builder.clone(*op, mapping);
  }
}

/// `lhs` combined with `rhs` by a copy of `reduction`'s combiner.
Value reductions::combine(OpBuilder &builder, const Reduction &reduction,
                          Value lhs, Value rhs) {
  IRMapping mapping;
  Block *body = reduction.combiner;
  mapping.map(body->getArgument(0), lhs);
  mapping.map(body->getArgument(1), rhs);
  // The combine may land in an isolated region (gpu.all_reduce's), so the
  // constants a combiner takes from outside (canonicalisation hoists them
  // out of scf.reduce) are made again here; analyzeReduction refused any
  // other value from outside.
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(*body->getParent(), captured);
  for (Value value : captured)
    mapping.map(value, builder.clone(*value.getDefiningOp())->getResult(0));
  for (Operation &op : body->without_terminator())
    builder.clone(op, mapping);
  return mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
}

/// `lhs` and `rhs` combined; where one holds nothing, the other. The
/// combiner is pure, so it runs on whatever an empty side holds and a
/// select drops that.
Partial reductions::merge(OpBuilder &builder, Location loc,
                          const Reduction &reduction, Partial lhs,
                          Partial rhs) {
  Value both = combine(builder, reduction, lhs.value, rhs.value);
  if (!lhs.valid)
    return {both, nullptr};
  Value all = arith::AndIOp::create(builder, loc, lhs.valid, rhs.valid);
  Value either =
      arith::SelectOp::create(builder, loc, lhs.valid, lhs.value, rhs.value);
  return {arith::SelectOp::create(builder, loc, all, both, either),
          arith::OrIOp::create(builder, loc, lhs.valid, rhs.valid)};
}

/// A partial result that holds nothing: the identity, or any value flagged
/// empty.
Partial reductions::createEmpty(OpBuilder &builder, Location loc,
                                const Reduction &reduction) {
  if (reduction.identity)
    return {arith::ConstantOp::create(builder, loc, reduction.identity),
            nullptr};
  auto zero = cast<TypedAttr>(builder.getZeroAttr(reduction.getType()));
  return {arith::ConstantOp::create(builder, loc, zero),
          arith::ConstantIntOp::create(builder, loc, 0, 1)};
}

/// `value` as a partial result that holds it.
Partial reductions::createFull(OpBuilder &builder, Location loc,
                               const Reduction &reduction, Value value) {
  if (reduction.identity)
    return {value, nullptr};
  return {value, arith::ConstantIntOp::create(builder, loc, 1, 1)};
}

/// The SSA values of `partials`, as loop-carried values: each value, then
/// its flag where it has one.
SmallVector<Value> reductions::flatten(ArrayRef<Partial> partials) {
  SmallVector<Value> values;
  for (const Partial &partial : partials) {
    values.push_back(partial.value);
    if (partial.valid)
      values.push_back(partial.valid);
  }
  return values;
}

/// The inverse of flatten for `groups` consecutive sets of `reductions`'
/// partial results.
SmallVector<Partial> reductions::unflatten(ArrayRef<Reduction> reductions,
                                           ValueRange values, unsigned groups) {
  SmallVector<Partial> partials;
  auto it = values.begin();
  for (unsigned g = 0; g < groups; ++g) {
    for (const Reduction &reduction : reductions) {
      Partial partial{*it++, nullptr};
      if (!reduction.identity)
        partial.valid = *it++;
      partials.push_back(partial);
    }
  }
  return partials;
}

/// The init value combined with `total`, the loop's result: the init value
/// joins exactly once, and alone where the loop folded nothing.
Value reductions::combineInit(OpBuilder &builder, Location loc,
                              const Reduction &reduction, Value init,
                              Partial total) {
  Value result = combine(builder, reduction, init, total.value);
  if (!total.valid)
    return result;
  return arith::SelectOp::create(builder, loc, total.valid, result, init);
}

/// The hardware atomic that combines `reduction`'s values in memory, where
/// the chip has one: add, and, or, xor, min and max of 32- and 64-bit
/// integers, f32 and f64 add.
std::optional<arith::AtomicRMWKind>
reductions::getHardwareAtomic(const Reduction &reduction) {
  using Kind = gpu::AllReduceOperation;
  Type type = reduction.getType();
  // Atomics narrower than 32 bits are compare-and-swap loops on the word
  // around them; the second kernel combines those instead.
  if (!reduction.kind || type.getIntOrFloatBitWidth() < 32)
    return std::nullopt;
  switch (*reduction.kind) {
  case Kind::ADD:
    return isa<FloatType>(type) ? arith::AtomicRMWKind::addf
                                : arith::AtomicRMWKind::addi;
  case Kind::AND:
    return arith::AtomicRMWKind::andi;
  case Kind::OR:
    return arith::AtomicRMWKind::ori;
  case Kind::XOR:
    return arith::AtomicRMWKind::xori;
  case Kind::MAXSI:
    return arith::AtomicRMWKind::maxs;
  case Kind::MINSI:
    return arith::AtomicRMWKind::mins;
  case Kind::MAXUI:
    return arith::AtomicRMWKind::maxu;
  case Kind::MINUI:
    return arith::AtomicRMWKind::minu;
  default:
    return std::nullopt;
  }
}

/// A one-element device accumulator for `reduction` holding its identity:
/// bytes from `allocate`, set a 32-bit word at a time (the widest memset
/// the GPU runtime has), and viewed as the reduced type.
Value reductions::createAtomicAccumulator(
    RewriterBase &rewriter, Location loc, const Reduction &reduction,
    function_ref<Value(MemRefType, ValueRange)> allocate) {
  Type type = reduction.getType();
  unsigned bytes = type.getIntOrFloatBitWidth() / 8;
  Value raw =
      allocate(MemRefType::get({bytes}, rewriter.getI8Type()), ValueRange());
  APInt identity =
      reduction.identity.getType().isIntOrIndex()
          ? cast<IntegerAttr>(reduction.identity).getValue()
          : cast<FloatAttr>(reduction.identity).getValue().bitcastToAPInt();
  auto tokenType = gpu::AsyncTokenType::get(rewriter.getContext());
  auto wordType = MemRefType::get({1}, rewriter.getI32Type());
  for (unsigned word = 0; word < bytes / 4; ++word) {
    Value offset = arith::ConstantIndexOp::create(rewriter, loc, 4 * word);
    Value view = memref::ViewOp::create(rewriter, loc, wordType, raw, offset,
                                        ValueRange());
    // Little-endian: word 0 holds the low bits.
    Value bits =
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(),
                                     identity.extractBits(32, 32 * word));
    Value ready = gpu::WaitOp::create(rewriter, loc, tokenType, ValueRange())
                      .getAsyncToken();
    Value set = gpu::MemsetOp::create(rewriter, loc, tokenType,
                                      ValueRange{ready}, view, bits)
                    .getAsyncToken();
    gpu::WaitOp::create(rewriter, loc, Type(), ValueRange{set});
  }
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  return memref::ViewOp::create(rewriter, loc, MemRefType::get({1}, type), raw,
                                zero, ValueRange());
}
