//===- KernelBuilder.h - shared pieces of the GEMM kernel builders -*- C++ -*-//
//
// The machinery the NVIDIA (lib/Conversion/GemmToNVGPU) and AMD
// (lib/Conversion/GemmToAMDGPU) kernel builders share; implemented in
// lib/Conversion/KernelCommon. A kernel is built in parts:
//
//  - the block setup (KernelSetup.cpp): block coordinates with grouped
//    rasterization, the warp/wave grid, the staged shared-memory (LDS) tiles
//    and the global sources they are filled from;
//  - the main loop, per vendor: global-to-shared copies (cp.async on NVIDIA,
//    register-staged vector loads on AMD) and the multi-stage pipeline;
//  - the compute step of one shared-memory stage (a ComputeStep: mma.sync,
//    SIMT FMA, MFMA);
//  - the epilogue (Epilogue.cpp): the gemm.matmul region applied to each
//    accumulator element in registers, with predicated loads and stores;
//  - the host side (Launch.cpp): the kernel function, its launch and the
//    launch facts recorded for the manifest.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_CONVERSION_GEMMTONVGPU_KERNELBUILDER_H
#define GEMM_LIB_CONVERSION_GEMMTONVGPU_KERNELBUILDER_H

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Target/TargetInfo.h"
#include "gemm/Utils/FragmentLayout.h"
#include "gemm/Utils/MfmaLayout.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::gemm::detail {

/// Index arithmetic with constant folding, so that the emitted IR stays
/// readable and small before canonicalization. Kernel-side math runs in i32
/// (`idx` converts to `index` where memrefs are accessed): 64-bit address
/// arithmetic would double the registers it occupies, and GEMM kernels live
/// at the edge of the register file. Host-side math uses `index`.
class IndexMath {
public:
  IndexMath(OpBuilder &b, Location loc, bool useIndex = false)
      : b(b), loc(loc),
        type(useIndex ? Type(b.getIndexType()) : Type(b.getI32Type())) {}
  Value c(int64_t v);
  /// `v` as an `index` (for memref and nvgpu indices).
  Value idx(Value v);
  /// An `index` value in this math's type.
  Value from(Value v);
  Value add(Value x, Value y);
  Value add(Value x, int64_t y) { return add(x, c(y)); }
  Value sub(Value x, Value y);
  Value mul(Value x, int64_t y);
  Value mul(Value x, Value y);
  Value div(Value x, int64_t y);
  Value div(Value x, Value y);
  Value rem(Value x, int64_t y);
  Value rem(Value x, Value y);
  Value ceilDiv(Value x, int64_t y);
  Value min(Value x, Value y);
  Value max(Value x, Value y);
  Value xorOp(Value x, Value y);
  Value andOp(Value x, int64_t y);
  Value shr(Value x, int64_t y);
  Value lt(Value x, Value y);
  Value andI1(Value x, Value y);
  Value select(Value cond, Value x, Value y);

  OpBuilder &b;
  Location loc;
  Type type;
};

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
  Value tileM0, tileN0;  ///< block tile origin
  Value warpM0, warpN0;  ///< warp tile origin inside the block tile
  Value lane, tid;
  SmemTile tileA, tileB;
  Type accType;
  /// Element kind of the operands as the instruction sees it (tf32 for f32
  /// operands on tensor cores).
  ElemKind operandKind;

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
  virtual void forEachElement(
      OpBuilder &b, Location loc, ValueRange acc,
      function_ref<void(Value row, Value col, Value value)> fn) = 0;
};

std::unique_ptr<ComputeStep> createMmaSyncStep(KernelContext &ctx);
std::unique_ptr<ComputeStep> createWgmmaStep(KernelContext &ctx);
std::unique_ptr<ComputeStep> createSimtStep(KernelContext &ctx);
std::unique_ptr<ComputeStep> createMfmaStep(KernelContext &ctx);

