//===- Launch.h - kernels, launches and the lowering driver -----*- C++ -*-===//
//
// Private to lib/Conversion. What turns a gemm.matmul into a kernel and its
// launch, shared by convert-gemm-to-nvgpu and convert-gemm-to-amdgpu
// (Launch.cpp): the kernel module, the kernel function, the gpu.launch_func
// with its launch facts for the manifest, and the pattern and pass driver
// both lowerings are instances of.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_CONVERSION_KERNELCOMMON_LAUNCH_H
#define GEMM_LIB_CONVERSION_KERNELCOMMON_LAUNCH_H

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Dialect/Gemm/Transforms/ConfigPolicy.h"
#include "gemm/Target/TargetInfo.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include <string>

namespace mlir::gemm::detail {

/// Fills a kernel function for `op` with `config` on `target`; returns the
/// dynamic shared memory it needs.
using KernelBodyBuilder = FailureOr<int64_t> (*)(OpBuilder &, gpu::GPUFuncOp,
                                                 MatmulOp, ConfigAttr,
                                                 const TargetInfo &);

/// One vendor's lowering as the shared pattern and pass driver see it: what
/// convert-gemm-to-nvgpu and convert-gemm-to-amdgpu differ in.
struct VendorLowering {
  /// The pass whose rules apply, for diagnostics ("convert-gemm-to-nvgpu").
  StringRef pass;
  /// Why the options name no chip this lowering builds for ("" when they
  /// do); the pattern then reports it at every gemm.matmul.
  std::string optionError;
  /// The chip kernels are built for, and its entry in the target table.
  std::string chip;
  const TargetInfo *target = nullptr;
  /// The gpu.module receiving the kernels, and the target attribute it is
  /// created with (#nvvm.target, #rocdl.target).
  std::string kernelModule;
  Attribute kernelTargetAttr;
  /// True if `target` (an attribute of a gpu.module) targets `chip`, and how
  /// diagnostics name such a target ("an #nvvm.target").
  bool (*isKernelTarget)(Attribute target, StringRef chip) = nullptr;
  StringRef kernelTargetName;
  /// Pack operands 16-byte copies cannot read (planOperandPacking).
  bool packUnaligned = true;
  /// Copy operands the chip's warpgroup MMA reads K-major only, where they
  /// are stored MN-major, into K-major workspaces first (getOperandTransposes)
  /// rather than lowering them to another instruction.
  bool transposeOperands = false;
  /// Lower a gemm.matmul without a config to its kernel family
  /// (gemm/Tuning/Dispatch.h) rather than one default kernel.
  bool dispatch = true;
  /// Default f32 GEMMs to tf32 tensor cores (getDefaultConfig).
  bool allowTf32 = false;
  /// The kernel body: the vendor's main loop and compute steps.
  KernelBodyBuilder buildKernel = nullptr;
  /// The reason the vendor's kernels cannot run epilogue op `inner` ("" if
  /// they can); null if they run every op the verifier accepts.
  std::string (*epilogueOpRule)(Operation *inner) = nullptr;
};

/// Checks the kernel-module option names a symbol; returns the error or "".
std::string checkKernelModuleName(StringRef name);

/// The largest static dimension a lowered gemm.matmul may have: the kernels
/// compute tile and element coordinates in 32 bits.
inline constexpr int64_t kMaxStaticDim = (int64_t(1) << 31) - 1;
/// The grid limits of a launch (CUDA and HIP): grid.x walks the output tiles,
/// grid.z the batch.
inline constexpr int64_t kMaxGridX = (int64_t(1) << 31) - 1;
inline constexpr int64_t kMaxGridZ = 65535;

/// The kernels `op` is lowered to under `lowering` (its own config, the
/// default, or the dispatch family: getKernelChoices), if the lowering
/// accepts them: the op is in host code, its static sizes are at most
/// kMaxStaticDim, every config passes gemm/Target/Legality.h and the op the
/// vendor's rules. Emits the reason at the op and fails otherwise.
FailureOr<KernelChoices> getLowerableChoices(MatmulOp op,
                                             const VendorLowering &lowering);

/// The pattern both lowerings are: checks its own preconditions
/// (getLowerableChoices, the kernel module's target), so that it is safe in
/// any conversion, then replaces the gemm.matmul by its kernel and launch.
class MatmulToLaunch : public OpConversionPattern<MatmulOp> {
public:
  MatmulToLaunch(MLIRContext *ctx, VendorLowering lowering)
      : OpConversionPattern<MatmulOp>(ctx), lowering(std::move(lowering)) {}

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override;

private:
  VendorLowering lowering;
};

/// The pass driver both lowerings share: checks that the module's declared
/// gemm.target (if any) is the lowering's chip and that an existing kernel
/// module carries its target; then checks every gemm.matmul under `module`
/// (all problems reported, nothing rewritten if any fails), and rewrites
/// them all with MatmulToLaunch. Returns the number of kernels.
FailureOr<unsigned> lowerAllMatmuls(ModuleOp module,
                                    const VendorLowering &lowering);

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_KERNELCOMMON_LAUNCH_H
