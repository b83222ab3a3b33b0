//===- KernelSetup.h - a kernel body and its block --------------*- C++ -*-===//
//
// Private to lib/Conversion. The parts of a kernel every main loop starts
// from (KernelSetup.cpp): the kernel body around a vendor's main loop, the
// block's coordinates with grouped rasterization, the staged shared tiles,
// and the global sources and bounds checks the copies into them use.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_CONVERSION_KERNELCOMMON_KERNELSETUP_H
#define GEMM_LIB_CONVERSION_KERNELCOMMON_KERNELSETUP_H

#include "KernelContext.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::gemm::detail {

/// Fills `kernel` (arguments: A, B, C, extras...) for `op`: a KernelContext
/// over its arguments, then `mainLoop` (which returns the dynamic shared
/// memory), then the return.
FailureOr<int64_t> buildKernelBody(
    OpBuilder &b, gpu::GPUFuncOp kernel, MatmulOp op, ConfigAttr config,
    const TargetInfo &target,
    function_ref<FailureOr<int64_t>(OpBuilder &, KernelContext &)> mainLoop);

/// Sets the thread, block and warp coordinates (tile and warp origins, the
/// split-K slice) and the problem sizes in `ctx`.
void setupCoordinates(OpBuilder &b, KernelContext &ctx);

/// Sets the output tile origin (ctx.tileM0, tileN0) of linear tile `tile` of
/// the ctx.tilesM x ctx.tilesN tiles, in the config's rasterization.
void assignTile(OpBuilder &b, Location loc, KernelContext &ctx, Value tile);

/// `multicast = 2`: sets ctx.clusterRank, tileValid and shareB for a block
/// of a pair computing linear tile `tile` (of the batch's tiles in a
/// persistent walk) out of `tiles`; its partner computes tile ^ 1, after
/// assignTile set the block's own origin.
void assignPair(OpBuilder &b, Location loc, KernelContext &ctx, Value tile,
                Value tiles);

/// setupCoordinates, then creates the staged shared tiles of A and B
/// (`stages` buffers each, rows padded by padA / padB elements when the
/// config's layout is `pad`) in dynamic shared memory. Returns the shared
/// memory in bytes.
int64_t setupBlock(OpBuilder &b, KernelContext &ctx, int64_t padA,
                   int64_t padB);

/// Where a shared tile's data comes from in global memory.
struct GlobalSource {
  Value memref;
  Value row0, col0; ///< origin of the tile in storage coordinates
  Value rows, cols; ///< extent of the stored matrix (bounds)
  /// i1: 16-byte vector copies are legal at run time (unit inner stride,
  /// 16-byte aligned base, offset and strides); null: never.
  Value vectorOk;
};

/// i1: the block's M (A) or N (B) extent of `tile` lies inside the matrix
/// (loop-invariant: compute once before the main loop).
Value emitTileInsideMN(OpBuilder &b, Location loc, const KernelContext &ctx,
                       const SmemTile &tile);

/// i1: the k-tile of `tile` starting at `k0` lies inside K.
Value emitKTileInside(OpBuilder &b, Location loc, const KernelContext &ctx,
                      const SmemTile &tile, Value k0);

/// `scf.if cond { fn }`.
void emitIfTrue(OpBuilder &b, Location loc, Value cond,
                function_ref<void(OpBuilder &)> fn);

/// `scf.if cond -> (types) { then } else { otherwise }`; each callback ends
/// its region with its own `scf.yield`.
scf::IfOp emitIfElse(OpBuilder &b, Location loc, TypeRange types, Value cond,
                     function_ref<void(OpBuilder &)> then,
                     function_ref<void(OpBuilder &)> otherwise);

/// `scf.for iv = begin to end step step iter_args(init)` (index bounds)
/// whose body yields `body(b, iv, iter args)`, iv as an IndexMath value;
/// returns the loop's results.
SmallVector<Value> emitForYielding(
    OpBuilder &b, Location loc, Value begin, Value end, Value step,
    ValueRange init,
    function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)> body);

/// `scf.if x < bound { fn }`.
void emitIfLess(OpBuilder &b, Location loc, Value x, Value bound,
                function_ref<void(OpBuilder &)> fn);

