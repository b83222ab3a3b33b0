//===- Utils.cpp - gemm-from-linalg: alias queries and helpers ------------===//
//
// What the steps of gemm-from-linalg share: alias queries that know about
// `llvm.noalias` function arguments, a mod/ref query that looks into nested
// regions, quiet verification of a candidate op, and the removal of
// intermediate buffers that fusion left without readers.
//
//===----------------------------------------------------------------------===//

#include "LinalgToGemmImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::linalg_to_gemm;

AliasResult NoAliasArgumentAnalysis::aliasImpl(Value lhs, Value rhs) {
  AliasResult result = LocalAliasAnalysis::aliasImpl(lhs, rhs);
  if (!result.isMay())
    return result;
  // Two distinct arguments of one function: LLVM's noalias on either says
  // that no memory reached through it is reached through the other.
  auto lhsArg = dyn_cast<BlockArgument>(lhs);
  auto rhsArg = dyn_cast<BlockArgument>(rhs);
  if (!lhsArg || !rhsArg || lhsArg == rhsArg ||
      lhsArg.getOwner() != rhsArg.getOwner() ||
      !lhsArg.getOwner()->isEntryBlock())
    return result;
  auto func = dyn_cast<FunctionOpInterface>(lhsArg.getOwner()->getParentOp());
  if (!func)
    return result;
  StringRef noAlias = LLVM::LLVMDialect::getNoAliasAttrName();
  if (func.getArgAttr(lhsArg.getArgNumber(), noAlias) ||
      func.getArgAttr(rhsArg.getArgNumber(), noAlias))
    return AliasResult::NoAlias;
  return result;
}

ModRefResult BufferAliasing::getModRef(Operation *op, Value location) {
  ModRefResult result = ModRefResult::getNoModRef();
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
    for (Region &region : op->getRegions())
      for (Operation &nested : region.getOps()) {
        result = result.merge(getModRef(&nested, location));
        if (result.isModAndRef())
          return result;
      }
    // The op's own effects, if it declares any, come on top.
    if (!isa<MemoryEffectOpInterface>(op))
      return result;
  }
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return ModRefResult::getModAndRef();
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  for (const MemoryEffects::EffectInstance &effect : effects) {
    if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(effect.getEffect()))
      continue;
    if (Value value = effect.getValue(); value && !mayAlias(value, location))
      continue;
    result = result.merge(isa<MemoryEffects::Read>(effect.getEffect())
                              ? ModRefResult::getRef()
                              : ModRefResult::getMod());
  }
  return result;
}

bool mlir::gemm::linalg_to_gemm::isHostCode(Operation *op) {
  return !op->getParentOfType<gpu::GPUModuleOp>() &&
         !op->getParentOfType<gpu::GPUFuncOp>() &&
         !op->getParentOfType<gpu::LaunchOp>();
}

std::string mlir::gemm::linalg_to_gemm::stripOpPrefix(StringRef message) {
  // "'gemm.matmul' op ..." -> "..."
  if (message.starts_with("'")) {
    size_t end = message.find("' op ");
    if (end != StringRef::npos)
      return message.drop_front(end + 5).str();
  }
  return message.str();
}

LogicalResult mlir::gemm::linalg_to_gemm::verifyQuietly(Operation *op,
                                                        std::string &message) {
  ScopedDiagnosticHandler handler(op->getContext(), [&](Diagnostic &diag) {
    if (message.empty())
      message = stripOpPrefix(diag.str());
    return success();
  });
  return verify(op);
}

void mlir::gemm::linalg_to_gemm::eraseDeadAllocs(
    llvm::SmallPtrSetImpl<Operation *> &candidates) {
  for (Operation *op : candidates) {
    auto alloc = cast<memref::AllocOp>(op);
    MemRefType type = alloc.getType();
    if (!llvm::all_of(alloc->getUsers(), [&](Operation *user) {
          if (auto dim = dyn_cast<memref::DimOp>(user)) {
            std::optional<int64_t> index = dim.getConstantIndex();
            return index && *index >= 0 && *index < type.getRank();
          }
          return isa<memref::DeallocOp>(user);
        }))
      continue;
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers())) {
      if (auto dim = dyn_cast<memref::DimOp>(user)) {
        std::optional<int64_t> index = dim.getConstantIndex();
        OpBuilder b(dim);
        Value size =
            type.isDynamicDim(*index)
                ? alloc.getDynamicSizes()[type.getDynamicDimIndex(*index)]
                : arith::ConstantIndexOp::create(b, dim.getLoc(),
                                                 type.getDimSize(*index))
                      .getResult();
        dim.replaceAllUsesWith(size);
        dim.erase();
      } else {
        user->erase();
      }
    }
    if (alloc->use_empty())
      alloc.erase();
  }
  candidates.clear();
}
