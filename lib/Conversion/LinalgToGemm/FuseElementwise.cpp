//===- FuseElementwise.cpp - gemm-from-linalg: epilogue fusion ------------===//
//
// Folds the elementwise linalg op that consumes a gemm.matmul's result into
// the gemm.matmul's epilogue: the consumer's body is appended to the
// epilogue, its other inputs become extras (scalars, row or column vectors,
// full operands) and the fused op writes the consumer's output, at the
// consumer's place. The rules that keep this exact:
//
// - the consumer is the first op after the GEMM to touch its result, in the
//   same block, has only parallel loops, reads the whole result through
//   identity maps and writes one output of the same shape, identity-mapped;
// - unless it writes back into the GEMM's output, that output is a
//   memref.alloc no later op uses and no view is taken of (it is no longer
//   written), and the new
//   output may not alias what the GEMM reads (A, B, extras), since the fused
//   op writes it while reading them;
// - written in place, no other input may alias the GEMM result (plain
//   function arguments may; llvm.noalias tells them apart); rank-0 memref
//   inputs are not taken (the scalar is in device memory);
// - nothing between the two ops writes what the GEMM reads.
//
//===----------------------------------------------------------------------===//

#include "LinalgToGemmImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "gemm-from-linalg"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::linalg_to_gemm;

static std::string toString(AffineMap map) {
  std::string s;
  llvm::raw_string_ostream os(s);
  map.print(os);
  return s;
}

/// How a consumer input indexed by `map` is broadcast over a GEMM result of
/// rank `rank` (2, or 3 with a batch): none if gemm.matmul has no such
/// extra.
static std::optional<Broadcast> classifyBroadcast(AffineMap map,
                                                  unsigned rank) {
  if (map.getNumResults() == 0)
    return Broadcast::scalar;
  if (map.isIdentity())
    return Broadcast::full;
  SmallVector<unsigned> dims;
  for (AffineExpr expr : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return std::nullopt;
    dims.push_back(dim.getPosition());
  }
  auto is = [&](ArrayRef<unsigned> want) { return ArrayRef(dims) == want; };
  // Row vectors hold M values, column vectors N values, optionally one per
  // batch element.
  if (rank == 2) {
    if (is({0}))
      return Broadcast::row;
    if (is({1}))
      return Broadcast::col;
  } else {
    if (is({1}) || is({0, 1}))
      return Broadcast::row;
    if (is({2}) || is({0, 2}))
      return Broadcast::col;
  }
  return std::nullopt;
}

namespace {
/// A consumer input and where its value comes from in the fused epilogue.
struct Input {
  Value value;
  Broadcast broadcast = Broadcast::full;
  /// The GEMM's result (the fused epilogue's value so far).
  bool isResult = false;
  /// The consumer's own output (the fused epilogue's C argument).
  bool isOutput = false;
};

/// One fusion attempt of `consumer` into `gemm`.
class Fusion {
public:
  Fusion(MatmulOp gemm, linalg::LinalgOp consumer, BufferAliasing &aliasing)
      : gemm(gemm), consumer(consumer), aliasing(aliasing) {}

  /// Checks the rules (the reason in `reason` when one fails).
  LogicalResult check(std::string &reason);
  /// Builds the fused op before the consumer; null, with the reason, if
  /// gemm.matmul rejects it (nothing is changed then).
  MatmulOp build(std::string &reason);

private:
  MatmulOp gemm;
  linalg::LinalgOp consumer;
  BufferAliasing &aliasing;
  Value result, out;
  bool inPlace = false;
  bool hasInitArg = false;
  SmallVector<Input> inputs;
  llvm::SetVector<Value> captured;
};
} // namespace

