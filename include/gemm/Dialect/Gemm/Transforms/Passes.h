//===- Passes.h - gemm dialect transforms -----------------------*- C++ -*-===//
//
// The gemm dialect's transform passes (gemm-select-config).
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DIALECT_GEMM_TRANSFORMS_PASSES_H
#define GEMM_DIALECT_GEMM_TRANSFORMS_PASSES_H

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::gemm {

#define GEN_PASS_DECL
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"

} // namespace mlir::gemm

#endif // GEMM_DIALECT_GEMM_TRANSFORMS_PASSES_H
