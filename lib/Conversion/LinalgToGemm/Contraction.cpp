//===- Contraction.cpp - gemm-from-linalg: contractions -------------------===//
//
// Recognizes a linalg contraction on memrefs (linalg.matmul,
// linalg.batch_matmul, linalg.contract, a matmul-like linalg.generic, with
// or without transposing indexing maps) from its indexing maps and body, and
// rewrites it into a gemm.matmul: the maps give the layout, the output's
// element type the accumulator type. linalg accumulates into its output, so
// the epilogue adds the C input, unless a linalg.fill of the output comes
// right before: the fill is dropped and its value, when not zero, added.
//
//===----------------------------------------------------------------------===//

#include "LinalgToGemmImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "gemm-from-linalg"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::linalg_to_gemm;

namespace {
/// A contraction as gemm.matmul sees it.
struct Contraction {
  Value a, b, c;
  Layout layout;
  Type accType;
};
} // namespace

static std::string toString(AffineMap map) {
  std::string s;
  llvm::raw_string_ostream os(s);
  map.print(os);
  return s;
}

/// True if `value` is the body argument `arg`, or `arg` extended by
/// arith.extf or arith.extsi, and has type `accType`.
static bool isExtendedArg(Value value, BlockArgument arg, Type accType) {
  if (value.getType() != accType)
    return false;
  if (value == arg)
    return true;
  Operation *def = value.getDefiningOp();
  return isa_and_present<arith::ExtFOp, arith::ExtSIOp>(def) &&
         def->getOperand(0) == arg;
}

/// Checks that `body` (arguments: the two inputs, then the output) yields
/// out + x * y where x and y are the inputs, each optionally extended to the
/// accumulator type `accType`.
static LogicalResult matchMulAddBody(Block &body, Type accType,
                                     std::string &reason) {
  // Conversions gemm.matmul does not do, named for the reason.
  for (Operation &op : body.without_terminator()) {
    if (isa<arith::ExtUIOp>(op)) {
      reason = "the body zero-extends an input (arith.extui); gemm.matmul "
               "multiplies signed integers";
      return failure();
    }
    if (isa<arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp,
            arith::TruncFOp, arith::TruncIOp>(op)) {
      reason = ("the body converts with '" + op.getName().getStringRef() +
                "'; only arith.extf and arith.extsi of the inputs are taken")
                   .str();
      return failure();
    }
  }
  reason = "the body is not out + x * y of its inputs x and y (each "
           "optionally extended to the output type by arith.extf or "
           "arith.extsi)";
  if (body.getNumArguments() != 3)
    return failure();
  BlockArgument x = body.getArgument(0), y = body.getArgument(1),
                out = body.getArgument(2);
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return failure();
  Operation *add = yield.getOperand(0).getDefiningOp();
  if (!isa_and_present<arith::AddFOp, arith::AddIOp>(add) ||
      add->getBlock() != &body)
    return failure();
  Value product;
  if (add->getOperand(0) == out)
    product = add->getOperand(1);
  else if (add->getOperand(1) == out)
    product = add->getOperand(0);
  else
    return failure();
  Operation *mul = product.getDefiningOp();
  bool isFloat = isa<arith::AddFOp>(add);
  if (!mul || mul->getBlock() != &body ||
      !(isFloat ? isa<arith::MulFOp>(mul) : isa<arith::MulIOp>(mul)))
    return failure();
  Value l = mul->getOperand(0), r = mul->getOperand(1);
  if (!(isExtendedArg(l, x, accType) && isExtendedArg(r, y, accType)) &&
      !(isExtendedArg(l, y, accType) && isExtendedArg(r, x, accType)))
    return failure();
  // Nothing else: the add, the multiply and at most the two extensions.
  size_t expected = 2 + (l != x && l != y) + (r != x && r != y);
  if (body.getOperations().size() != expected + 1)
    return failure();
  reason.clear();
  return success();
}

