//===- SelectConfig.cpp - gemm-select-config ------------------------------===//
//
// Gives every gemm.matmul without a config one: from the tuning database when
// it has an entry for the problem's key (exact shape bucket, else the nearest
// one), else the cost model's pick over the legal lattice. Explicit configs
// are checked against the chip and kept.
//
//===----------------------------------------------------------------------===//

#include "gemm/Dialect/Gemm/IR/GemmAttrs.h"
#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Dialect/Gemm/Transforms/ConfigPolicy.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"
#include "gemm/Tuning/CostModel.h"
#include "gemm/Tuning/TuningDB.h"
#include "gemm/Support/PassOptions.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMSELECTCONFIG
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {
std::string shapeString(int64_t m, int64_t n, int64_t k) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

struct GemmSelectConfig
    : public mlir::gemm::impl::GemmSelectConfigBase<GemmSelectConfig> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    return initializeOptionsWithErrors(*this, options, errorHandler,
                                       {"tuning-db"});
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The chip: the option, else the module's gemm.target.
    TargetAttr declared = module->getAttrOfType<TargetAttr>(kTargetAttrName);
    std::string chip = target;
    if (chip.empty()) {
      if (!declared) {
        module.emitError("gemm-select-config needs a chip: set target= or "
                         "the module's gemm.target");
        return signalPassFailure();
      }
      chip = declared.getChip().str();
    }
    const TargetInfo *info = lookupTarget(chip);
    if (!info) {
      module.emitError("unknown target chip '")
          << chip << "' (known: " << knownTargetNames() << ")";
      return signalPassFailure();
    }
    if (declared && declared.getChip() != chip) {
      module.emitError("module declares gemm.target ")
          << declared.getChip() << " but gemm-select-config targets " << chip;
      return signalPassFailure();
    }
    std::optional<TuningDB> db;
    if (!tuningDb.empty()) {
      llvm::Expected<TuningDB> loaded = loadTuningDB(tuningDb);
      if (!loaded) {
        module.emitError(llvm::toString(loaded.takeError()));
        return signalPassFailure();
      }
      db = std::move(*loaded);
    }

    bool ok = true;
    module.walk([&](MatmulOp op) {
      if (ConfigAttr explicitConfig = op.getConfigAttr()) {
        if (failed(op.verifyConfigForTarget(explicitConfig, *info))) {
          ok = false;
          return;
        }
        ++numExplicit;
        if (report)
          op.emitRemark("explicit config kept");
        return;
      }
      GemmProblem problem = getGemmProblem(op, allowTf32);
      if (db) {
        // The operands' alignment where their types decide it, else their
        // shapes' (contiguous rows).
        OperandAlignment aligned = getStaticOperandAlignment(op);
        if (std::optional<TuningMatch> match =
                lookupTuningDB(*db, chip, problem, aligned.a, aligned.b)) {
          const TuningEntry &e = *match->entry;
          op.setConfigAttr(getConfigAttr(op.getContext(), e.config));
          ++numFromDB;
          if (report)
            op.emitRemark("config from the tuning database (")
                << (match->exact ? "exact" : "nearest") << " bucket, entry "
                << shapeString(e.m, e.n, e.k) << " "
                << stringifyEpilogueClass(e.epilogue)
                << (match->sameAlignment
                        ? ""
                        : ", measured with other operand alignment")
                << ")";
          return;
        }
      }
      std::optional<RankedConfig> pick = pickConfig(problem, *info);
      if (!pick) {
        op.emitOpError("no legal config for ")
            << problem.dtypeKey() << " " << problem.layoutName() << " on "
            << chip << " (no lowered instruction kind fits)";
        ok = false;
        return;
      }
      op.setConfigAttr(getConfigAttr(op.getContext(), pick->config));
      ++numFromModel;
      if (report)
        op.emitRemark("config from the cost model for ")
            << shapeString(problem.m, problem.n, problem.k)
            << " (predicted "
            << llvm::formatv("{0:F1}", pick->cost.tflops).str()
            << " TFLOP/s)";
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
