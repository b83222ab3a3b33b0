//===- VerifyBinaries.cpp - gpu.binary objects that can be used -----------===//
//
// gemm-verify-binaries: the last check of the composite pipelines. Upstream
// serialization can succeed with an object nobody can use: a linker that
// wrote nothing gives an empty HSACO, and a CUDA toolkit without libdevice
// gives PTX calling undefined __nv_* functions (after an error that does not
// fail the pass). Both become diagnostics here.
//
//===----------------------------------------------------------------------===//

#include "GpuTargets.h"
#include "gemm/Conversion/Passes.h"
#include "gemm/Target/TargetInfo.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMVERIFYBINARIES
#include "gemm/Conversion/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

/// The first libdevice function PTX assembly declares but does not define
/// (`.extern .func ... __nv_erff(`), or "".
static StringRef findUnresolvedLibdeviceCall(StringRef ptx) {
  for (size_t at = ptx.find(".extern .func"); at != StringRef::npos;
       at = ptx.find(".extern .func", at + 1)) {
    StringRef line = ptx.substr(at).take_until([](char c) { return c == '\n'; });
    size_t nv = line.find("__nv_");
    if (nv == StringRef::npos)
      continue;
    return line.substr(nv).take_until(
        [](char c) { return c == '(' || c == ' ' || c == ';'; });
  }
  return "";
}

namespace {
struct GemmVerifyBinariesPass
    : public gemm::impl::GemmVerifyBinariesBase<GemmVerifyBinariesPass> {
  using Base::Base;

  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](gpu::BinaryOp binary) {
      for (auto object : binary.getObjects().getAsRange<gpu::ObjectAttr>()) {
        StringRef bytes = object.getObject().getValue();
        StringRef format = stringifyCompilationTarget(object.getFormat());
        if (bytes.empty()) {
          binary.emitError("gpu.binary '")
              << binary.getSymName() << "' holds an empty " << format
              << " object for " << object.getTarget()
              << " (did the linker or assembler run?)";
          ok = false;
          continue;
        }
        if (object.getFormat() != gpu::CompilationTarget::Assembly)
          continue;
        if (StringRef fn = findUnresolvedLibdeviceCall(bytes); !fn.empty()) {
          binary.emitError("gpu.binary '")
              << binary.getSymName() << "' calls " << fn
              << ", which libdevice was not linked for: pass "
                 "cuda-path=<a CUDA toolkit with nvvm/libdevice>";
          ok = false;
        }
      }
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// gemm-check-kernel-modules
//===----------------------------------------------------------------------===//

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMCHECKKERNELMODULES
#include "gemm/Conversion/Passes.h.inc"
} // namespace mlir::gemm

namespace {
struct GemmCheckKernelModulesPass
    : public gemm::impl::GemmCheckKernelModulesBase<
          GemmCheckKernelModulesPass> {
  using Base::Base;

  /// Whether every memref type `op` declares (its function type, its
  /// results, its regions' block arguments) has a strided layout and, in
  /// host code (`host`: outside any gpu.module), the default or a numbered
  /// memory space; emits a diagnostic at `op` for the first that does not.
  static bool checkMemRefTypes(Operation *op, bool host) {
    auto check = [&](Type type, const Twine &what) {
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref)
        return true;
      if (!memref.isStrided()) {
        op->emitError() << what << " has type " << memref
                        << ", whose layout is not strided; the pipelines "
                           "lower strided memrefs only (normalize the layout "
                           "first, e.g. with --normalize-memrefs)";
        return false;
      }
      // The host lowering (func-to-llvm, gpu-to-llvm) converts numbered
      // memory spaces only: #gpu.address_space<...> made it print an error
      // and the pipeline exit 0 with unconverted host code, or fail later
      // at a gpu.launch_func it could not legalize.
      Attribute space = memref.getMemorySpace();
      if (!host || !space || isa<IntegerAttr>(space))
        return true;
      op->emitError() << what << " has type " << memref
                      << ", whose memory space " << space
                      << " the host lowering does not convert; host code "
                         "takes memrefs in the default memory space (or a "
                         "numbered one)";
      return false;
    };
    if (auto fn = dyn_cast<FunctionOpInterface>(op)) {
      for (auto [i, t] : llvm::enumerate(fn.getArgumentTypes()))
        if (!check(t, "argument #" + Twine(i) + " of '" + fn.getName() + "'"))
          return false;
      for (auto [i, t] : llvm::enumerate(fn.getResultTypes()))
        if (!check(t, "result #" + Twine(i) + " of '" + fn.getName() + "'"))
          return false;
      if (!fn.isExternal())
        return true; // the body's block arguments are the arguments
    }
    for (auto [i, r] : llvm::enumerate(op->getResults()))
      if (!check(r.getType(), "result #" + Twine(i)))
        return false;
    if (isa<FunctionOpInterface>(op))
      return true;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (!check(arg.getType(), "block argument #" +
                                        Twine(arg.getArgNumber()) + " of '" +
                                        op->getName().getStringRef() + "'"))
            return false;
    return true;
  }