/// i1 (host or kernel side): `memref`'s aligned pointer is 16-byte aligned,
/// and its offset and the strides of dimensions `dims` are multiples of
/// `multiple` elements (the part of emitVectorCopiesOk that does not depend
/// on which dimension is contiguous).
Value emitBaseAlignedTo(OpBuilder &b, Location loc, Value memref,
                        memref::ExtractStridedMetadataOp meta, int64_t multiple,
                        ArrayRef<int64_t> dims);

/// Whether `type` has a strided layout whose inner stride is 1 or dynamic
/// (then the kernel checks it, as emitVectorCopiesOk does): the static part
/// of that check.
bool mayHaveUnitInnerStride(MemRefType type);

/// Whether `type` has a strided layout whose inner stride is statically 1.
bool hasUnitInnerStride(MemRefType type);

/// i1 (host or kernel side): `memref` may be copied in 16-byte chunks of
/// `multiple` elements: 16-byte aligned base pointer, offset and outer strides
/// multiples of `multiple`, and a dynamic inner stride equal to 1 (a static
/// inner stride is the caller's check).
Value emitVectorCopiesOk(OpBuilder &b, Location loc, Value memref,
                         int64_t multiple);
/// The same, from `memref`'s strided metadata `meta`.
Value emitVectorCopiesOk(OpBuilder &b, Location loc, Value memref,
                         memref::ExtractStridedMetadataOp meta,
                         int64_t multiple);

/// The base buffer of `memref` (`meta` its strided metadata) as a 1-D,
/// unit-stride memref from the buffer's start: element (i, j, ...) of
/// `memref` is at offset + i * stride0 + j * stride1 + ..., which the caller
/// forms (so that a loop can step it by adds).
Value emitLinearView(OpBuilder &b, Location loc, Value memref,
                     memref::ExtractStridedMetadataOp meta);

/// The global source of `tile` (A or B) at k = 0.
GlobalSource makeGlobalSource(OpBuilder &b, Location loc, KernelContext &ctx,
                              Value memref, const SmemTile &tile);

/// A row of a unit-stride operand read in 16-byte blocks from an element
/// `start` that need not begin one (the gemv kernels, the shifted copies of
/// the GEMM main loop): the block holding it (an
/// element offset) and the funnel shift that moves `start` to the front of
/// a chunk (two selects on its whole words, then a shift of its bits).
struct ShiftedRow {
  Value block, selHigh, selNext, shiftBits;
  /// Where the second block is read from (an element offset); null: the
  /// block after `block`.
  Value next;
};
ShiftedRow shiftRow(OpBuilder &b, Location loc, Value start, int64_t laneElems,
                    int64_t elemBytes);

/// 32-bit words in a 16-byte block.
inline constexpr int64_t kShiftChunkWords = 4;

/// The loads of a shifted chunk: the two aligned 16-byte blocks holding the
/// `laneElems` elements of `row` from `kc` elements past its start, as
/// 2 * kShiftChunkWords i32 words. Separate from shiftBlocks so that a
/// caller can issue the loads of several chunks before the first is used.
SmallVector<Value> loadShiftBlocks(OpBuilder &b, Location loc, Value linear,
                                   const ShiftedRow &row, Value kc,
                                   int64_t laneElems, Type elem);

/// The chunk the words of loadShiftBlocks hold: shifted by `row`'s shift,
/// as a vector<laneElems x elem>.
Value shiftBlocks(OpBuilder &b, Location loc, ArrayRef<Value> words,
                  const ShiftedRow &row, int64_t laneElems, Type elem);

/// The `laneElems` elements of `row` from `kc` elements past its start:
/// the two aligned 16-byte blocks holding them, shifted.
SmallVector<Value> loadShiftedChunk(OpBuilder &b, Location loc, Value linear,
                                    const ShiftedRow &row, Value kc,
                                    int64_t laneElems, Type elem);

/// The `v` elements (16 bytes) of a unit-stride row of `linear` from column
/// `col` (i32), `rowStart` (index) the element offset of the row's column
/// 0 and `cols` (i32) its length: the first `valid` (i32, 0..v) elements,
/// the rest zero. Read as the aligned 16-byte blocks holding them, funnel
/// shifted (the buffer's base must be 16-byte aligned): the start is
/// clamped into the row, and the second block is read only if an element
/// of the row lies in it, so that no block without an element of the row
/// is read.
Value loadShiftedRowChunk(OpBuilder &b, Location loc, Value linear,
                          Value rowStart, Value col, Value cols, Value valid,
                          int64_t v, Type elem);

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_KERNELCOMMON_KERNELSETUP_H
