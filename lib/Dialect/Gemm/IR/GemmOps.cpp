//===- GemmOps.cpp - gemm dialect operations ------------------------------===//
//
// Verification of gemm.matmul: operand ranks and shapes under the layout,
// element/accumulator type combinations, epilogue operands and region, and
// the config, against the target table when a `gemm.target` is in scope.
//
//===----------------------------------------------------------------------===//

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Target/Legality.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::gemm;

#define GET_OP_CLASSES
#include "gemm/Dialect/Gemm/IR/GemmOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The accumulator types an operand element type may accumulate into.
static SmallVector<ElemKind, 2> legalAccumulators(ElemKind operand) {
  switch (operand) {
  case ElemKind::f16:
    return {ElemKind::f32, ElemKind::f16};
  case ElemKind::bf16:
  case ElemKind::f32:
  case ElemKind::tf32:
  case ElemKind::f8E4M3FN:
  case ElemKind::f8E5M2:
    return {ElemKind::f32};
  case ElemKind::f64:
    return {ElemKind::f64};
  case ElemKind::i8:
  case ElemKind::i32:
    return {ElemKind::i32};
  }
  return {};
}

static std::string formatKinds(ArrayRef<ElemKind> kinds) {
  std::string s;
  for (auto [i, k] : llvm::enumerate(kinds)) {
    if (i)
      s += i + 1 == kinds.size() ? " or " : ", ";
    s += stringifyElemKind(k).str();
  }
  return s;
}

/// The scalar types C, the extras and the epilogue may use: those both
/// backends lower (f80, f128, tf32 and f8 arithmetic do not lower to PTX or
/// AMDGCN from an epilogue; wider or odd-width integers are not stored).
static bool isScalarType(Type t) {
  if (t.isF16() || t.isBF16() || t.isF32() || t.isF64() || t.isIndex())
    return true;
  auto i = dyn_cast<IntegerType>(t);
  return i && i.isSignless() && llvm::is_contained({1u, 8u, 16u, 32u, 64u},
                                                   i.getWidth());
}

static constexpr llvm::StringLiteral kScalarTypes =
    "f16, bf16, f32, f64, index or a signless i1, i8, i16, i32, i64";

static std::string dimStr(int64_t d) {
  return ShapedType::isDynamic(d) ? "?" : std::to_string(d);
}

/// Kernel operands must be strided memrefs in global memory: the default
/// space, 0, or #gpu.address_space<global>.
static LogicalResult verifyGlobalStrided(Operation *op, StringRef what,
                                         MemRefType type) {
  if (!type.isStrided())
    return op->emitOpError("expected ")
           << what << " to have a strided layout, got " << type;
  if (Attribute space = type.getMemorySpace()) {
    auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space);
    auto intSpace = dyn_cast<IntegerAttr>(space);
    bool global =
        (gpuSpace && gpuSpace.getValue() == gpu::AddressSpace::Global) ||
        (intSpace && intSpace.getInt() == 0);
    if (!global)
      return op->emitOpError("expected ")
             << what << " in global memory, got memory space " << space;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

int64_t MatmulOp::getStaticM() {
  return getA().getType().getDimSize(getAMDim() + (hasBatch() ? 1 : 0));
}
int64_t MatmulOp::getStaticK() {
  return getA().getType().getDimSize(getAKDim() + (hasBatch() ? 1 : 0));
}
int64_t MatmulOp::getStaticN() {
  return getB().getType().getDimSize(getBNDim() + (hasBatch() ? 1 : 0));
}

bool MatmulOp::readsC() {
  return hasEpilogue() && !getEpilogue().front().getArgument(1).use_empty();
}

Broadcast MatmulOp::getExtraBroadcast(unsigned i) {
  if (!isa<MemRefType>(getExtras()[i].getType()))
    return Broadcast::scalar;
  if (std::optional<ArrayAttr> b = getBroadcast(); b && i < b->size())
    if (auto attr = dyn_cast<BroadcastAttr>((*b)[i]))
      return attr.getValue();
  return Broadcast::full;
}

void MatmulOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getAMutable());
  effects.emplace_back(MemoryEffects::Read::get(), &getBMutable());
  if (readsC())
    effects.emplace_back(MemoryEffects::Read::get(), &getCMutable());
  effects.emplace_back(MemoryEffects::Write::get(), &getCMutable());
  for (OpOperand &extra : getExtrasMutable())
    if (isa<MemRefType>(extra.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &extra);
}