/// Matches `op` as one GEMM: at most one batch dimension (leading in every
/// operand), one M, N and K dimension each, projected-permutation maps and a
/// multiply-add body. Explains a mismatch in `reason`.
static FailureOr<Contraction> matchContraction(linalg::LinalgOp op,
                                               BufferAliasing &aliasing,
                                               std::string &reason) {
  if (!op.hasPureBufferSemantics()) {
    reason = "has tensor semantics; bufferize first "
             "(gemm-from-linalg{bufferize=true} or one-shot-bufferize)";
    return failure();
  }
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1) {
    reason = llvm::formatv("has {0} input(s) and {1} output(s); a "
                           "contraction has 2 inputs and 1 output",
                           op.getNumDpsInputs(), op.getNumDpsInits())
                 .str();
    return failure();
  }
  if (op.hasIndexSemantics()) {
    reason = "the body uses linalg.index";
    return failure();
  }
  SmallVector<Value> operands = {op.getDpsInputOperand(0)->get(),
                                 op.getDpsInputOperand(1)->get(),
                                 op.getDpsInitOperand(0)->get()};
  for (auto [i, value] : llvm::enumerate(operands))
    if (!isa<MemRefType>(value.getType())) {
      reason = llvm::formatv("operand #{0} is not a memref", i).str();
      return failure();
    }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (auto [i, map] : llvm::enumerate(maps))
    if (map.getNumSymbols() != 0 ||
        !map.isProjectedPermutation(/*allowZeroInResults=*/false)) {
      reason = llvm::formatv("the indexing map of operand #{0} is not a "
                             "projected permutation: {1}",
                             i, toString(map))
                   .str();
      return failure();
    }

  // Classify the loops by the operands they index.
  MLIRContext *ctx = op->getContext();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> batch, only0, only1, reduced;
  for (unsigned d = 0, e = op.getNumLoops(); d < e; ++d) {
    AffineExpr dim = getAffineDimExpr(d, ctx);
    bool in0 = maps[0].getResultPosition(dim).has_value();
    bool in1 = maps[1].getResultPosition(dim).has_value();
    bool inC = maps[2].getResultPosition(dim).has_value();
    bool parallel = iterators[d] == utils::IteratorType::parallel;
    if (inC != parallel) {
      reason = llvm::formatv("loop d{0} is {1} but {2} the output", d,
                             parallel ? "parallel" : "a reduction",
                             inC ? "indexes" : "does not index")
                   .str();
      return failure();
    }
    if (in0 && in1 && inC)
      batch.push_back(d);
    else if (in0 && inC)
      only0.push_back(d);
    else if (in1 && inC)
      only1.push_back(d);
    else if (in0 && in1)
      reduced.push_back(d);
    else {
      reason = llvm::formatv("loop d{0} is not a batch, M, N or K dimension "
                             "(it indexes only one operand)",
                             d)
                   .str();
      return failure();
    }
  }
  if (batch.size() > 1 || only0.size() != 1 || only1.size() != 1 ||
      reduced.size() != 1) {
    reason =
        llvm::formatv("has {0} batch, {1} M or N and {2} K dimensions; a "
                      "gemm.matmul has at "
                      "most one batch dimension and one each of M, N and K",
                      batch.size(), only0.size() + only1.size(), reduced.size())
            .str();
    return failure();
  }

  // The output fixes M and N: (batch, M, N).
  bool batched = !batch.empty();
  unsigned b0 = batched ? 1 : 0;
  AffineMap cMap = maps[2];
  if (batched && cMap.getDimPosition(0) != batch[0]) {
    reason = "the batch dimension is not the output's leading dimension";
    return failure();
  }
  unsigned mDim = cMap.getDimPosition(b0), nDim = cMap.getDimPosition(b0 + 1);
  unsigned kDim = reduced[0];
  unsigned aIndex = mDim == only0[0] ? 0 : 1, bIndex = 1 - aIndex;
  AffineMap aMap = maps[aIndex], bMap = maps[bIndex];
  for (unsigned i : {aIndex, bIndex})
    if (batched && maps[i].getDimPosition(0) != batch[0]) {
      reason =
          llvm::formatv(
              "the batch dimension is not the leading dimension of input #{0}",
              i)
              .str();
      return failure();
    }
  auto position = [&](AffineMap map, unsigned d) {
    return *map.getResultPosition(getAffineDimExpr(d, ctx));
  };
  // A stored K x M, B stored N x K (docs/dialect.md, the layout table).
  bool transA = position(aMap, kDim) < position(aMap, mDim);
  bool transB = position(bMap, nDim) < position(bMap, kDim);
  Layout layout = transA ? (transB ? Layout::tt : Layout::nt)
                         : (transB ? Layout::tn : Layout::nn);

  Type accType = cast<MemRefType>(operands[2].getType()).getElementType();
  if (failed(matchMulAddBody(*op.getBlock(), accType, reason)))
    return failure();
  if (operands[0] == operands[2] || operands[1] == operands[2]) {
    reason = "the output is also an input";
    return failure();
  }
  // gemm.matmul writes C while it reads A and B. As linalg's own buffer
  // transformations do, distinct buffers (e.g. two function arguments) are
  // taken not to overlap; a view of C used as A or B does.
  for (unsigned i : {0u, 1u})
    if (aliasing.overlapsOtherwise(operands[i], operands[2])) {
      reason = llvm::formatv("the output overlaps input #{0}", i).str();
      return failure();
    }
  return Contraction{operands[aIndex], operands[bIndex], operands[2], layout,
                     accType};
}

