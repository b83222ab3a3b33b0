//===- SplitK.h - the reduction of split-K GEMMs ----------------*- C++ -*-===//
//
// Private to lib/Conversion. A split-K GEMM kernel (config split_k > 1)
// writes the partial sums of its K slice, unconverted, to a workspace
// [batch][slices][M][N] of the accumulator type; the reduction kernel built
// here adds the slices of each element in slice order (deterministic: the
// same sizes give the same bits) and applies the epilogue once, to the
// reduced value (SplitK.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_CONVERSION_KERNELCOMMON_SPLITK_H
#define GEMM_LIB_CONVERSION_KERNELCOMMON_SPLITK_H

#include "KernelContext.h"
#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Target/TargetInfo.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::gemm::detail {

/// The reduction kernel's block: 32 columns (coalesced) x 8 threads, which
/// cover R rows with 8 / R slice groups each (R = emitReduceRowsPerBlock).
/// Its grid is (ceil(N / 32), min(ceil(M / R), kMaxReduceGridY), batch);
/// rows past the grid are walked in a grid-stride loop.
inline constexpr int64_t kReduceBlockX = 32, kReduceBlockY = 8;
inline constexpr int64_t kMaxReduceGridY = 65535;
/// Slice groups are used only while batch * M * N <= kReduceGroupOutputs *
/// slices (the manifest's `reduce.group_outputs`): past that, one thread an
/// element already fills the GPU, and eight threads an element would only
/// multiply the blocks (f16 181x1048x2512 in 9 slices: 14.4 us grouped,
/// docs/dispatch.md "The reduction").
inline constexpr int64_t kReduceGroupOutputs = 1024;
/// The slices a thread loads before adding them (in slice order), so that
/// this many loads are in flight instead of one.
inline constexpr int64_t kReduceUnroll = 4;

class IndexMath;
/// R, the rows a reduction block covers for `slices` K slices of a
/// `batch` x `rows` x `cols` output: 8 (one thread an element) below 8
/// slices or when batch * rows * cols > kReduceGroupOutputs * slices, else 1
/// (8 / R = 8 slice groups). The host's grid rule and the kernel both use
/// it; runtimes compute the same (docs/runtime.md).
Value emitReduceRowsPerBlock(IndexMath &m, Value slices, Value batch,
                             Value rows, Value cols);

/// The workspace of `op`'s partial sums: memref<?x?x?x?xACC> holding
/// [batch (1 without one)][slices][M][N], row-major.
MemRefType getSplitKWorkspaceType(MatmulOp op);

/// The workspace of a `reduction = fixup` kernel: memref<?x?xBMxBNxACC>
/// holding [tail tiles][slices][BM][BN], each slice's partial sums of its
/// block tile (row-major, padding rows and columns included), and its flags:
/// memref<?xi32>, one counter per tail tile.
MemRefType getFixupWorkspaceType(MatmulOp op, ConfigAttr config);
MemRefType getFixupFlagsType(MLIRContext *ctx);

/// Creates in `gpuModule` the reduction kernel `name` of split-K GEMM `op`:
/// arguments C, extras... (`argTypes`, as the GEMM kernel takes them) and the
/// workspace.
gpu::GPUFuncOp buildSplitKReduceKernel(OpBuilder &b, MatmulOp op,
                                       ConfigAttr config,
                                       const TargetInfo &target,
                                       gpu::GPUModuleOp gpuModule,
                                       StringRef name, TypeRange argTypes);

/// The epilogue of a `reduction = cluster` split-K kernel (ctx.clusterReduce):
/// stages the block's partial sums in shared memory, adds the cluster's
/// slices for this block's share of the tile through distributed shared
/// memory and applies the epilogue once to each sum. Returns the shared
/// memory it stages in (estimateClusterStagingBytes).
int64_t emitClusterReduction(OpBuilder &b, KernelContext &ctx,
                             ComputeStep &step, ValueRange acc);

/// The fix-up of a `reduction = fixup` kernel (ctx.fixup), between the main
/// loop and the epilogue of the compute threads: a block holding a slice of
/// a split tile (ctx.split) writes its partial sums to its plane of the
/// workspace and counts itself on the tile's flag; the block that counts
/// last adds the tile's planes in slice order (its own from the workspace
/// too, so that the sum does not depend on which block finishes last),
/// resets the flag to zero, and alone runs the epilogue. Returns the
/// accumulators the epilogue takes and, in `owner`, whether this block
/// runs it (i1; true for a tile that is not split).
SmallVector<Value> emitFixupReduction(OpBuilder &b, KernelContext &ctx,
                                      ComputeStep &step, ValueRange acc,
                                      Value &owner);

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_KERNELCOMMON_SPLITK_H
