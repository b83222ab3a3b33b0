//===- HostCInterface.cpp - C entry points for the host functions ---------===//
//
// gemm-host-c-interface: marks the public host function definitions with
// `llvm.emit_c_interface`, so that convert-func-to-llvm gives each a
// `_mlir_ciface_<name>` wrapper taking memrefs as pointers to descriptors:
// the ABI a C program calls (docs/user-guide.md). Upstream's
// llvm-request-c-wrappers marks every function, declarations included, which
// would change what an external callee must be called.
//
//===----------------------------------------------------------------------===//

#include "gemm/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMHOSTCINTERFACE
#include "gemm/Conversion/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {
struct GemmHostCInterfacePass
    : public gemm::impl::GemmHostCInterfaceBase<GemmHostCInterfacePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef attrName = LLVM::LLVMDialect::getEmitCWrapperAttrName();
    bool ok = true;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.isPublic())
        continue;
      std::string wrapper = ("_mlir_ciface_" + func.getSymName()).str();
      if (Operation *other = SymbolTable::lookupSymbolIn(module, wrapper)) {
        func.emitError("host function '")
                .append(func.getSymName(), "' cannot get a C interface: '",
                        wrapper, "' is already defined")
                .attachNote(other->getLoc())
            << "'" << wrapper << "' defined here";
        ok = false;
        continue;
      }
      func->setAttr(attrName, UnitAttr::get(&getContext()));
    }
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
