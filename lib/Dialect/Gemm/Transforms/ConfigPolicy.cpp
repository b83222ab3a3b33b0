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

ConfigAttr mlir::gemm::getConfigOrDefault(MatmulOp op, const TargetInfo &target,
                                          bool allowTf32) {
  if (ConfigAttr config = op.getConfigAttr())
    return config;
  return getConfigAttr(op.getContext(),
                       getDefaultConfig(op.getSignature(), target, allowTf32));
}

/// True or false if the static sizes of `op` decide `when` for a bm x bn
/// tile, std::nullopt if a dynamic size must be looked at.
static std::optional<bool> decideStatically(MatmulOp op, const SizeBounds &when,
                                            int64_t bm, int64_t bn) {
  auto known = [](int64_t d) -> std::optional<int64_t> {
    if (ShapedType::isDynamic(d))
      return std::nullopt;
    return d;
  };
  std::optional<int64_t> m = known(op.getStaticM()), n = known(op.getStaticN()),
                         k = known(op.getStaticK()), batch = 1;
  if (op.hasBatch())
    batch = known(op.getC().getType().getDimSize(0));
  bool undecided = false;
  auto check = [&](std::optional<int64_t> v, std::optional<int64_t> lo,
                   std::optional<int64_t> hi) {
    if (!lo && !hi)
      return true;
    if (!v) {
      undecided = true;
      return true;
    }
    return (!lo || *v >= *lo) && (!hi || *v <= *hi);
  };
  bool holds = check(m, when.mMin, when.mMax) &&
               check(n, when.nMin, when.nMax) &&
               check(k, when.kMin, when.kMax) &&
               check(batch, when.batchMin, when.batchMax);
  if (holds && (when.blocksMin || when.blocksMax)) {
    std::optional<int64_t> blocks;
    if (m && n && batch)
      blocks = countBlocks(*m, *n, *batch, bm, bn);
    holds = check(blocks, when.blocksMin, when.blocksMax);
  }
  if (!holds)
    return false;
  if (undecided)
    return std::nullopt;
  return true;
}

KernelChoices mlir::gemm::getKernelChoices(MatmulOp op,
                                           const TargetInfo &target,
                                           bool allowTf32, bool dispatch) {
  MLIRContext *ctx = op.getContext();
  if (ConfigAttr config = op.getConfigAttr())
    return {{config, SizeBounds(), explicitSplitPolicy(toTileConfig(config)),
             "config"}};
  if (!dispatch)
    return {{getConfigOrDefault(op, target, allowTf32), SizeBounds(),
             SplitPolicy(), "default"}};
  KernelChoices choices;
  for (const DispatchRule &rule :
       getDispatchRules(op.getSignature(), target, allowTf32)) {
    std::optional<bool> decided =
        decideStatically(op, rule.when, rule.config.bm, rule.config.bn);
    if (decided == false)
      continue;
    // A rule the static sizes satisfy ends the family: nothing after it runs.
    SizeBounds when = decided ? SizeBounds() : rule.when;
    choices.push_back(
        {getConfigAttr(ctx, rule.config), when, rule.split, rule.name});
    if (decided)
      break;
  }
  return choices;
}
