//===- DefaultConfig.h - The config of a GEMM nobody tuned ------*- C++ -*-===//
//
// The configuration a gemm.matmul gets when it carries none and no cost
// model or tuning database is asked: a good, always-legal point per element
// type, layout and chip. This is policy, so it lives here with the lattice
// and the cost model, outside the dialect; the lowerings call it through
// gemm/Dialect/Gemm/Transforms/ConfigPolicy.h.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_TUNING_DEFAULTCONFIG_H
#define GEMM_TUNING_DEFAULTCONFIG_H

#include "gemm/Target/TargetInfo.h"
#include "gemm/Target/TileConfig.h"

namespace mlir::gemm {

/// The default config of a GEMM of signature `sig` on `target`. f32 operands
/// get exact SIMT unless `allowTf32`, in which case they run on tf32 tensor
/// cores.
TileConfig getDefaultConfig(const GemmSignature &sig, const TargetInfo &target,
                            bool allowTf32);

} // namespace mlir::gemm

#endif // GEMM_TUNING_DEFAULTCONFIG_H
