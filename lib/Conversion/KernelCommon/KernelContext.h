//===- KernelContext.h - what a kernel builder works on ---------*- C++ -*-===//
//
// Private to lib/Conversion. The shared-memory tiles of A and B, the
// KernelContext every part of a kernel builder reads (operands, coordinates,
// tiles), and the ComputeStep interface behind which each instruction family
// (mma.sync, wgmma, SIMT, MFMA) computes one shared-memory stage.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_CONVERSION_KERNELCOMMON_KERNELCONTEXT_H
#define GEMM_LIB_CONVERSION_KERNELCOMMON_KERNELCONTEXT_H

#include "IndexMath.h"
#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Target/TargetInfo.h"
#include "gemm/Utils/FragmentLayout.h"
#include "gemm/Utils/MfmaLayout.h"

namespace mlir::gemm::detail {

/// One operand (A or B) as staged in shared memory: a row-major tile of
/// `rows x cols` elements whose columns are contiguous in global memory.
struct SmemTile {
  MmaOperand role;
  /// True if K is the contiguous (column) dimension of the storage.
  bool kContiguous;
  int64_t rows, cols;
  /// Elements per stored row (cols, plus padding for the pad layout; the
  /// panel width for paneled tiles).
  int64_t rowElems;
  /// Non-zero for the MN-major tiles of wgmma: the columns are stored as
  /// panels of `panelCols` (128 bytes), one swizzled rows x panelCols tile
  /// after the other (wgmmaPanelOffset).
  int64_t panelCols = 0;
  unsigned elemBytes;
  SmemLayout layout;
  /// The 1-D shared buffer holding all stages, and its stage size.
  Value buffer;
  int64_t stageElems;

  /// The tile as the LDS bank model sees it (shape and layout, with the
  /// padding read off the row pitch).
  LdsTileShape ldsShape() const { return {rows, cols, elemBytes}; }
  LdsLayout ldsLayout() const {
    return {toSmemKind(layout),
            layout == SmemLayout::pad ? rowElems - cols : 0};
  }

  /// Element offset of storage coordinate (row, col) in stage `stage`.
  Value offset(IndexMath &m, Value stage, Value row, Value col) const;

  /// The same offset in stage 0 for constant coordinates (the compile-time
  /// mirror of `offset`, from gemm/Utils/FragmentLayout.h).
  int64_t offsetConst(int64_t row, int64_t col) const;

  /// Storage coordinate of operand-space (row, col): (m, k) for A, (k, n)
  /// for B (see storageTransposes).
  std::pair<Value, Value> toStorage(Value row, Value col) const {
    return storageTransposes(role, kContiguous) ? std::make_pair(col, row)
                                                : std::make_pair(row, col);
  }