/// The linalg.fill that last wrote all of `c` before `op`, with nothing
/// reading or writing `c` in between; null if there is none.
static linalg::FillOp findFill(Operation *op, Value c,
                               BufferAliasing &aliasing) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (!aliasing.getModRef(prev, c).isModOrRef())
      continue;
    auto fill = dyn_cast<linalg::FillOp>(prev);
    if (fill && fill.hasPureBufferSemantics() &&
        fill.getDpsInitOperand(0)->get() == c &&
        fill.getDpsInputOperand(0)->get().getType() ==
            cast<MemRefType>(c.getType()).getElementType())
      return fill;
    return {};
  }
  return {};
}

static bool isZero(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

static void leaveAlone(Operation *op, StringRef reason, Reasons &reasons) {
  LLVM_DEBUG(llvm::dbgs() << "gemm-from-linalg: leaving " << op->getName()
                          << " at " << op->getLoc() << " alone: " << reason
                          << "\n");
  reasons[op] = reason.str();
}

LogicalResult mlir::gemm::linalg_to_gemm::convertContraction(
    linalg::LinalgOp op, BufferAliasing &aliasing, Reasons &reasons,
    Counts &counts) {
  std::string reason;
  FailureOr<Contraction> match = matchContraction(op, aliasing, reason);
  if (failed(match)) {
    leaveAlone(op, reason, reasons);
    if (op.hasPureBufferSemantics() && op.getNumDpsInits() == 1)
      if (linalg::FillOp fill =
              findFill(op, op.getDpsInitOperand(0)->get(), aliasing))
        leaveAlone(fill,
                   "the contraction that accumulates into its buffer is left "
                   "alone",
                   reasons);
    return failure();
  }

  // C's initial value: the fill's value (dropped when zero), else C itself.
  linalg::FillOp fill = findFill(op, match->c, aliasing);
  Value init = fill ? fill.getDpsInputOperand(0)->get() : Value();
  bool addsInit = !init || !isZero(init);
  Operation *constantInit =
      init && matchPattern(init, m_Constant()) ? init.getDefiningOp() : nullptr;
  Type accType = match->accType;
  MLIRContext *ctx = op->getContext();
  SmallVector<Value> extras;
  ArrayAttr broadcast;
  if (init && addsInit && !constantInit) {
    extras.push_back(init);
    broadcast =
        ArrayAttr::get(ctx, {BroadcastAttr::get(ctx, Broadcast::scalar)});
  }

  OpBuilder b(op);
  Location loc = op.getLoc();
  auto gemm = MatmulOp::create(b, loc, match->layout, match->a, match->b,
                               match->c, extras, accType, broadcast,
                               /*config=*/ConfigAttr());
  if (addsInit) {
    SmallVector<Type> argTypes = {accType, accType};
    argTypes.append(
        llvm::map_to_vector(extras, [](Value v) { return v.getType(); }));
    Block *body = b.createBlock(&gemm.getEpilogue(), {}, argTypes,
                                SmallVector<Location>(argTypes.size(), loc));
    Value addend = body->getArgument(1);
    if (constantInit)
      addend = b.clone(*constantInit)->getResult(0);
    else if (init)
      addend = body->getArgument(2);
    Value acc = body->getArgument(0);
    Value sum = isa<FloatType>(accType)
                    ? arith::AddFOp::create(b, loc, acc, addend).getResult()
                    : arith::AddIOp::create(b, loc, acc, addend).getResult();
    YieldOp::create(b, loc, sum);
  }
  std::string message;
  if (failed(verifyQuietly(gemm, message))) {
    gemm.erase();
    leaveAlone(op, "gemm.matmul rejects it: " + message, reasons);
    if (fill)
      leaveAlone(fill,
                 "the contraction that accumulates into its buffer is left "
                 "alone",
                 reasons);
    return failure();
  }
  LLVM_DEBUG(llvm::dbgs() << "gemm-from-linalg: " << op->getName() << " -> "
                          << gemm << "\n");
  if (fill) {
    fill.erase();
    ++counts.fills;
  }
  op.erase();
  ++counts.contractions;
  return success();
}
