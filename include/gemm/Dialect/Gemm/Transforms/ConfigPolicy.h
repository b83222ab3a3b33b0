//===- ConfigPolicy.h - Choosing configs for gemm.matmul ops ----*- C++ -*-===//
//
// The bridge between gemm.matmul and the context-free tuning library: the
// op as a tuning problem, and the config a lowering uses for an op that
// carries none. Choosing is policy: the dialect only verifies what it is
// given (gemm/Dialect/Gemm/IR), the choices live in gemm/Tuning.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DIALECT_GEMM_TRANSFORMS_CONFIGPOLICY_H
#define GEMM_DIALECT_GEMM_TRANSFORMS_CONFIGPOLICY_H

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Tuning/DefaultConfig.h"
#include "gemm/Tuning/Dispatch.h"
#include "gemm/Tuning/Problem.h"

namespace mlir::gemm {

/// The tuning problem of `op`: static sizes, or kDynamicDimBucket for
/// dynamic ones; types, layout and epilogue class from the op.
GemmProblem getGemmProblem(MatmulOp op, bool allowTf32);

/// The operands of `op` copied transposed into K-major workspaces before its
/// kernels run on `target` (getOperandTransposes, for the instruction of its
/// own config or else of the default its transposed signature gets); none
/// unless `transpose`.
OperandTransposes getOperandTransposes(MatmulOp op, const TargetInfo &target,
                                       bool allowTf32, bool transpose);

/// What `type` alone says about 16-byte copies of an operand with
/// `multiple` elements per 16 bytes (OperandAlignment): false if its inner
/// stride, outer strides or offset rule them out, true if they allow them,
/// std::nullopt if dynamic ones leave it to the run time. The start address
/// is not part of a type: the kernels check it at run time either way.
std::optional<bool> getStaticVectorCopiesOk(MemRefType type, int64_t multiple);

/// The elements of `type` in 16 bytes (at least 1): the `multiple` of an
/// operand's 16-byte copies.
int64_t getVectorCopyMultiple(MemRefType type);

/// getStaticVectorCopiesOk of `op`'s A and B (getVectorCopyMultiple each).
OperandAlignment getStaticOperandAlignment(MatmulOp op);

/// One kernel a gemm.matmul is lowered to, and when it runs.
struct KernelChoice {
  ConfigAttr config;
  /// Sizes for which the host code launches this kernel (the first choice
  /// whose bounds hold); the last choice has none.
  SizeBounds when;
  /// The slices of a split-K config (split_k > 1).
  SplitPolicy split;
  /// The shape class ("default", "split-k", ...; "config" for the op's own).
  std::string name;
  /// The kernel runs on the op's MN-major operands copied transposed
  /// (getOperandTransposes), in layout tn.
  bool transposed = false;
};

/// The kernels `op` is lowered to on `target`: its own config alone (split
/// as the config says); else, with `dispatch`, the family of
/// gemm/Tuning/Dispatch.h less the members its static sizes rule out (one
/// member when every size is static); else the default config alone. Where
/// `transpose` copies operands transposed (getOperandTransposes), the
/// kernels read layout tn (`transposed`); a family then starts with the
/// members of the stored layout, bounded to getUntransposedBounds, where
/// that layout has a lowering of its own (tf32 and i8 on mma.sync).
using KernelChoices = SmallVector<KernelChoice, 4>;
KernelChoices getKernelChoices(MatmulOp op, const TargetInfo &target,
                               bool allowTf32, bool dispatch, bool transpose);

} // namespace mlir::gemm

#endif // GEMM_DIALECT_GEMM_TRANSFORMS_CONFIGPOLICY_H
