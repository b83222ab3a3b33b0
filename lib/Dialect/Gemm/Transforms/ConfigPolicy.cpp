//===- ConfigPolicy.cpp - Choosing configs for gemm.matmul ops ------------===//

#include "gemm/Dialect/Gemm/Transforms/ConfigPolicy.h"
#include "gemm/Tuning/DefaultConfig.h"

using namespace mlir;
using namespace mlir::gemm;

GemmProblem mlir::gemm::getGemmProblem(MatmulOp op, bool allowTf32) {
  GemmProblem p;
  auto size = [](int64_t d) {
    return ShapedType::isDynamic(d) ? kDynamicDimBucket : d;
  };
  p.m = size(op.getStaticM());
  p.n = size(op.getStaticN());
  p.k = size(op.getStaticK());
  if (op.hasBatch()) {
    int64_t b = op.getC().getType().getDimSize(0);
    p.batch = ShapedType::isDynamic(b) ? 1 : b;
  }
  static_cast<GemmSignature &>(p) = op.getSignature();
  p.c = getElemKind(op.getCElementType()).value_or(p.acc);
  p.allowTf32 = allowTf32;
  if (!op.hasEpilogue()) {
    p.epilogue = EpilogueClass::none;
  } else {
    p.epilogue =
        op.readsC() ? EpilogueClass::reads_c : EpilogueClass::elementwise;
    for (unsigned i = 0, e = op.getExtras().size(); i < e; ++i)
      if (op.getExtraBroadcast(i) == Broadcast::full)
        p.epilogue = EpilogueClass::reads_c;
  }
  return p;
}

std::optional<bool> mlir::gemm::getStaticVectorCopiesOk(MemRefType type,
                                                        int64_t multiple) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  bool unknown = false;
  auto divisible = [&](int64_t v, int64_t by) {
    if (ShapedType::isDynamic(v)) {
      unknown = true;
      return true;
    }
    return v % by == 0;
  };
  if (!strides.empty() && ShapedType::isDynamic(strides.back()))
    unknown = true;
  else if (!strides.empty() && strides.back() != 1)
    return false;
  for (int64_t stride : ArrayRef(strides).drop_back())
    if (!divisible(stride, multiple))
      return false;
  if (!divisible(offset, multiple))
    return false;
  if (unknown)
    return std::nullopt;
  return true;
}

int64_t mlir::gemm::getVectorCopyMultiple(MemRefType type) {
  return std::max<int64_t>(128 / type.getElementTypeBitWidth(), 1);
}

OperandAlignment mlir::gemm::getStaticOperandAlignment(MatmulOp op) {
  auto of = [](Value v) -> std::optional<bool> {
    auto type = cast<MemRefType>(v.getType());
    return getStaticVectorCopiesOk(type, getVectorCopyMultiple(type));
  };
  return {of(op.getA()), of(op.getB())};
}

/// SizeBounds::decide on the static sizes and alignment of `op` (dynamic
/// ones unknown).
static std::optional<bool> decideStatically(MatmulOp op, const SizeBounds &when,
                                            int64_t bm, int64_t bn) {
  auto known = [](int64_t d) -> std::optional<int64_t> {
    if (ShapedType::isDynamic(d))
      return std::nullopt;
    return d;
  };
  std::optional<int64_t> batch = 1;
  if (op.hasBatch())
    batch = known(op.getC().getType().getDimSize(0));
  return when.decide(known(op.getStaticM()), known(op.getStaticN()),
                     known(op.getStaticK()), batch, bm, bn,
                     getStaticOperandAlignment(op));
}

OperandTransposes mlir::gemm::getOperandTransposes(MatmulOp op,
                                                   const TargetInfo &target,
                                                   bool allowTf32,
                                                   bool transpose) {
  if (!transpose)
    return {};
  GemmSignature sig = op.getSignature();
  InstrKind kind;
  if (ConfigAttr config = op.getConfigAttr()) {
    kind = toInstrKind(config.getKind());
  } else {
    // The default of the signature the kernels would see.
    GemmSignature kernelSig = getKernelSignature(
        sig, getOperandTransposes(sig, target, allowTf32, InstrKind::wgmma));
    kind = getDefaultConfig(kernelSig, target, allowTf32).kind;
  }
  return getOperandTransposes(sig, target, allowTf32, kind);
}

/// Appends the members of `rules` that `op`'s static sizes do not rule out
/// to `choices`, each bounded to `bounds` too; returns true if one of them
/// holds for every size the op can have (nothing after it runs).
static bool appendFamily(KernelChoices &choices, MatmulOp op,
                         ArrayRef<DispatchRule> rules, const SizeBounds &bounds,
                         bool transposed) {
  MLIRContext *ctx = op.getContext();
  for (const DispatchRule &rule : rules) {
    if (!rule.regionEpilogues && op.hasEpilogue())
      continue;
    std::optional<SizeBounds> within = rule.when.intersect(bounds);
    if (!within)
      continue;
    std::optional<bool> decided =
        decideStatically(op, *within, rule.config.bm, rule.config.bn);
    if (decided == false)
      continue;
    // A rule the static sizes satisfy ends the family: nothing after it runs.
    choices.push_back({getConfigAttr(ctx, rule.config),
                       decided ? SizeBounds() : *within, rule.split, rule.name,
                       transposed});
    if (decided)
      return true;
  }
  return false;
}

KernelChoices mlir::gemm::getKernelChoices(MatmulOp op,
                                           const TargetInfo &target,
                                           bool allowTf32, bool dispatch,
                                           bool transpose) {
  MLIRContext *ctx = op.getContext();
  OperandTransposes transposes =
      getOperandTransposes(op, target, allowTf32, transpose);
  GemmSignature sig = op.getSignature();
  GemmSignature kernelSig = getKernelSignature(sig, transposes);
  bool transposed = transposes.any();
  if (ConfigAttr config = op.getConfigAttr())
    return {{config, SizeBounds(), explicitSplitPolicy(toTileConfig(config)),
             "config", transposed}};
  if (!dispatch)
    return {{getConfigAttr(ctx, getDefaultConfig(kernelSig, target, allowTf32)),
             SizeBounds(), SplitPolicy(), "default", transposed}};
  KernelChoices choices;
  // Small problems read the stored layout (the transposing copy would cost
  // more than it saves), where it has a lowering (f8 has wgmma only); the
  // members on transposed operands then serve the rest.
  SizeBounds rest;
  if (transposed && !isFloat8(sig.a)) {
    if (appendFamily(choices, op, getDispatchRules(sig, target, allowTf32),
                     getUntransposedBounds(sig, transposes),
                     /*transposed=*/false))
      return choices;
    rest = getTransposedBounds(sig, transposes);
  }
  appendFamily(choices, op, getDispatchRules(kernelSig, target, allowTf32),
               rest, transposed);
  return choices;
}
