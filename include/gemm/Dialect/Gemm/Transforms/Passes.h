//===- Passes.h - gemm dialect transforms -----------------------*- C++ -*-===//
//
// gemm-select-config and the helpers it shares with other passes.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DIALECT_GEMM_TRANSFORMS_PASSES_H
#define GEMM_DIALECT_GEMM_TRANSFORMS_PASSES_H

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Tuning/Problem.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::gemm {

#define GEN_PASS_DECL
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"

/// The tuning problem of `op`: static sizes, or kDynamicDimBucket for
/// dynamic ones; types, layout and epilogue class from the op.
GemmProblem getGemmProblem(MatmulOp op, bool allowTf32);

} // namespace mlir::gemm

#endif // GEMM_DIALECT_GEMM_TRANSFORMS_PASSES_H