LogicalResult Fusion::check(std::string &reason) {
  result = gemm.getC();
  auto resultType = cast<MemRefType>(result.getType());
  unsigned rank = resultType.getRank();
  if (!consumer.hasPureBufferSemantics()) {
    reason = "has tensor semantics";
    return failure();
  }
  if (consumer.getNumDpsInits() != 1) {
    reason = llvm::formatv("writes {0} outputs; a gemm.matmul writes one",
                           consumer.getNumDpsInits())
                 .str();
    return failure();
  }
  if (consumer.hasIndexSemantics()) {
    reason = "the body uses linalg.index";
    return failure();
  }
  if (consumer.getNumLoops() != rank) {
    reason = llvm::formatv("has {0} loops over a GEMM result of rank {1}",
                           consumer.getNumLoops(), rank)
                 .str();
    return failure();
  }
  OpOperand *init = consumer.getDpsInitOperand(0);
  out = init->get();
  auto outType = cast<MemRefType>(out.getType());
  inPlace = out == result;
  if (!consumer.getMatchingIndexingMap(init).isIdentity()) {
    reason = "writes its output through " +
             toString(consumer.getMatchingIndexingMap(init)) +
             ", not the identity";
    return failure();
  }
  if (outType.getRank() != resultType.getRank() ||
      llvm::any_of(llvm::zip(outType.getShape(), resultType.getShape()),
                   [](auto dims) {
                     auto [o, r] = dims;
                     return !ShapedType::isDynamic(o) &&
                            !ShapedType::isDynamic(r) && o != r;
                   })) {
    reason = "its output shape differs from the GEMM result's";
    return failure();
  }
  if (!inPlace && aliasing.overlapsOtherwise(out, result)) {
    reason = "its output overlaps the GEMM result without being it";
    return failure();
  }

  // Inputs.
  Block &body = *consumer.getBlock();
  unsigned numInputs = consumer.getNumDpsInputs();
  hasInitArg = body.getNumArguments() == numInputs + 1;
  if (!hasInitArg && body.getNumArguments() != numInputs) {
    reason = "its body has an unexpected number of arguments";
    return failure();
  }
  bool readsResult =
      inPlace && hasInitArg && !body.getArgument(numInputs).use_empty();
  for (OpOperand *operand : consumer.getDpsInputOperands()) {
    unsigned i = operand->getOperandNumber();
    Value value = operand->get();
    AffineMap map = consumer.getMatchingIndexingMap(operand);
    Input input;
    input.value = value;
    if (value == result) {
      if (!map.isIdentity()) {
        reason = llvm::formatv("reads the GEMM result through {0}, not the "
                               "identity",
                               toString(map))
                     .str();
        return failure();
      }
      input.isResult = true;
      readsResult = true;
      inputs.push_back(input);
      continue;
    }
    if (!inPlace && value == out && map.isIdentity()) {
      input.isOutput = true;
      inputs.push_back(input);
      continue;
    }
    if (aliasing.overlapsOtherwise(value, result)) {
      reason = llvm::formatv("input #{0} overlaps the GEMM result without "
                             "being it",
                             i)
                   .str();
      return failure();
    }
    // Written in place, the GEMM result is the output: an input that may
    // alias it would be read while the fused op writes it.
    if (inPlace && isa<MemRefType>(value.getType()) &&
        aliasing.mayAlias(value, result)) {
      reason = llvm::formatv("input #{0} may alias the GEMM result it "
                             "overwrites (function arguments are told apart "
                             "when one of them is llvm.noalias)",
                             i)
                   .str();
      return failure();
    }
    if (aliasing.overlapsOtherwise(value, out)) {
      reason = llvm::formatv("input #{0} overlaps the output without being "
                             "it",
                             i)
                   .str();
      return failure();
    }
    std::optional<Broadcast> broadcast = classifyBroadcast(map, rank);
    if (!broadcast) {
      reason =
          llvm::formatv(
              "input #{0} is indexed by {1}: not a scalar, a row or column "
              "vector, or the whole result",
              i, toString(map))
              .str();
      return failure();
    }
    input.broadcast = *broadcast;
    // The host cannot load it: in the GPU pipelines a memref is device
    // memory, and an epilogue takes scalars by value.
    if (auto memref = dyn_cast<MemRefType>(value.getType());
        memref && memref.getRank() == 0) {
      reason = llvm::formatv("input #{0} is a rank-0 memref: the scalar lives "
                             "in device memory, and a scalar extra is passed "
                             "by value (pass it as a scalar)",
                             i)
                   .str();
      return failure();
    }
    inputs.push_back(input);
  }
  if (!readsResult) {
    reason = inPlace ? "overwrites the GEMM result without reading it"
                     : "does not read the GEMM result";
    return failure();
  }

  // The body becomes scalar epilogue code.
  for (Operation &op : body.without_terminator())
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)) {
      reason = ("its body holds '" + op.getName().getStringRef() +
                "'; an epilogue holds side-effect-free scalar ops only")
                   .str();
      return failure();
    }
  getUsedValuesDefinedAbove(consumer->getRegion(0), captured);
  for (Value value : captured)
    if (!matchPattern(value, m_Constant()) &&
        !value.getType().isIntOrIndexOrFloat()) {
      reason = "its body uses a non-scalar value from outside";
      return failure();
    }
  if (!gemm.hasEpilogue() && gemm.getAccType() != resultType.getElementType()) {
    reason = "the gemm.matmul converts its accumulator implicitly (no "
             "epilogue region)";
    return failure();
  }

  // Unless written in place, the intermediate buffer is private to the two
  // ops (it is no longer written), and the new output may not alias what the
  // GEMM reads while it writes.
  if (!inPlace) {
    if (!result.getDefiningOp<memref::AllocOp>()) {
      reason = "the GEMM result is not a memref.alloc of this function, so "
               "it may be read after this op";
      return failure();
    }
    // Users before the GEMM only give the buffer its initial value. A view
    // of it may be read at any later point, through another value.
    Operation *gemmOp = gemm;
    for (Operation *user : result.getUsers())
      if (isa<ViewLikeOpInterface>(user) ||
          llvm::any_of(user->getResultTypes(), llvm::IsaPred<BaseMemRefType>)) {
        reason =
            ("the GEMM result has a view, '" + user->getName().getStringRef() +
             "', through which it may be read after this op")
                .str();
        return failure();
      }
    for (Operation *user : result.getUsers())
      if (user != gemmOp && user != consumer.getOperation() &&
          !isa<memref::DeallocOp, memref::DimOp>(user) &&
          !(user->getBlock() == gemmOp->getBlock() &&
            user->isBeforeInBlock(gemmOp))) {
        reason = ("the GEMM result has another user, '" +
                  user->getName().getStringRef() + "'")
                     .str();
        return failure();
      }
    auto checkDisjoint = [&](Value read, const Twine &what) {
      if (!aliasing.mayAlias(out, read))
        return success();
      reason = ("its output may alias " + what +
                " of the GEMM (function arguments are told apart when one "
                "of them is llvm.noalias)")
                   .str();
      return failure();
    };
    if (failed(checkDisjoint(gemm.getA(), "A")) ||
        failed(checkDisjoint(gemm.getB(), "B")))
      return failure();
    for (auto [i, extra] : llvm::enumerate(gemm.getExtras()))
      if (isa<MemRefType>(extra.getType()) &&
          failed(checkDisjoint(extra, "extra #" + Twine(i))))
        return failure();
  }

  // The fused op runs in the consumer's place: nothing in between may write
  // what the GEMM reads.
  SmallVector<Value> reads = {gemm.getA(), gemm.getB()};
  for (Value extra : gemm.getExtras())
    if (isa<MemRefType>(extra.getType()))
      reads.push_back(extra);
  for (Operation *op = gemm->getNextNode(); op && op != consumer.getOperation();
       op = op->getNextNode())
    for (Value read : reads)
      if (aliasing.getModRef(op, read).isMod()) {
        reason = ("'" + op->getName().getStringRef() +
                  "' between the GEMM and this op may write an operand the "
                  "GEMM reads")
                     .str();
        return failure();
      }
  return success();
}