  /// The same offset for row = rowVar + rowConst, col = colVar + colConst,
  /// where the Var parts are loop-invariant per thread and the Const parts
  /// compile-time. When the swizzle allows (rows of >= 128 bytes, rowConst a
  /// multiple of 8, colConst's chunk bits disjoint from those colVar can
  /// take, given colVarChunkBound > colVar / chunk and colVarAlign dividing
  /// colVar's remaining part), the XOR is reassociated so that everything
  /// lane-dependent is hoistable and each access costs an XOR with an
  /// immediate and an add.
  Value offsetSplit(IndexMath &m, Value stage, Value rowVar, int64_t rowConst,
                    Value colVar, int64_t colConst, int64_t colVarChunkBound,
                    int64_t colVarAlign) const;
};

/// Everything the compute steps and the epilogue need about the kernel.
struct KernelContext {
  MatmulOp op;
  ConfigAttr config;
  const TargetInfo *target;
  /// Kernel arguments: A, B, C, extras.
  Value a, b, c;
  SmallVector<Value> extras;
  Value batch; ///< batch index, null without a batch dimension
  Value m, n, k;
  /// The block's K range is [kBegin, k): all of K (kBegin = 0) unless the
  /// config splits K, when grid.y slices it into runs of whole k-tiles.
  Value kBegin;
  /// K of the whole problem (k is the slice's end under split-K), and the
  /// first of the padded k-tiles (null unless the compute step groups
  /// k-tiles): kTileOrigin sends those past K, where copies read zeros.
  Value kTotal, kPadFrom;
  /// Split-K only: the block's slice (grid.y) and the f32 (accumulator
  /// type) workspace [batch][slices][M][N] its partial sums go to; with
  /// `reduction = cluster` (clusterReduce) no workspace, the slice is the
  /// block's place in its cluster of `slices` blocks.
  Value slice, workspace, slices;
  bool clusterReduce = false;
  /// `reduction = fixup`: only the tiles past the grid's last whole wave
  /// are split. The workspace is [tail tiles][slices][BM][BN] (its
  /// dimensions 0 and 1 give the tail's tiles and slices, chosen at launch),
  /// `flags` one i32 counter per tail tile (zero at launch, and left zero),
  /// `tailTile` the block's tail tile (index into both; 0 outside the
  /// tail) and `split` (i1) whether the block computes a slice of a split
  /// tile (emitFixupReduction).
  bool fixup = false;
  Value flags, tailTile, split;
  /// The epilogue writes the slice's partial sums to the workspace for a
  /// reduction kernel (split-K through a workspace) instead of C.
  bool writesPartialSums() const { return workspace && !fixup; }
  /// `load = tma` only: the tensor maps of A and B (!llvm.ptr, the device
  /// address of a CUtensorMap, null when the host could not build one; the
  /// kernel then copies element by element).
  Value mapA, mapB;
  /// `load = tma_ws`: the block's last warpgroup produces (TMA loads), the
  /// first `computeThreads` threads compute and run the epilogue, and
  /// synchronize among themselves with a named barrier
  /// (emitComputeBarrier). Otherwise every thread computes.
  bool warpSpecialized = false;
  int64_t computeThreads = 0;
  /// `schedule = pingpong`: the compute threads form `teams` teams of
  /// teamThreads() threads, each on its own output tiles; `team` is this
  /// thread's (index; the producer's is `teams`), `tid` counts inside the
  /// team and `blockTid` is threadIdx.x. Otherwise one team, team null and
  /// blockTid == tid.
  int64_t teams = 1;
  Value team, blockTid;
  /// `schedule = persistent` or `pingpong`: the block walks output tiles.
  bool persistent = false;
  int64_t teamThreads() const { return computeThreads / teams; }
  /// Where the epilogue stages its tile in dynamic shared memory: at
  /// `stagingOffset` bytes (null: 0, over the operand tiles, which are
  /// done by then), at most `stagingLimit` bytes (a tile larger than that
  /// goes through in column slices, or is stored from registers).
  Value stagingOffset;
  int64_t stagingLimit = 0;
  /// Output tiles of the problem along M and N (the grid's tile walk).
  Value tilesM, tilesN;
  /// `multicast = 2`: the block's rank in its cluster of two consecutive
  /// blocks (index), whether it holds a tile (i1: false for a last block
  /// past the tiles) and whether the pair shares B's tile (i1: both hold
  /// tiles of one tile column), which each then loads half of and
  /// multicasts. Null otherwise.
  Value clusterRank, tileValid, shareB;

  Value tileM0, tileN0; ///< block tile origin
  Value warpM0, warpN0; ///< warp tile origin inside the block tile
  Value lane, tid;
  SmemTile tileA, tileB;
  Type accType;
  /// Element kind of the operands as the instruction sees it (tf32 for f32
  /// operands on tensor cores).
  ElemKind operandKind;

  /// A barrier of the compute threads: gpu.barrier, or named barrier 1 of
  /// computeThreads threads in a warp-specialized kernel (whose producer
  /// does not take part); with teams, named barrier 1 + team of the team's
  /// threads.
  void emitComputeBarrier(OpBuilder &b, Location loc) const;

  /// The k-tiles of the block's K range, and the first K index of k-tile
  /// `kt` of it.
  Value numKTiles(IndexMath &m) const;
  Value kTileOrigin(IndexMath &m, Value kt) const;

