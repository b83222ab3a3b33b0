//===- DeviceAllocs.cpp - gemm-from-linalg: device allocations ------------===//
//
// In the GPU pipelines a memref a kernel reads or writes is device memory:
// function arguments are device pointers, and a buffer the function
// allocates for gemm.matmul alone must be allocated on the device. A
// memref.alloc used only by gemm.matmul ops, memref.dim, memref.dealloc and
// func.return becomes a gpu.alloc (its deallocations gpu.dealloc); one that
// is neither freed nor returned is freed after its last use, since
// one-shot bufferization leaves deallocation to a later pass. A buffer a
// gemm.matmul uses among other users stays on the host: a remark says so
// when asked for, and it is an error under require-all (the GPU pipelines,
// where the kernel would be handed a host pointer).
//
//===----------------------------------------------------------------------===//

#include "LinalgToGemmImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gemm-from-linalg"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::linalg_to_gemm;

LogicalResult mlir::gemm::linalg_to_gemm::convertDeviceAllocs(
    FunctionOpInterface func, bool report, bool requireAll, Counts &counts) {
  bool anyHost = false;
  SmallVector<memref::AllocOp> allocs;
  func->walk([&](memref::AllocOp alloc) {
    if (isHostCode(alloc))
      allocs.push_back(alloc);
  });
  for (memref::AllocOp alloc : allocs) {
    bool usedByGemm = false, freed = false, returned = false;
    Operation *other = nullptr;
    for (OpOperand &use : alloc->getUses()) {
      Operation *user = use.getOwner();
      if (isa<MatmulOp>(user))
        usedByGemm = true;
      else if (isa<memref::DeallocOp>(user))
        freed = true;
      else if (isa<func::ReturnOp>(user))
        returned = true;
      else if (!isa<memref::DimOp>(user) && !other)
        other = user;
    }
    if (!usedByGemm)
      continue;
    if (other) {
      LLVM_DEBUG(llvm::dbgs()
                 << "gemm-from-linalg: host allocation at " << alloc.getLoc()
                 << " (used by " << other->getName() << ")\n");
      if (requireAll) {
        // A gemm.matmul kernel would get a host pointer.
        InFlightDiagnostic diag = alloc.emitOpError(
            "stays a host allocation, which the gemm.matmul kernels using it "
            "cannot access: besides gemm.matmul it is used by '");
        diag << other->getName()
             << "' (only gemm.matmul, memref.dim, memref.dealloc and "
                "func.return uses make it device memory)";
        diag.attachNote(other->getLoc())
            << "the '" << other->getName() << "' that keeps it on the host";
        anyHost = true;
      } else if (report)
        alloc.emitRemark("stays a host allocation: besides gemm.matmul it is "
                         "used by '")
            << other->getName()
            << "' (only gemm.matmul, memref.dim, memref.dealloc and "
               "func.return "
               "uses make it device memory)";
      continue;
    }
    OpBuilder b(alloc);
    Location loc = alloc.getLoc();
    Value memref =
        gpu::AllocOp::create(b, loc, alloc.getType(), /*asyncToken=*/Type(),
                             /*asyncDependencies=*/ValueRange(),
                             alloc.getDynamicSizes(), alloc.getSymbolOperands(),
                             /*hostShared=*/false)
            .getMemref();
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        b.setInsertionPoint(dealloc);
        gpu::DeallocOp::create(b, dealloc.getLoc(), /*asyncToken=*/Type(),
                               /*asyncDependencies=*/ValueRange(), memref);
        dealloc.erase();
      }
    alloc.replaceAllUsesWith(memref);
    Block *block = alloc->getBlock();
    alloc.erase();
    if (!freed && !returned) {
      // Free it after its last use in its block.
      Operation *last = nullptr;
      for (Operation *user : memref.getUsers()) {
        Operation *ancestor = block->findAncestorOpInBlock(*user);
        if (ancestor && (!last || last->isBeforeInBlock(ancestor)))
          last = ancestor;
      }
      b.setInsertionPointAfter(last);
      gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(),
                             /*asyncDependencies=*/ValueRange(), memref);
    }
    LLVM_DEBUG(llvm::dbgs()
               << "gemm-from-linalg: device allocation at " << loc << "\n");
    ++counts.deviceAllocs;
  }
  return failure(anyHost);
}