MatmulOp Fusion::build(std::string &reason) {
  MLIRContext *ctx = gemm->getContext();
  OpBuilder b(consumer);
  Location loc = b.getFusedLoc({gemm.getLoc(), consumer.getLoc()});

  SmallVector<Value> extras(gemm.getExtras());
  SmallVector<Broadcast> broadcasts;
  for (unsigned i = 0, e = extras.size(); i < e; ++i)
    broadcasts.push_back(gemm.getExtraBroadcast(i));
  auto addExtra = [&](Value value, Broadcast broadcast) -> unsigned {
    for (unsigned i = 0, e = extras.size(); i < e; ++i)
      if (extras[i] == value && broadcasts[i] == broadcast)
        return i;
    extras.push_back(value);
    broadcasts.push_back(broadcast);
    return extras.size() - 1;
  };
  // The GEMM's C input, when it reads it: the intermediate's old contents,
  // which the fused op no longer overwrites.
  std::optional<unsigned> resultExtra;
  if (!inPlace && gemm.readsC())
    resultExtra = addExtra(result, Broadcast::full);
  SmallVector<std::optional<unsigned>> inputExtra;
  for (Input &input : inputs) {
    if (input.isResult || input.isOutput) {
      inputExtra.push_back(std::nullopt);
      continue;
    }
    inputExtra.push_back(addExtra(input.value, input.broadcast));
  }
  DenseMap<Value, unsigned> capturedExtra;
  for (Value value : captured)
    if (!matchPattern(value, m_Constant()))
      capturedExtra[value] = addExtra(value, Broadcast::scalar);

  ArrayAttr broadcastAttr;
  if (!extras.empty())
    broadcastAttr = ArrayAttr::get(
        ctx, llvm::map_to_vector(broadcasts, [&](Broadcast broadcast) {
          return Attribute(BroadcastAttr::get(ctx, broadcast));
        }));
  Type accType = gemm.getAccType();
  auto fused =
      MatmulOp::create(b, loc, gemm.getLayout(), gemm.getA(), gemm.getB(), out,
                       extras, accType, broadcastAttr, gemm.getConfigAttr());
  SmallVector<Type> argTypes = {
      accType, cast<MemRefType>(out.getType()).getElementType()};
  for (Value extra : extras) {
    Type type = extra.getType();
    if (auto memref = dyn_cast<MemRefType>(type))
      type = memref.getElementType();
    argTypes.push_back(type);
  }
  Block *block = b.createBlock(&fused.getEpilogue(), {}, argTypes,
                               SmallVector<Location>(argTypes.size(), loc));
  Value acc = block->getArgument(0), cin = block->getArgument(1);
  auto extraArg = [&](unsigned i) { return block->getArgument(2 + i); };

  // The GEMM's epilogue gives the value the consumer reads as the result.
  Value value = acc;
  if (gemm.hasEpilogue()) {
    Block &old = gemm.getEpilogue().front();
    IRMapping mapping;
    mapping.map(old.getArgument(0), acc);
    mapping.map(old.getArgument(1), resultExtra ? extraArg(*resultExtra) : cin);
    for (unsigned i = 0, e = gemm.getExtras().size(); i < e; ++i)
      mapping.map(old.getArgument(2 + i), extraArg(i));
    for (Operation &op : old.without_terminator())
      b.clone(op, mapping);
    value = mapping.lookup(old.getTerminator()->getOperand(0));
  }

  // Then the consumer's body.
  Block &body = *consumer.getBlock();
  IRMapping mapping;
  for (auto [i, input] : llvm::enumerate(inputs))
    mapping.map(body.getArgument(i), input.isResult ? value
                                     : input.isOutput
                                         ? cin
                                         : extraArg(*inputExtra[i]));
  if (hasInitArg)
    mapping.map(body.getArgument(inputs.size()), inPlace ? value : cin);
  for (Value capturedValue : captured) {
    if (auto it = capturedExtra.find(capturedValue); it != capturedExtra.end())
      mapping.map(capturedValue, extraArg(it->second));
    else
      mapping.map(capturedValue,
                  b.clone(*capturedValue.getDefiningOp())->getResult(0));
  }
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  YieldOp::create(b, loc,
                  mapping.lookupOrDefault(body.getTerminator()->getOperand(0)));

  std::string message;
  if (failed(verifyQuietly(fused, message))) {
    fused.erase();
    reason = "the fused gemm.matmul would be invalid: " + message;
    return {};
  }
  return fused;
}

