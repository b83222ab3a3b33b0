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
