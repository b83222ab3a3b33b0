//===- WriteArtifacts.cpp - gpu.binary objects and a JSON manifest --------===//
//
// gemm-write-artifacts: writes every gpu.binary object to a file and a
// manifest.json describing each kernel (from the `gemm.kernels` module
// attribute) so that a harness with only the CUDA driver can load and launch
// them. Memref parameters are passed as MLIR's expanded descriptor:
// allocated pointer, aligned pointer, offset, sizes..., strides... .
//
// The writer depends on no lowering: it reads the launch facts the lowerings
// record (kKernelsAttrName) and the upstream GPU target attributes of the
// objects, so it writes any gpu.binary, ours or not.
//
//===----------------------------------------------------------------------===//

#include "GpuTargets.h"
#include "gemm/Conversion/Passes.h"
#include "gemm/Dialect/Gemm/IR/GemmAttrs.h"
#include "gemm/Support/PassOptions.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMWRITEARTIFACTS
#include "gemm/Conversion/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

/// Converts the manifest attributes (dictionaries, arrays, strings, integers,
/// booleans) to JSON.
static llvm::json::Value toJson(Attribute attr) {
  if (auto d = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object o;
    for (NamedAttribute na : d)
      o[na.getName().getValue()] = toJson(na.getValue());
    return o;
  }
  if (auto a = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array arr;
    for (Attribute e : a)
      arr.push_back(toJson(e));
    return arr;
  }
  if (auto s = dyn_cast<StringAttr>(attr))
    return s.getValue().str();
  if (auto b = dyn_cast<BoolAttr>(attr))
    return b.getValue();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getInt();
  std::string s;
  llvm::raw_string_ostream os(s);
  attr.print(os);
  return s;
}

/// `name` as a file name inside the output folder: module symbols may hold
/// '/' or start with '.', and gpu.module @"../x" must not write outside it.
static std::string fileNameFor(std::string name) {
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_' && c != '-' && c != '.')
      c = '_';
  if (name.empty() || name.front() == '.')
    name.insert(0, "_");
  return name;
}

/// A `gemm.kernels` entry must describe a kernel of one of the objects
/// written: a dictionary whose "name", "module" and "chip" name a gpu.binary
/// of `module` with an object for that chip. An entry describing nothing (an
/// attribute the input carried, a binary since removed) would send a runtime
/// to a file that does not exist.
static LogicalResult checkKernelEntry(ModuleOp module, size_t index,
                                      Attribute entry) {
  auto fail = [&]() {
    return module.emitError("gemm.kernels entry ") << index << " ";
  };
  auto dict = dyn_cast<DictionaryAttr>(entry);
  if (!dict)
    return fail() << "is " << entry << ", not a kernel description";
  StringRef fields[] = {"name", "module", "chip"};
  for (StringRef field : fields)
    if (!dict.getAs<StringAttr>(field))
      return fail() << "has no string '" << field << "'";
  StringRef binaryName = dict.getAs<StringAttr>("module").getValue();
  StringRef chip = dict.getAs<StringAttr>("chip").getValue();
  auto binary = dyn_cast_or_null<gpu::BinaryOp>(
      SymbolTable::lookupSymbolIn(module, binaryName));
  if (!binary)
    return fail() << "names module '" << binaryName
                  << "', which is not a gpu.binary of this module";
  for (auto object : binary.getObjects().getAsRange<gpu::ObjectAttr>())
    if (getGpuTargetChip(object.getTarget()) == chip)
      return success();
  return fail() << "names chip '" << chip << "', for which gpu.binary '"
                << binaryName << "' has no object";
}

namespace {
struct GemmWriteArtifactsPass
    : public gemm::impl::GemmWriteArtifactsBase<GemmWriteArtifactsPass> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    return initializeOptionsWithErrors(*this, options, errorHandler,
                                       {"output-dir"});
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (outputDir.empty()) {
      module.emitError("gemm-write-artifacts: 'output-dir' must be set");
      return signalPassFailure();
    }
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
      module.emitError("gemm-write-artifacts: cannot create directory '")
          << outputDir << "': " << ec.message();
      return signalPassFailure();
    }
    llvm::json::Array objects;
    bool failedWrite = false;
    module.walk([&](gpu::BinaryOp binary) {
      for (Attribute a : binary.getObjects()) {
        auto object = dyn_cast<gpu::ObjectAttr>(a);
        if (!object)
          continue;
        bool nvidia = isa<NVVM::NVVMTargetAttr>(object.getTarget());
        std::string chip = getGpuTargetChip(object.getTarget()).str();
        StringRef ext;
        switch (object.getFormat()) {
        case gpu::CompilationTarget::Assembly:
          ext = nvidia ? "ptx" : "s";
          break;
        case gpu::CompilationTarget::Binary:
          ext = nvidia ? "cubin" : "hsaco";
          break;
        case gpu::CompilationTarget::Fatbin:
          ext = "fatbin";
          break;
        case gpu::CompilationTarget::Offload:
          ext = "bc";
          break;
        }
        std::string file = fileNameFor(
            (binary.getSymName() + "." + chip + "." + ext).str());
        SmallString<256> path(outputDir);
        llvm::sys::path::append(path, file);
        std::error_code ec;
        llvm::raw_fd_ostream os(path, ec);
        if (ec) {
          binary.emitError("cannot write '") << path << "': " << ec.message();
          failedWrite = true;
          return;
        }
        os << object.getObject().getValue();
        objects.push_back(llvm::json::Object{
            {"module", binary.getSymName().str()},
            {"chip", chip},
            {"format", stringifyCompilationTarget(object.getFormat()).str()},
            {"file", file}});
      }
    });
    if (failedWrite)
      return signalPassFailure();
    llvm::json::Array kernels;
    if (auto list = module->getAttrOfType<ArrayAttr>(kKernelsAttrName)) {
      for (auto [i, k] : llvm::enumerate(list)) {
        if (failed(checkKernelEntry(module, i, k)))
          return signalPassFailure();
        kernels.push_back(toJson(k));
      }
    }
    llvm::json::Object manifest{
        {"version", 1},
        {"generator", "gemm-opt"},
        {"param_convention",
         "memref parameters expand to (allocated ptr, aligned ptr, offset, "
         "sizes..., strides...); scalars are passed as their type"},
        {"grid_rule", "x = ceil(M / tile_m) * ceil(N / tile_n) (rounded "
                      "up to a multiple of grid.cluster_x where given), "
                      "y = the K slices of a split_k kernel (1 otherwise; "
                      "a fixup kernel: x = tiles - tail + tail * slices, "
                      "y = 1, docs/runtime.md), "
                      "z = batch (1 without a batch dimension)"},
        {"objects", std::move(objects)},
        {"kernels", std::move(kernels)}};
    SmallString<256> path(outputDir);
    llvm::sys::path::append(path, "manifest.json");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) {
      module.emitError("cannot write '") << path << "': " << ec.message();
      return signalPassFailure();
    }
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)))
       << "\n";
  }
};
} // namespace