void mlir::gemm::linalg_to_gemm::fuseConsumers(
    MatmulOp gemm, BufferAliasing &aliasing, Reasons &reasons, Counts &counts,
    llvm::SmallPtrSetImpl<Operation *> &deadCandidates) {
  while (true) {
    // The first op after the GEMM to touch its result.
    Operation *next = gemm->getNextNode();
    while (next && !aliasing.getModRef(next, gemm.getC()).isModOrRef())
      next = next->getNextNode();
    auto consumer = dyn_cast_or_null<linalg::LinalgOp>(next);
    if (!consumer || consumer.getNumLoops() != consumer.getNumParallelLoops())
      return;
    std::string reason;
    Fusion fusion(gemm, consumer, aliasing);
    MatmulOp fused;
    if (succeeded(fusion.check(reason)))
      fused = fusion.build(reason);
    if (!fused) {
      LLVM_DEBUG(llvm::dbgs()
                 << "gemm-from-linalg: not folding " << consumer->getName()
                 << " at " << consumer->getLoc() << ": " << reason << "\n");
      reasons[consumer] = "is the next op on the output of a gemm.matmul "
                          "but is not folded into its epilogue: " +
                          reason;
      return;
    }
    LLVM_DEBUG(llvm::dbgs() << "gemm-from-linalg: folded "
                            << consumer->getName() << " -> " << fused << "\n");
    Value result = gemm.getC();
    reasons.erase(consumer.getOperation());
    consumer->erase();
    gemm->erase();
    if (Operation *alloc = result.getDefiningOp<memref::AllocOp>())
      deadCandidates.insert(alloc);
    ++counts.fused;
    gemm = fused;
  }
}
