//===- ConfigPolicy.h - Choosing configs for gemm.matmul ops ----*- C++ -*-===//
//
// The bridge between gemm.matmul and the context-free tuning library: the
// op as a tuning problem, and the config a lowering uses for an op that
// carries none. Choosing is policy: the dialect only verifies what it is
// given (gemm/Dialect/Gemm/IR), the choices live in gemm/Tuning.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DIALECT_GEMM_TRANSFORMS_CONFIGPOLICY_H
#define GEMM_DIALECT_GEMM_TRANSFORMS_CONFIGPOLICY_H

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Tuning/Problem.h"

namespace mlir::gemm {

/// The tuning problem of `op`: static sizes, or kDynamicDimBucket for
/// dynamic ones; types, layout and epilogue class from the op.
GemmProblem getGemmProblem(MatmulOp op, bool allowTf32);

/// The config `op` is lowered with on `target`: its own, else the default
/// for its signature (gemm/Tuning/DefaultConfig.h).
ConfigAttr getConfigOrDefault(MatmulOp op, const TargetInfo &target,
                              bool allowTf32);

} // namespace mlir::gemm

#endif // GEMM_DIALECT_GEMM_TRANSFORMS_CONFIGPOLICY_H