  /// `index` indices into a global operand, batch index prepended.
  SmallVector<Value> globalIndices(OpBuilder &b, Location loc, Value row,
                                   Value col) const;
};

/// The accumulators of one thread, flattened; the compute step decides their
/// meaning and provides the coordinates the epilogue needs.
class ComputeStep {
public:
  virtual ~ComputeStep() = default;
  /// Zero-initialized accumulators.
  virtual SmallVector<Value> initAccumulators(OpBuilder &b, Location loc) = 0;
  /// Number of instruction k-steps in one block k-tile.
  virtual int64_t numKSteps() = 0;
  /// Loads the register fragments of k-step `ks` of shared stage `stage`.
  virtual SmallVector<Value> loadFragments(OpBuilder &b, Location loc,
                                           Value stage, int64_t ks) = 0;
  /// Multiplies one k-step's fragments into the accumulators.
  virtual SmallVector<Value> multiply(OpBuilder &b, Location loc,
                                      ValueRange frags, ValueRange acc) = 0;
  /// All k-steps of shared stage `stage`. The default loads the fragments of
  /// k-step s+1 before the instructions of step s consume theirs (register
  /// double-buffering).
  virtual SmallVector<Value> computeStage(OpBuilder &b, Location loc,
                                          Value stage, ValueRange acc);
  /// k-tiles the main loop runs as one group, its body unrolled so that each
  /// k-tile of a group is computed by computeGroupStage with its place in
  /// the group (f8 promotion adds a partial sum once per group). The main
  /// loop pads K to whole groups with k-tiles past K, which every copy path
  /// reads as zeros.
  virtual int64_t kTilesPerGroup() const { return 1; }
  /// k-tile `part` of a group of kTilesPerGroup(): computeStage unless the
  /// step groups k-tiles.
  virtual SmallVector<Value> computeGroupStage(OpBuilder &b, Location loc,
                                               Value stage, ValueRange acc,
                                               int64_t part) {
    return computeStage(b, loc, stage, acc);
  }
  /// True if the instructions read shared memory through the async proxy
  /// (wgmma): the main loop then fences each thread's completed copies
  /// (fence.proxy.async) before the barrier that publishes a stage.
  virtual bool readsThroughAsyncProxy() const { return false; }
  /// Stages whose instructions may still be reading shared memory when
  /// computeStage returns (asynchronous MMAs: wgmma keeps one group in
  /// flight). The main loop prefetches that many tiles less far ahead, so
  /// that it never overwrites a buffer still being read.
  virtual int64_t stagesInFlight() const { return 0; }
  /// Waits for everything computeStage left in flight (after the main loop,
  /// before the accumulators are read).
  virtual void drain(OpBuilder &b, Location loc) {}
  /// Calls `fn(row, col, value)` for every accumulator element, with row and
  /// col relative to the block tile origin.
  virtual void
  forEachElement(OpBuilder &b, Location loc, ValueRange acc,
                 function_ref<void(Value row, Value col, Value value)> fn) = 0;
  /// A multiple of which the block tile's columns can be cut into slices
  /// whose accumulator elements forEachElementInColumns hands out (the
  /// epilogue stages a tile too large for its staging area slice by slice);
  /// 0 if the step cannot.
  virtual int64_t columnSliceGranule() const { return 0; }
  /// The accumulators with every element replaced by `fn(row, col,
  /// value)` (coordinates as in forEachElement); only steps that support
  /// `reduction = fixup` (wgmma) implement it.
  virtual SmallVector<Value>
  mapElements(OpBuilder &b, Location loc, ValueRange acc,
              function_ref<Value(Value row, Value col, Value value)> fn) {
    llvm_unreachable("the step does not map its accumulators");
  }
  /// forEachElement for the elements in the block tile's columns
  /// [begin, end), multiples of columnSliceGranule().
  virtual void forEachElementInColumns(
      OpBuilder &b, Location loc, ValueRange acc, int64_t begin, int64_t end,
      function_ref<void(Value row, Value col, Value value)> fn) {
    llvm_unreachable("the step does not slice its columns");
  }
};

/// A compute step whose warp tile is tilesM x tilesN instruction tiles of
/// instrTileM x instrTileN, one accumulator value per tile (row-major), and
/// whose fragments are the tilesM A fragments followed by the tilesN B
/// fragments: the loops mma.sync and MFMA share. A subclass sets the sizes
/// and provides the instruction and the accumulator's lane map.
class WarpTiledStep : public ComputeStep {
public:
  explicit WarpTiledStep(KernelContext &ctx) : ctx(ctx) {}

  /// tilesM * tilesN zero accumulators of accTileType.
  SmallVector<Value> initAccumulators(OpBuilder &b, Location loc) override;
  /// One instruction per tile: A fragment mi, B fragment ni.
  SmallVector<Value> multiply(OpBuilder &b, Location loc, ValueRange frags,
                              ValueRange acc) override;
  /// Every slot of every tile, at the tile origin plus accSlotCoord.
  void forEachElement(
      OpBuilder &b, Location loc, ValueRange acc,
      function_ref<void(Value row, Value col, Value value)> fn) override;

protected:
  /// acc + a * b for one instruction tile.
  virtual Value emitInstruction(OpBuilder &b, Location loc, Value a, Value bv,
                                Value acc) = 0;
  /// Accumulator elements one lane holds per instruction tile.
  virtual unsigned accSlots() const = 0;
  /// Coordinate of this lane's slot `slot` inside an instruction tile.
  virtual std::pair<Value, Value> accSlotCoord(IndexMath &m, unsigned slot) = 0;
  /// The value of slot `slot` of accumulator `acc`.
  virtual Value accSlotValue(OpBuilder &b, Location loc, Value acc,
                             unsigned slot) = 0;

  KernelContext &ctx;
  int64_t tilesM = 0, tilesN = 0;
  int64_t instrTileM = 0, instrTileN = 0;
  Type accTileType;
};

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_KERNELCOMMON_KERNELCONTEXT_H
