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
/// ctx.stagingOffset, 0 if none). NVIDIA kernels stage the results in shared
/// memory and store them with 16-byte coalesced stores where C allows (a
/// unit inner stride, rows of whole 16-byte chunks); with a region, they
/// stage the accumulators instead and run the region in a loop over C's
/// 16-byte chunks. Where the whole tile does not fit in ctx.stagingLimit (a
/// persistent block, whose stage ring stays live), the tile goes through in
/// column slices that do, if the step can hand its accumulators out by
/// column (ComputeStep::columnSliceGranule). Otherwise (AMD, split-K partial
/// sums, C without a unit inner stride) each thread stores its elements.
int64_t emitEpilogue(OpBuilder &b, KernelContext &ctx, ComputeStep &step,
                     ValueRange acc);
/// Applies the epilogue to one accumulator element at absolute (row, col),
/// predicated on (row, col) being inside C, and hands the result to `store`
/// (default: stores it to C).
void emitEpilogueElement(
    OpBuilder &b, Location loc, KernelContext &ctx, Value row, Value col,
    Value acc, function_ref<void(OpBuilder &, Value result)> store = nullptr);

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_KERNELCOMMON_EPILOGUE_H