LogicalResult MatmulOp::verify() {
  MemRefType aType = getA().getType(), bType = getB().getType(),
             cType = getC().getType();

  // Ranks.
  for (auto [name, type] : {std::pair<StringRef, MemRefType>{"A", aType},
                            {"B", bType},
                            {"C", cType}})
    if (type.getRank() != 2 && type.getRank() != 3)
      return emitOpError("expected operand ")
             << name << " of rank 2, or rank 3 with a batch dimension, got "
             << type;
  for (auto [name, type] : {std::pair<StringRef, MemRefType>{"A", aType},
                            {"B", bType},
                            {"C", cType}})
    if (failed(verifyGlobalStrided(*this, ("operand " + name).str(), type)))
      return failure();
  if (aType.getRank() != bType.getRank() || aType.getRank() != cType.getRank())
    return emitOpError("expected A, B and C to have the same rank, got ")
           << aType.getRank() << ", " << bType.getRank() << " and "
           << cType.getRank();

  // Element and accumulator types.
  std::optional<ElemKind> aKind = getElemKind(getAElementType());
  std::optional<ElemKind> bKind = getElemKind(getBElementType());
  auto isOperandKind = [](std::optional<ElemKind> k) {
    return k && *k != ElemKind::i32;
  };
  if (!isOperandKind(aKind))
    return emitOpError("A element type ")
           << getAElementType()
           << " is not supported (expected f16, bf16, f32, f64, i8, f8E4M3FN "
              "or f8E5M2)";
  if (!isOperandKind(bKind))
    return emitOpError("B element type ")
           << getBElementType()
           << " is not supported (expected f16, bf16, f32, f64, i8, f8E4M3FN "
              "or f8E5M2)";
  if (aKind != bKind && !(isFloat8(*aKind) && isFloat8(*bKind)))
    return emitOpError("A and B element types differ: ")
           << getAElementType() << " vs " << getBElementType()
           << " (only the two f8 types may be mixed)";
  Type accType = getAccType();
  std::optional<ElemKind> accKind = getElemKind(accType);
  SmallVector<ElemKind, 2> legalAcc = legalAccumulators(*aKind);
  if (!accKind || !llvm::is_contained(legalAcc, *accKind))
    return emitOpError("accumulator type ")
           << accType << " is not supported for " << getAElementType()
           << " operands (expected " << formatKinds(legalAcc) << ")";
  Type cElem = getCElementType();
  if (!isScalarType(cElem) || cElem.isIndex())
    return emitOpError("C element type ")
           << cElem
           << " is not supported (expected f16, bf16, f32, f64 or a "
              "signless i1, i8, i16, i32, i64)";

  // Shapes under the layout.
  unsigned b0 = hasBatch() ? 1 : 0;
  int64_t mA = aType.getDimSize(b0 + getAMDim());
  int64_t kA = aType.getDimSize(b0 + getAKDim());
  int64_t kB = bType.getDimSize(b0 + getBKDim());
  int64_t nB = bType.getDimSize(b0 + getBNDim());
  int64_t mC = cType.getDimSize(b0), nC = cType.getDimSize(b0 + 1);
  auto mismatch = [](int64_t x, int64_t y) {
    return !ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y;
  };
  StringRef layoutName = stringifyLayout(getLayout());
  std::string layoutDesc =
      (Twine("layout ") + layoutName + " (A is " +
       (isTransposedA() ? "KxM" : "MxK") + ", B is " +
       (isTransposedB() ? "NxK" : "KxN") + ")")
          .str();
  if (mismatch(kA, kB))
    return emitOpError("K of A (")
           << kA << ") does not match K of B (" << kB << ") under "
           << layoutDesc;
  if (mismatch(mA, mC))
    return emitOpError("M of A (")
           << mA << ") does not match M of C (" << mC << ") under "
           << layoutDesc;
  if (mismatch(nB, nC))
    return emitOpError("N of B (")
           << nB << ") does not match N of C (" << nC << ") under "
           << layoutDesc;
  if (hasBatch()) {
    int64_t ba = aType.getDimSize(0), bb = bType.getDimSize(0),
            bc = cType.getDimSize(0);
    if (mismatch(ba, bc) || mismatch(bb, bc) || mismatch(ba, bb))
      return emitOpError("batch sizes differ: A ")
             << dimStr(ba) << ", B " << dimStr(bb) << ", C " << dimStr(bc);
  }
  // Zero-sized problems are not GEMMs anyone means to launch.
  for (int64_t d : {mC, nC, kA})
    if (d == 0)
      return emitOpError("expected non-empty M, N and K, got a zero-sized "
                         "dimension in ")
             << cType << " / " << aType;

  // Extra epilogue operands.
  std::optional<ArrayAttr> bcast = getBroadcast();
  auto getExtraBroadcastAttr = [&](size_t i) {
    return cast<BroadcastAttr>((*bcast)[i]).getValue();
  };
  if (bcast && bcast->size() != getExtras().size())
    return emitOpError("expected ")
           << getExtras().size()
           << " broadcast entries, one per extra operand, got "
           << bcast->size();
  for (auto [i, extra] : llvm::enumerate(getExtras())) {
    Type t = extra.getType();
    auto memref = dyn_cast<MemRefType>(t);
    if (!memref) {
      if (!isScalarType(t))
        return emitOpError("extra operand #")
               << i << " has type " << t
               << " (expected a memref or a scalar of " << kScalarTypes << ")";
      if (bcast && getExtraBroadcastAttr(i) != Broadcast::scalar)
        return emitOpError("extra operand #")
               << i << " is a scalar but its broadcast is '"
               << stringifyBroadcast(getExtraBroadcastAttr(i)) << "'";
      continue;
    }
    if (!bcast)
      return emitOpError("extra operand #")
             << i << " is a memref; a 'broadcast' attribute must say how it "
             << "is indexed";
    if (failed(verifyGlobalStrided(
            *this, ("extra operand #" + Twine(i)).str(), memref)))
      return failure();
    Broadcast kind = getExtraBroadcastAttr(i);
    if (!isScalarType(memref.getElementType()))
      return emitOpError("extra operand #")
             << i << " has element type " << memref.getElementType()
             << " (expected " << kScalarTypes << ")";
    switch (kind) {
    case Broadcast::scalar:
      return emitOpError("extra operand #")
             << i << " is a memref but its broadcast is 'scalar'";
    case Broadcast::row:
    case Broadcast::col: {
      int64_t want = kind == Broadcast::row ? mC : nC;
      StringRef dim = kind == Broadcast::row ? "M" : "N";
      // Optionally batched: [batch] x len.
      if (memref.getRank() != 1 && memref.getRank() != 1 + b0)
        return emitOpError("extra operand #")
               << i << " (broadcast " << stringifyBroadcast(kind)
               << ") must be a vector of " << dim << " values, got " << memref;
      int64_t len = memref.getDimSize(memref.getRank() - 1);
      if (mismatch(len, want))
        return emitOpError("extra operand #")
               << i << " (broadcast " << stringifyBroadcast(kind) << ") has "
               << len << " elements but " << dim << " is " << want;
      break;
    }
    case Broadcast::full: {
      if (memref.getRank() != cType.getRank())
        return emitOpError("extra operand #")
               << i << " (broadcast full) must have C's rank "
               << cType.getRank() << ", got " << memref;
      for (int64_t d = 0; d < cType.getRank(); ++d)
        if (mismatch(memref.getDimSize(d), cType.getDimSize(d)))
          return emitOpError("extra operand #")
                 << i << " (broadcast full) has shape " << memref
                 << " incompatible with C " << cType;
      break;
    }
    }
  }

  // Config: the instruction must exist on some chip for the types, and fit
  // the target when one is known (gemm/Target/Legality.h).
  if (ConfigAttr config = getConfigAttr()) {
    if (std::string error =
            checkInstrShapeKnown(toTileConfig(config), getSignature());
        !error.empty())
      return emitOpError(error);
    if (TargetAttr target = lookupTargetAttr(*this))
      if (failed(verifyConfigForTarget(config, *target.getInfo())))
        return failure();
  }
  return success();
}

