//===- GemmConfigDefaults.h - default configurations ------------*- C++ -*-===//
//
// The configuration a gemm.matmul gets when nobody chose one: a good,
// always-legal point per element type and chip. The cost model and tuning
// database of gemm-select-config refine it.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DIALECT_GEMM_IR_GEMMCONFIGDEFAULTS_H
#define GEMM_DIALECT_GEMM_IR_GEMMCONFIGDEFAULTS_H

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Utils/MfmaLayout.h"

namespace mlir::gemm {

/// The default config of `op` on `target`. f32 operands get exact SIMT unless
/// `allowTf32`, in which case they run on tf32 tensor cores.
ConfigAttr getDefaultConfig(MatmulOp op, const TargetInfo &target,
                            bool allowTf32);

/// The MFMA instruction (with its block count) that `config` names for `op`
/// on `target`, if the target has it.
std::optional<MmaShape> getMfmaShape(MatmulOp op, ConfigAttr config,
                                     const TargetInfo &target);

/// The LDS policy's view of `op` with the mfma `config` on `target`.
MfmaTileProblem getMfmaTileProblem(MatmulOp op, ConfigAttr config,
                                   const TargetInfo &target);

} // namespace mlir::gemm

#endif
