//===- LinalgToGemm.h - linalg contractions to gemm.matmul ------*- C++ -*-===//
//
// The entry from linalg (docs/linalg.md): the gemm-from-linalg pass is
// declared with the other conversions (gemm/Conversion/Passes.h); this
// header gives an embedder what the pass uses for a linalg-on-tensors
// input: the bufferization options and the registrations they need.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_CONVERSION_LINALGTOGEMM_LINALGTOGEMM_H
#define GEMM_CONVERSION_LINALGTOGEMM_LINALGTOGEMM_H

#include "gemm/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir::gemm {

/// The one-shot-bufferize options of gemm-from-linalg{bufferize=true} (and so
/// of the pipelines' from-linalg front): bufferize-function-boundaries,
/// function-boundary-type-conversion=identity-layout-map and
/// unknown-type-conversion=identity-layout-map; everything else upstream's
/// default.
bufferization::OneShotBufferizePassOptions getGemmBufferizeOptions();

/// Registers the dialects gemm-from-linalg{bufferize=true} creates and the
/// bufferization models of the ops a linalg-on-tensors input holds (arith,
/// func, linalg, scf, tensor). The pass declares them itself; this is for a
/// compiler that runs the bufferization on its own.
void registerGemmFromLinalgDependencies(DialectRegistry &registry);

} // namespace mlir::gemm

#endif // GEMM_CONVERSION_LINALGTOGEMM_LINALGTOGEMM_H