GemmSignature MatmulOp::getSignature() {
  GemmSignature sig;
  sig.a = *getElemKind(getAElementType());
  sig.acc = *getElemKind(getAccType());
  sig.transA = isTransposedA();
  sig.transB = isTransposedB();
  return sig;
}

LogicalResult MatmulOp::verifyConfigForTarget(ConfigAttr config,
                                              const TargetInfo &target) {
  if (std::string error =
          checkConfigOnTarget(toTileConfig(config), getSignature(), target);
      !error.empty())
    return emitOpError(error);
  return success();
}

LogicalResult MatmulOp::verifyRegions() {
  Type accType = getAccType();
  Type cElem = getCElementType();
  if (!hasEpilogue()) {
    bool bothFloat = isa<FloatType>(accType) && isa<FloatType>(cElem);
    bool bothInt = isa<IntegerType>(accType) && isa<IntegerType>(cElem);
    if (!bothFloat && !bothInt)
      return emitOpError("without an epilogue the accumulator type ")
             << accType << " cannot be converted to C's element type " << cElem
             << "; add an epilogue region";
    return success();
  }
  Block &body = getEpilogue().front();
  size_t want = 2 + getExtras().size();
  if (body.getNumArguments() != want)
    return emitOpError("epilogue expects ")
           << want << " arguments (accumulator, C element, "
           << getExtras().size() << " extras), got " << body.getNumArguments();
  auto checkArg = [&](unsigned i, Type expected,
                      StringRef what) -> LogicalResult {
    Type got = body.getArgument(i).getType();
    if (got != expected)
      return emitOpError("epilogue argument #")
             << i << " has type " << got << ", expected " << what << " "
             << expected;
    return success();
  };
  if (failed(checkArg(0, accType, "the accumulator type")) ||
      failed(checkArg(1, cElem, "C's element type")))
    return failure();
  for (auto [i, extra] : llvm::enumerate(getExtras())) {
    Type t = extra.getType();
    if (auto m = dyn_cast<MemRefType>(t))
      t = m.getElementType();
    if (failed(checkArg(2 + i, t, "the extra operand's element type")))
      return failure();
  }
  for (Operation &op : body.without_terminator()) {
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return op.emitOpError("is not allowed in a gemm.matmul epilogue: only "
                            "side-effect-free scalar ops are");
    for (Type t : op.getResultTypes())
      if (!isScalarType(t))
        return op.emitOpError("produces type ")
               << t << " in a gemm.matmul epilogue (expected " << kScalarTypes
               << ")";
  }
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("epilogue must end with gemm.yield");
  if (yield.getValues().size() != 1)
    return yield.emitOpError("must yield one value, got ")
           << yield.getValues().size();
  if (yield.getValues()[0].getType() != cElem)
    return yield.emitOpError("yields ")
           << yield.getValues()[0].getType() << ", expected C's element type "
           << cElem;
  return success();
}