/// Fills `kernel` (arguments: A, B, C, extras...) for `op`: a KernelContext
/// over its arguments, then `mainLoop` (which returns the dynamic shared
/// memory), then the return.
FailureOr<int64_t>
buildKernelBody(OpBuilder &b, gpu::GPUFuncOp kernel, MatmulOp op,
                ConfigAttr config, const TargetInfo &target,
                function_ref<FailureOr<int64_t>(OpBuilder &, KernelContext &)>
                    mainLoop);

/// Swizzled tiles need whole 16-byte chunks per stored row: emits a
/// diagnostic on `op` and fails otherwise.
LogicalResult checkSwizzleRows(MatmulOp op, ConfigAttr config);

/// Sets the thread, block and warp coordinates and the problem sizes in
/// `ctx` and creates the staged shared tiles of A and B (`stages` buffers
/// each, rows padded by padA / padB elements when the config's layout is
/// `pad`) in dynamic shared memory. Returns the shared memory in bytes.
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

/// `scf.if x < bound { fn }`.
void emitIfLess(OpBuilder &b, Location loc, Value x, Value bound,
                function_ref<void(OpBuilder &)> fn);

/// i1 (host or kernel side): `memref` may be copied in 16-byte chunks of
/// `multiple` elements: 16-byte aligned base pointer, offset and outer strides
/// multiples of `multiple`, and a dynamic inner stride equal to 1 (a static
/// inner stride is the caller's check).
Value emitVectorCopiesOk(OpBuilder &b, Location loc, Value memref,
                         int64_t multiple);

/// The global source of `tile` (A or B) at k = 0.
GlobalSource makeGlobalSource(OpBuilder &b, Location loc, KernelContext &ctx,
                              Value memref, const SmemTile &tile);


/// Applies the epilogue to every accumulator element of `step`.
void emitEpilogue(OpBuilder &b, KernelContext &ctx, ComputeStep &step,
                  ValueRange acc);

/// Applies the epilogue to one accumulator element at absolute (row, col) and
/// stores it, predicated on (row, col) being inside C.
void emitEpilogueElement(OpBuilder &b, Location loc, KernelContext &ctx,
                         Value row, Value col, Value acc);

/// Builds the NVIDIA main loop and epilogue; returns the dynamic shared
/// memory in bytes.
FailureOr<int64_t> buildMainLoop(OpBuilder &b, KernelContext &ctx);

/// Builds the AMD main loop (register-staged LDS pipeline) and epilogue;
/// returns the LDS in bytes.
FailureOr<int64_t> buildAMDMainLoop(OpBuilder &b, KernelContext &ctx);

//===----------------------------------------------------------------------===//
// Host side
//===----------------------------------------------------------------------===//

/// Whether the host packs A and B into 16-byte aligned workspaces before the
/// GEMM (Pack.cpp): never (aligned, or not packable), always (the types prove
/// an operand misaligned), or when a run-time check says so.
enum class PackMode { never, always, runtime };

struct OperandPacking {
  PackMode mode = PackMode::never;
  int64_t multiple = 0; ///< elements per 16 bytes
  /// Elements the workspaces' K and contiguous dimensions are rounded up to:
  /// 128 bytes, so that every workspace row starts on a cache line (rows
  /// 16 bytes apart split every tile row over one line more: f16 nn
  /// 4099x4097x4095, B's 4104-element rows, ran its GEMM 16% slower).
  int64_t roundTo = 0;
  /// Types of the workspaces (identity layout, the contiguous dimension and K
  /// rounded up to `roundTo`).
  MemRefType workspaceA, workspaceB;
  /// The GEMM kernel's parameter types for A and B.
  Type kernelA, kernelB;
};

/// The packing of `op`'s operands (mode never unless `enabled`).
OperandPacking planOperandPacking(MatmulOp op, bool enabled);

/// What emitOperandPacking produced: the A and B to launch the GEMM kernel
/// with, an i1 that is true when the run-time check packed (null otherwise),
/// and the manifest record of the packing (null when never).
struct PackedOperands {
  Value a, b;
  Value packed;
  DictionaryAttr manifest;
};

