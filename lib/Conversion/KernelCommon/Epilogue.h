//===- Epilogue.h - the epilogue in registers -------------------*- C++ -*-===//
//
// Private to lib/Conversion. The gemm.matmul epilogue region applied to
// each accumulator element in registers, with predicated loads of C and the
// extras and predicated stores (Epilogue.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_CONVERSION_KERNELCOMMON_EPILOGUE_H
#define GEMM_LIB_CONVERSION_KERNELCOMMON_EPILOGUE_H

#include "KernelContext.h"

namespace mlir::gemm::detail {

/// Applies the epilogue to every accumulator element of `step` and stores
/// the block tile of C; returns the shared memory this needs (in bytes from
/// the start of dynamic shared memory, whose tiles it reuses; 0 if none).
/// NVIDIA kernels stage the results in shared memory and store them with
/// 16-byte coalesced stores where C allows (getStagedEpilogueBytes); with a
/// region, they stage the accumulators instead and run the region in a loop
/// over C's 16-byte chunks (getAccStagedEpilogueBytes). Otherwise, and for
/// split-K partial sums, each thread stores its elements.
int64_t emitEpilogue(OpBuilder &b, KernelContext &ctx, ComputeStep &step,
                     ValueRange acc);

/// The shared memory the staged epilogue of `ctx` needs, 0 when it stores
/// from registers (AMD, split-K, C without a unit inner stride, rows that
/// are not whole 16-byte chunks, or a tile over the chip's shared memory).
int64_t getStagedEpilogueBytes(const KernelContext &ctx);

/// The shared memory the epilogue of `ctx` stages its raw accumulators in,
/// when it has a region and stages at all (getStagedEpilogueBytes): BM rows
/// of BN accumulators plus a 16-byte chunk; 0 when it does not, or when that
/// does not fit.
int64_t getAccStagedEpilogueBytes(const KernelContext &ctx);

/// Applies the epilogue to one accumulator element at absolute (row, col),
/// predicated on (row, col) being inside C, and hands the result to `store`
/// (default: stores it to C).
void emitEpilogueElement(
    OpBuilder &b, Location loc, KernelContext &ctx, Value row, Value col,
    Value acc, function_ref<void(OpBuilder &, Value result)> store = nullptr);

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_KERNELCOMMON_EPILOGUE_H
