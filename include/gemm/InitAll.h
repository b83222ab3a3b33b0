//===- InitAll.h - register gemm-mlir dialects and passes -------*- C++ -*-===//
//
// Entry points for tools and embedding compilers: register the gemm dialect
// (and the upstream dialects our passes create) and every gemm-mlir pass and
// pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_INITALL_H
#define GEMM_INITALL_H

namespace mlir {
class DialectRegistry;
namespace gemm {

/// Registers the gemm dialect in `registry`.
void registerAllGemmDialects(DialectRegistry &registry);
/// Registers all gemm-mlir passes and pipelines with the global registry.
void registerAllGemmPasses();

} // namespace gemm
} // namespace mlir

#endif // GEMM_INITALL_H