  void runOnOperation() override {
    const TargetInfo *target = lookupTarget(chip);
    if (!target) {
      getOperation().emitError("gemm-check-kernel-modules: unknown chip '")
          << chip << "' (known: " << knownTargetNames() << ")";
      return signalPassFailure();
    }
    // The dialect of the target attributes the vendor's lowering serializes.
    StringRef want = target->isNVIDIA() ? "nvvm" : "rocdl";
    StringRef vendor = target->isNVIDIA() ? "NVIDIA" : "AMD";
    bool ok = true;
    getOperation().walk([&](Operation *op) {
      // The LLVM lowerings convert strided memrefs only: a layout map that
      // is not strided (a permutation written as an affine map) made the
      // type conversion print an error and the pipeline succeed anyway,
      // writing a module with unconverted types. Host code's memory spaces
      // likewise.
      auto parentModule = op->getParentOfType<gpu::GPUModuleOp>();
      if (!checkMemRefTypes(op, !parentModule))
        ok = false;
      // The host lowering (gpu-to-llvm) declares and calls the GPU
      // runtime's functions (mgpuMemAlloc, mgpuLaunchKernel, ...) by name:
      // a host symbol of that name was taken for them (a segfault in the
      // alloc lowering, launches calling the user's function, verifier
      // errors on the calls).
      if (auto symbol = dyn_cast<SymbolOpInterface>(op);
          symbol && op->getParentOp() == getOperation() &&
          symbol.getName().starts_with("mgpu")) {
        op->emitError("'")
            << op->getName() << "' @" << symbol.getName()
            << " has a name the host lowering reserves for the GPU runtime's "
               "functions (mgpu*); rename it";
        ok = false;
      }
      // The other vendor's ops in a kernel module reached its instruction
      // selection as intrinsics it has not (rocdl.workitem.id.x under
      // NVPTX aborted LLVM).
      StringRef ns = op->getName().getDialectNamespace();
      bool foreign = target->isNVIDIA() ? (ns == "rocdl" || ns == "amdgpu")
                                        : (ns == "nvvm" || ns == "nvgpu");
      if (parentModule && foreign) {
        op->emitError("'")
            << op->getName() << "' in gpu.module '" << parentModule.getName()
            << "' is an op of the other vendor's dialect, but this " << vendor
            << " pipeline builds #" << want << ".target kernels for " << chip;
        ok = false;
      }
      if (auto module = dyn_cast<gpu::GPUModuleOp>(op)) {
        // Upstream serialization names its temporary files after the module
        // ("Couldn't create the temp file" for gpu.module @"../x").
        if (module.getName().contains('/')) {
          module.emitError("gpu.module '")
              << module.getName()
              << "' has a '/' in its name, which serialization names files "
                 "after; rename it";
          ok = false;
          return;
        }
        ArrayAttr targets = module.getTargetsAttr();
        if (!targets)
          return;
        for (Attribute t : targets) {
          // gpu-module-to-binary serializes a module for each of its
          // targets: one of the other vendor made LLVM abort, one of this
          // vendor for another chip was serialized for that chip (ptxas
          // then rejected sm_99).
          StringRef moduleChip = getGpuTargetChip(t);
          if (t.getDialect().getNamespace() == want && moduleChip == chip)
            continue;
          module.emitError("gpu.module '")
              << module.getName() << "' targets " << t << ", but this "
              << vendor << " pipeline builds #" << want
              << ".target kernels for " << chip << " only";
          ok = false;
          return;
        }
        return;
      }
      // An object the input brought along was not compiled here: nothing
      // vouches for its bytes (a "cubin" that is not ELF, AMD assembly
      // under gemm-to-ptx), and the pipeline would write it as its own.
      if (auto binary = dyn_cast<gpu::BinaryOp>(op)) {
        binary.emitError("gpu.binary '")
            << binary.getSymName() << "' is already compiled, but this "
            << vendor
            << " pipeline compiles gpu.module and gemm.matmul ops only (write "
               "prebuilt objects with gemm-write-artifacts alone)";
        ok = false;
      }
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
