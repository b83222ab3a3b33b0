//===- GpuTargets.h - Chips of the GPU target attributes --------*- C++ -*-===//
//
// Private to the artifact passes.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_CONVERSION_ARTIFACTS_GPUTARGETS_H
#define GEMM_LIB_CONVERSION_ARTIFACTS_GPUTARGETS_H

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

namespace mlir::gemm {

/// The chip of an `#nvvm.target` or `#rocdl.target`, or "" for any other
/// target attribute.
inline StringRef getGpuTargetChip(Attribute target) {
  if (auto t = dyn_cast<NVVM::NVVMTargetAttr>(target))
    return t.getChip();
  if (auto t = dyn_cast<ROCDL::ROCDLTargetAttr>(target))
    return t.getChip();
  return "";
}

} // namespace mlir::gemm

#endif // GEMM_LIB_CONVERSION_ARTIFACTS_GPUTARGETS_H
