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

/// Applies the epilogue to every accumulator element of `step`.
void emitEpilogue(OpBuilder &b, KernelContext &ctx, ComputeStep &step,
                  ValueRange acc);

/// Applies the epilogue to one accumulator element at absolute (row, col) and
/// stores it, predicated on (row, col) being inside C.
void emitEpilogueElement(OpBuilder &b, Location loc, KernelContext &ctx,
                         Value row, Value col, Value acc);

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_KERNELCOMMON_EPILOGUE_H
