//===- WriteHostObject.cpp - the host module as an object file ------------===//
//
// gemm-write-host-object: translates the lowered module (host functions in
// the LLVM dialect, gpu.binary objects, gpu.launch_func) to LLVM IR, where
// the GPU dialect's translation embeds each binary with a constructor that
// loads it and turns each launch into mgpu* runtime calls, and compiles it
// with an LLVM TargetMachine into an object file a C program links against
// (with a runtime providing the mgpu* functions). Writes host.o and host.ll,
// and records them in manifest.json when gemm-write-artifacts wrote one.
//
//===----------------------------------------------------------------------===//

#include "gemm/Conversion/Passes.h"
#include "gemm/Support/PassOptions.h"
#include "gemm/Utils/Files.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include <memory>
#include <mutex>

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMWRITEHOSTOBJECT
#include "gemm/Conversion/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

// The CPU back-ends of the host triples isGpuDriverHost accepts, declared
// as llvm/Config/Targets.def would (only these: initializing every target
// would link every back-end into a statically linked embedder, e.g.
// libGemmCompilerStandalone.so).
#define GEMM_HOST_TARGETS(X) X(X86) X(AArch64) X(PowerPC)
#define GEMM_DECLARE_TARGET(T)                                                 \
  extern "C" void LLVMInitialize##T##TargetInfo();                             \
  extern "C" void LLVMInitialize##T##Target();                                 \
  extern "C" void LLVMInitialize##T##TargetMC();                               \
  extern "C" void LLVMInitialize##T##AsmPrinter();                             \
  extern "C" void LLVMInitialize##T##AsmParser();
GEMM_HOST_TARGETS(GEMM_DECLARE_TARGET)
#undef GEMM_DECLARE_TARGET

/// Makes the host back-ends available to lookupTarget: the host object may
/// be for another machine than gemm-opt's (an aarch64 host of a Grace
/// Hopper system). The assembly parsers too: the object streamer parses
/// inline assembly (without one LLVM aborted on `llvm.inline_asm "nop"`).
static void initializeLLVMTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
#define GEMM_INITIALIZE_TARGET(T)                                              \
  LLVMInitialize##T##TargetInfo();                                             \
  LLVMInitialize##T##Target();                                                 \
  LLVMInitialize##T##TargetMC();                                               \
  LLVMInitialize##T##AsmPrinter();                                             \
  LLVMInitialize##T##AsmParser();
    GEMM_HOST_TARGETS(GEMM_INITIALIZE_TARGET)
#undef GEMM_INITIALIZE_TARGET
  });
}

/// True for the CPU architectures the CUDA and ROCm drivers run on.
static bool isGpuDriverHost(const llvm::Triple &triple) {
  switch (triple.getArch()) {
  case llvm::Triple::x86_64:
  case llvm::Triple::aarch64:
  case llvm::Triple::ppc64le:
    return true;
  default:
    return false;
  }
}

/// Whether `type` holds (is, or has an element or member of) a type the
/// CPU back-end of `triple` cannot lower: a scalable vector (LLVM aborted
/// legalizing it on x86), or another target's extended float (x86_fp80
/// outside x86, ppc_fp128 outside PowerPC: their libcalls aborted).
static bool holdsUnlowerableType(llvm::Type *type, const llvm::Triple &triple) {
  if (isa<llvm::ScalableVectorType>(type))
    return true;
  if (type->isX86_FP80Ty())
    return !triple.isX86();
  if (type->isPPC_FP128Ty())
    return !triple.isPPC();
  return llvm::any_of(type->subtypes(), [&](llvm::Type *t) {
    return holdsUnlowerableType(t, triple);
  });
}

