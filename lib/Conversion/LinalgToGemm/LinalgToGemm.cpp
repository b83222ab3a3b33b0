//===- LinalgToGemm.cpp - gemm-from-linalg --------------------------------===//
//
// The pass: optionally bufferizes a linalg-on-tensors module, rewrites the
// contractions into gemm.matmul (Contraction.cpp), folds their elementwise
// consumers into the epilogues (FuseElementwise.cpp), turns the buffers
// only GEMMs use into device allocations (DeviceAllocs.cpp), and reports
// every linalg op it left, with the reason: as a remark (`report`) or as an
// error (`require-all`, the GPU pipelines).
//
//===----------------------------------------------------------------------===//

#include "gemm/Conversion/LinalgToGemm/LinalgToGemm.h"
#include "LinalgToGemmImpl.h"
#include "gemm/Dialect/Gemm/IR/GemmDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMFROMLINALG
#include "gemm/Conversion/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::linalg_to_gemm;

bufferization::OneShotBufferizePassOptions
mlir::gemm::getGemmBufferizeOptions() {
  bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  options.unknownTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  return options;
}

void mlir::gemm::registerGemmFromLinalgDependencies(DialectRegistry &registry) {
  registry.insert<bufferization::BufferizationDialect, func::FuncDialect,
                  linalg::LinalgDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
}

/// True if host code in `module` has a tensor operand or result, or a
/// function takes or returns a tensor.
static bool holdsTensorSemantics(ModuleOp module) {
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  WalkResult walk = module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    if (auto func = dyn_cast<FunctionOpInterface>(op))
      if (llvm::any_of(func.getArgumentTypes(), isTensor) ||
          llvm::any_of(func.getResultTypes(), isTensor))
        return WalkResult::interrupt();
    if (llvm::any_of(op->getOperandTypes(), isTensor) ||
        llvm::any_of(op->getResultTypes(), isTensor))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// Why `op`, a linalg op no step recorded a reason for, was left alone.
static std::string defaultReason(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return "not a structured linalg op; gemm-from-linalg takes contractions "
           "and their elementwise consumers";
  if (!linalgOp.hasPureBufferSemantics())
    return "has tensor semantics; bufferize first "
           "(gemm-from-linalg{bufferize=true} or one-shot-bufferize)";
  if (isa<linalg::FillOp>(op))
    return "no contraction rewritten into a gemm.matmul accumulates into its "
           "buffer next";
  if (linalgOp.getNumLoops() == linalgOp.getNumParallelLoops())
    return "not an elementwise consumer of a gemm.matmul result (the first "
           "op after a gemm.matmul to touch its output)";
  return "not a contraction gemm.matmul can run";
}

namespace {
struct GemmFromLinalg
    : public mlir::gemm::impl::GemmFromLinalgBase<GemmFromLinalg> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerGemmFromLinalgDependencies(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (bufferize && holdsTensorSemantics(module)) {
      OpPassManager pm(ModuleOp::getOperationName());
      pm.addPass(
          bufferization::createOneShotBufferizePass(getGemmBufferizeOptions()));
      if (failed(runPipeline(pm, module)))
        return signalPassFailure();
    }

    BufferAliasing aliasing;
    Reasons reasons;
    Counts counts;
    // Contractions (ops with a reduction loop).
    SmallVector<linalg::LinalgOp> contractions;
    module.walk([&](linalg::LinalgOp op) {
      if (isHostCode(op) && op.getNumReductionLoops() > 0)
        contractions.push_back(op);
    });
    for (linalg::LinalgOp op : contractions)
      (void)convertContraction(op, aliasing, reasons, counts);

    // Their elementwise consumers.
    SmallVector<MatmulOp> gemms;
    module.walk([&](MatmulOp op) {
      if (isHostCode(op))
        gemms.push_back(op);
    });
    llvm::SmallPtrSet<Operation *, 8> deadCandidates;
    for (MatmulOp gemm : gemms)
      fuseConsumers(gemm, aliasing, reasons, counts, deadCandidates);
    eraseDeadAllocs(deadCandidates);

    bool hostAllocs = false;
    if (deviceAllocs) {
      SmallVector<FunctionOpInterface> funcs;
      module.walk([&](FunctionOpInterface func) {
        if (isHostCode(func))
          funcs.push_back(func);
      });
      for (FunctionOpInterface func : funcs)
        if (failed(convertDeviceAllocs(func, report, requireAll, counts)))
          hostAllocs = true;
    }

    // What is left, and why.
    SmallVector<Operation *> left;
    module->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (isa_and_present<linalg::LinalgDialect>(op->getDialect()) &&
          isHostCode(op) &&
          !isa_and_present<linalg::LinalgDialect>(
              op->getParentOp() ? op->getParentOp()->getDialect() : nullptr))
        left.push_back(op);
      return WalkResult::advance();
    });
    for (Operation *op : left) {
      std::string reason = reasons.lookup(op);
      if (reason.empty())
        reason = defaultReason(op);
      if (requireAll)
        op->emitOpError("was not folded into a gemm.matmul, and the GPU "
                        "pipelines run no linalg op: ")
            << reason;
      else if (report)
        op->emitRemark() << "'" << op->getName() << "' left alone: " << reason;
    }

    numContractions += counts.contractions;
    numFills += counts.fills;
    numFused += counts.fused;
    numDeviceAllocs += counts.deviceAllocs;
    if (requireAll && (!left.empty() || hostAllocs))
      signalPassFailure();
  }
};
} // namespace