/// Emits the host side of `packing` before `op`: the pack kernels in
/// `gpuModule` (one per operand signature, shared by the module's GEMMs), the
/// workspaces, the launches and, at run time, the check.
PackedOperands emitOperandPacking(OpBuilder &b, MatmulOp op,
                                  const OperandPacking &packing,
                                  gpu::GPUModuleOp gpuModule);

/// `v` itself if it has type `type`, else a memref.cast of it to `type`.
Value castIfNeeded(OpBuilder &b, Location loc, Value v, Type type);

/// Frees the workspaces of `packed` (after the GEMM launch).
void emitPackCleanup(OpBuilder &b, Location loc, const OperandPacking &packing,
                     const PackedOperands &packed);

/// The kernel target a lowering pass wants: the attribute to create, a
/// predicate recognizing it on an existing kernel module, and how to name it
/// in diagnostics ("an #nvvm.target", "a #rocdl.target").
struct KernelTarget {
  Attribute attr;
  /// True if `target` (an attribute of a gpu.module) targets `chip`.
  bool (*matches)(Attribute target, StringRef chip);
  StringRef description;
  StringRef chip;
};

/// The checks a lowering pass makes before rewriting anything: the module's
/// declared gemm.target (if any) is `target.chip`, and an existing kernel
/// module `kernelModule` carries the wanted target. Emits a diagnostic naming
/// `pass` and fails otherwise.
LogicalResult checkKernelTargets(ModuleOp module, StringRef pass,
                                 StringRef kernelModule,
                                 const KernelTarget &target);

/// The kernel module `name` of `module`, created with `target.attr` on first
/// use. Fails with a diagnostic if it exists with other targets.
FailureOr<gpu::GPUModuleOp> getOrCreateKernelModule(OpBuilder &b,
                                                    ModuleOp module,
                                                    StringRef name,
                                                    const KernelTarget &target);

/// Fills a kernel function for `op` with `config` on `target`; returns the
/// dynamic shared memory it needs.
using KernelBodyBuilder = function_ref<FailureOr<int64_t>(
    OpBuilder &, gpu::GPUFuncOp, MatmulOp, ConfigAttr, const TargetInfo &)>;

/// The rewrite both lowering patterns share: the kernel module (created with
/// `kernelTarget.attr` on first use), the kernel function, its body from
/// `build`, the shared-memory check against `target`, the launch, and the
/// op erased.
/// With `packUnaligned`, operands the kernel could only copy element by
/// element are packed first (planOperandPacking).
LogicalResult lowerMatmulToLaunch(RewriterBase &rewriter, MatmulOp op,
                                  ConfigAttr config, const TargetInfo &target,
                                  StringRef kernelModule,
                                  const KernelTarget &kernelTarget,
                                  bool packUnaligned, KernelBodyBuilder build);

/// The pass driver both lowerings share: `check` every gemm.matmul under
/// `module` first (all problems reported, nothing rewritten if any fails),
/// then rewrite them all with `patterns`. Returns the number of kernels.
FailureOr<unsigned> lowerAllMatmuls(ModuleOp module,
                                    function_ref<LogicalResult(MatmulOp)> check,
                                    RewritePatternSet &&patterns);

/// A kernel `gpu.func` in `gpuModule` whose arguments are `op`'s operands
/// (A and B with the types of `packing`), named after the enclosing function,
/// with a known block size.
gpu::GPUFuncOp createKernelFunc(OpBuilder &b, MatmulOp op,
                                gpu::GPUModuleOp gpuModule, int64_t threads,
                                const OperandPacking &packing);

/// Replaces nothing: emits the packing of `packing`, the gpu.launch_func of
/// `kernel` for `op` (grid.x walks the output tiles, grid.z the batch) and
/// the cleanup, and records the launch facts in the module attribute
/// `gemm.kernels`.
void emitLaunch(OpBuilder &b, MatmulOp op, ConfigAttr config,
                gpu::GPUFuncOp kernel, StringRef chip, int64_t threads,
                int64_t smem, const OperandPacking &packing);

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_GEMMTONVGPU_KERNELBUILDER_H