/// Why `machine` cannot compile `module` (empty if it can): what the
/// pipelines' host code never holds but hand-written LLVM-dialect input
/// can, each of which made LLVM abort in code generation rather than report
/// an error.
static std::string whyNotCompilable(const llvm::Module &module,
                                    const llvm::TargetMachine &machine) {
  const llvm::Triple &triple = machine.getTargetTriple();
  auto typeName = [](llvm::Type *type) {
    std::string s;
    llvm::raw_string_ostream os(s);
    type->print(os);
    return s;
  };
  for (const llvm::Function &f : module) {
    std::string where = "function '" + f.getName().str() + "'";
    // A GPU kernel's calling convention: "unsupported calling convention".
    switch (f.getCallingConv()) {
    case llvm::CallingConv::C:
    case llvm::CallingConv::Fast:
    case llvm::CallingConv::Cold:
      break;
    default:
      return where + " has calling convention " +
             std::to_string(f.getCallingConv()) + ", which host code for '" +
             triple.str() + "' cannot have (kernels belong in a gpu.module)";
    }
    // An unknown CPU left the subtarget without 64-bit code ("64-bit code
    // requested on a subtarget that doesn't support it").
    if (f.hasFnAttribute("target-cpu")) {
      StringRef cpu = f.getFnAttribute("target-cpu").getValueAsString();
      if (!machine.getMCSubtargetInfo()->isCPUStringValid(cpu))
        return where + " asks for target CPU '" + cpu.str() +
               "', which LLVM does not know for '" + triple.str() + "'";
    }
    if (holdsUnlowerableType(f.getFunctionType(), triple))
      return where + " has type '" + typeName(f.getFunctionType()) +
             "', which LLVM cannot compile for '" + triple.str() + "'";
    for (const llvm::Instruction &inst : llvm::instructions(f)) {
      llvm::Type *bad = nullptr;
      if (holdsUnlowerableType(inst.getType(), triple))
        bad = inst.getType();
      for (const llvm::Use &use : inst.operands())
        if (!bad && holdsUnlowerableType(use->getType(), triple))
          bad = use->getType();
      if (bad)
        return where + " computes on type '" + typeName(bad) +
               "', which LLVM cannot compile for '" + triple.str() + "'";
    }
  }
  return "";
}

/// The C entry points of `module`: its `_mlir_ciface_` function definitions
/// (gemm-host-c-interface and convert-func-to-llvm made them).
static llvm::json::Array collectEntryPoints(ModuleOp module) {
  llvm::json::Array functions;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = func.getSymName();
    if (func.isExternal() || !name.starts_with("_mlir_ciface_"))
      continue;
    functions.push_back(llvm::json::Object{
        {"name", name.drop_front(StringRef("_mlir_ciface_").size()).str()},
        {"c_symbol", name.str()}});
  }
  return functions;
}

namespace {
struct GemmWriteHostObjectPass
    : public gemm::impl::GemmWriteHostObjectBase<GemmWriteHostObjectPass> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    return initializeOptionsWithErrors(*this, options, errorHandler,
                                       {"output-dir"});
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, gpu::GPUDialect>();
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerGPUDialectTranslation(registry);
  }

  void runOnOperation() override;

private:
  /// Creates `outputDir`/`file` and lets `write` fill it; false (after an
  /// error at the module) if the file cannot be written.
  bool writeFile(StringRef file, function_ref<void(llvm::raw_fd_ostream &)>);
  /// Adds the "host" entry to an existing manifest.json.
  bool recordInManifest(llvm::json::Object host);
};
} // namespace

bool GemmWriteHostObjectPass::writeFile(
    StringRef file, function_ref<void(llvm::raw_fd_ostream &)> write) {
  SmallString<256> path(outputDir);
  llvm::sys::path::append(path, file);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec) {
    write(os);
    os.close();
    ec = os.error();
  }
  if (ec) {
    getOperation().emitError("gemm-write-host-object: cannot write '")
        << path << "': " << ec.message();
    return false;
  }
  return true;
}

