//===- LinalgToGemmImpl.h - gemm-from-linalg internals ----------*- C++ -*-===//
//
// Private to lib/Conversion/LinalgToGemm: the steps of gemm-from-linalg
// (contractions, epilogue fusion, device allocations), the alias queries
// they share, and the record of why an op was left alone.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_LINALGTOGEMM_LINALGTOGEMMIMPL_H
#define LIB_CONVERSION_LINALGTOGEMM_LINALGTOGEMMIMPL_H

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "mlir/Analysis/AliasAnalysis/LocalAliasAnalysis.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::gemm::linalg_to_gemm {

/// Why each op was left alone (the last reason recorded for it).
using Reasons = llvm::DenseMap<Operation *, std::string>;

/// The local alias analysis, which in addition tells two distinct arguments
/// of a function apart when one of them carries `llvm.noalias`.
class NoAliasArgumentAnalysis : public LocalAliasAnalysis {
protected:
  AliasResult aliasImpl(Value lhs, Value rhs) override;
};

/// Alias and effect queries on buffers: NoAliasArgumentAnalysis, and a
/// mod/ref query that looks into the regions of ops with recursive memory
/// effects.
class BufferAliasing {
public:
  AliasResult alias(Value lhs, Value rhs) { return analysis.alias(lhs, rhs); }
  /// True unless `lhs` and `rhs` are known not to overlap.
  bool mayAlias(Value lhs, Value rhs) { return !alias(lhs, rhs).isNo(); }
  /// True if they are known to overlap (the same buffer, or views of one)
  /// without being the same value.
  bool overlapsOtherwise(Value lhs, Value rhs) {
    AliasResult result = alias(lhs, rhs);
    return lhs != rhs && (result.isMust() || result.isPartial());
  }
  /// What `op` (with its nested ops) may do to the memory of `location`.
  ModRefResult getModRef(Operation *op, Value location);

private:
  NoAliasArgumentAnalysis analysis;
};

/// Counts for the pass statistics.
struct Counts {
  unsigned contractions = 0;
  unsigned fills = 0;
  unsigned fused = 0;
  unsigned deviceAllocs = 0;
};

/// True if `op` is host code: not inside a gpu.module, gpu.func or
/// gpu.launch.
bool isHostCode(Operation *op);

/// Rewrites the contraction `op` into a gemm.matmul (folding a linalg.fill
/// of its output); records the reason in `reasons` and leaves the IR alone
/// otherwise.
LogicalResult convertContraction(linalg::LinalgOp op, BufferAliasing &aliasing,
                                 Reasons &reasons, Counts &counts);

/// Folds the elementwise consumers of `op`'s result into its epilogue, one
/// after another. Records in `deadCandidates` the intermediate buffers that
/// lost a writer; records why a consumer was not folded in `reasons`.
void fuseConsumers(MatmulOp op, BufferAliasing &aliasing, Reasons &reasons,
                   Counts &counts,
                   llvm::SmallPtrSetImpl<Operation *> &deadCandidates);

/// Erases the allocations in `candidates` that only memref.dim and
/// memref.dealloc use any more (memref.dim folded to the allocation's sizes).
void eraseDeadAllocs(llvm::SmallPtrSetImpl<Operation *> &candidates);

/// Turns the memref.alloc ops of host function `func` used only by
/// gemm.matmul, memref.dim, memref.dealloc and func.return into gpu.alloc;
/// with `report`, emits a remark at those a gemm.matmul uses among other
/// users; with `requireAll`, an error (and fails).
LogicalResult convertDeviceAllocs(FunctionOpInterface func, bool report,
                                  bool requireAll, Counts &counts);

/// Strips the "'<op>' op " prefix of a verifier message.
std::string stripOpPrefix(StringRef message);

/// Verifies `op` (with its regions), catching the first diagnostic in
/// `message` instead of reporting it.
LogicalResult verifyQuietly(Operation *op, std::string &message);

} // namespace mlir::gemm::linalg_to_gemm

#endif // LIB_CONVERSION_LINALGTOGEMM_LINALGTOGEMMIMPL_H