bool GemmWriteHostObjectPass::recordInManifest(llvm::json::Object host) {
  SmallString<256> path(outputDir);
  llvm::sys::path::append(path, "manifest.json");
  if (!llvm::sys::fs::exists(path))
    return true;
  auto buffer = readRegularFile(path);
  if (!buffer) {
    getOperation().emitError("gemm-write-host-object: cannot read '")
        << path << "': " << llvm::toString(buffer.takeError());
    return false;
  }
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json || !json->getAsObject()) {
    std::string why =
        json ? "not a JSON object" : llvm::toString(json.takeError());
    getOperation().emitError("gemm-write-host-object: '")
        << path << "' is not a manifest: " << why;
    return false;
  }
  (*json->getAsObject())["host"] = std::move(host);
  return writeFile("manifest.json", [&](llvm::raw_fd_ostream &os) {
    os << llvm::formatv("{0:2}", *json) << "\n";
  });
}

void GemmWriteHostObjectPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (outputDir.empty()) {
    module.emitError("gemm-write-host-object: 'output-dir' must be set");
    return signalPassFailure();
  }
  initializeLLVMTargets();
  llvm::Triple targetTriple(llvm::Triple::normalize(
      triple.empty() ? llvm::sys::getProcessTriple() : triple.getValue()));
  // The host code is lowered for 64-bit pointers and index, and only CPUs
  // with GPU drivers run it; other targets (GPUs, 32-bit CPUs) miscompile
  // it or abort in instruction selection.
  if (!isGpuDriverHost(targetTriple)) {
    module.emitError("gemm-write-host-object: triple '")
        << targetTriple.str()
        << "' is not a host of the CUDA or ROCm drivers (expected an "
           "x86_64, aarch64 or ppc64le triple)";
    return signalPassFailure();
  }
  std::string lookupError;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(targetTriple, lookupError);
  if (!target) {
    module.emitError("gemm-write-host-object: no LLVM target for triple '")
        << targetTriple.str() << "': " << lookupError;
    return signalPassFailure();
  }
  // Position-independent, for the PIE executables and shared libraries of
  // today's toolchains; generic CPU, so that the object runs on any machine
  // of the triple.
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      targetTriple, /*CPU=*/"generic", /*Features=*/"", llvm::TargetOptions(),
      llvm::Reloc::PIC_));
  if (!machine) {
    module.emitError("gemm-write-host-object: LLVM cannot compile for '")
        << targetTriple.str() << "'";
    return signalPassFailure();
  }

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "host");
  if (!llvmModule) {
    module.emitError("gemm-write-host-object: the module does not translate "
                     "to LLVM IR (the host code must be in the LLVM dialect, "
                     "the kernels in gpu.binary)");
    return signalPassFailure();
  }
  llvmModule->setTargetTriple(targetTriple);
  llvmModule->setDataLayout(machine->createDataLayout());
  if (std::string why = whyNotCompilable(*llvmModule, *machine); !why.empty()) {
    module.emitError("gemm-write-host-object: ") << why;
    return signalPassFailure();
  }

  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
    module.emitError("gemm-write-host-object: cannot create directory '")
        << outputDir << "': " << ec.message();
    return signalPassFailure();
  }
  if (!writeFile("host.ll",
                 [&](llvm::raw_fd_ostream &os) { llvmModule->print(os, {}); }))
    return signalPassFailure();
  bool emitted = true;
  if (!writeFile("host.o", [&](llvm::raw_fd_ostream &os) {
        llvm::legacy::PassManager codegen;
        if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                         llvm::CodeGenFileType::ObjectFile)) {
          emitted = false;
          return;
        }
        codegen.run(*llvmModule);
      }))
    return signalPassFailure();
  if (!emitted) {
    module.emitError("gemm-write-host-object: LLVM cannot emit object files "
                     "for '")
        << targetTriple.str() << "'";
    return signalPassFailure();
  }
  llvm::json::Object host{{"object", "host.o"},
                          {"llvm_ir", "host.ll"},
                          {"triple", targetTriple.str()},
                          {"functions", collectEntryPoints(module)}};
  if (!recordInManifest(std::move(host)))
    return signalPassFailure();
}
