//===- GemmAttrs.td - gemm dialect attributes and enums ----*- tablegen -*-===//
//
// Enums (layout, instruction kind, shared-memory layout, rasterization,
// epilogue operand broadcast) and the `#gemm.config` / `#gemm.target`
// attributes.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_ATTRS_TD
#define GEMM_ATTRS_TD

include "gemm/Dialect/Gemm/IR/GemmDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Gemm_Layout : I32EnumAttr<"Layout", "operand storage layout", [
    I32EnumAttrCase<"nn", 0>, I32EnumAttrCase<"nt", 1>,
    I32EnumAttrCase<"tn", 2>, I32EnumAttrCase<"tt", 3>]> {
  let cppNamespace = "::mlir::gemm";
  let description = [{
    Letter 1 describes A, letter 2 describes B. `n`: A is M x K / B is K x N;
    `t`: A is K x M / B is N x K. `tn` has both operands K-contiguous, the
    layout tensor cores consume natively.
  }];
}

def Gemm_Kind : I32EnumAttr<"Kind", "implementation kind", [
    I32EnumAttrCase<"simt", 0>, I32EnumAttrCase<"mma_sync", 1>,
    I32EnumAttrCase<"wgmma", 2>, I32EnumAttrCase<"mfma", 3>,
    I32EnumAttrCase<"gemv", 4>]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

def Gemm_SmemLayout : I32EnumAttr<"SmemLayout", "shared-memory tile layout", [
    I32EnumAttrCase<"plain", 0>, I32EnumAttrCase<"pad", 1>,
    I32EnumAttrCase<"swizzle", 2>]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

def Gemm_Raster : I32EnumAttr<"Raster", "block rasterization order", [
    I32EnumAttrCase<"row", 0>, I32EnumAttrCase<"column", 1>]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

def Gemm_Reduction : I32EnumAttr<"Reduction",
    "how the K slices of a split-K kernel are added", [
    I32EnumAttrCase<"workspace", 0>, I32EnumAttrCase<"cluster", 1>,
    I32EnumAttrCase<"fixup", 2>]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

def Gemm_Load : I32EnumAttr<"Load",
    "how operand tiles travel from global to shared memory", [
    I32EnumAttrCase<"cp_async", 0>, I32EnumAttrCase<"tma", 1>,
    I32EnumAttrCase<"tma_ws", 2>]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

def Gemm_Schedule : I32EnumAttr<"Schedule",
    "which output tiles a block computes", [
    I32EnumAttrCase<"tile", 0>, I32EnumAttrCase<"pingpong", 1>,
    I32EnumAttrCase<"persistent", 2>]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

def Gemm_Broadcast : I32EnumAttr<"Broadcast",
    "how an epilogue operand is indexed", [
    I32EnumAttrCase<"scalar", 0>, I32EnumAttrCase<"row", 1>,
    I32EnumAttrCase<"col", 2>, I32EnumAttrCase<"full", 3>]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
  let description = [{
    `scalar`: a scalar value, the same for every element; `row`: a vector of
    M values indexed by the output row (bias per row); `col`: a vector of N
    values indexed by the output column (bias per column, the usual linear
    layer bias); `full`: an M x N (optionally batched) tensor such as a
    residual.
  }];
}

def Gemm_BroadcastAttr : EnumAttr<Gemm_Dialect, Gemm_Broadcast, "bcast"> {
  let assemblyFormat = "`<` $value `>`";
}

def Gemm_BroadcastArrayAttr
    : TypedArrayAttrBase<Gemm_BroadcastAttr, "epilogue operand broadcasts">;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class Gemm_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Gemm_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

/// A shape written as a bracketed list, `[128, 128, 32]`.
class Gemm_ShapeParameter<string desc> : ArrayRefParameter<"int64_t", desc> {
  let parser = [{ ::mlir::gemm::parseShapeList($_parser) }];
  let printer = [{ ::mlir::gemm::printShapeList($_printer, $_self) }];
}

def Gemm_ConfigAttr : Gemm_Attr<"Config", "config"> {
  let summary = "how a gemm.matmul is implemented";
  let description = [{
    The implementation choices of one GEMM kernel:

    - `kind`: `simt` (FFMA / DP4A), `mma_sync` (Ampere-style warp MMA),
      `wgmma` (Hopper warpgroup MMA), `mfma` (AMD matrix cores), `gemv`
      (no shared memory: each warp streams R = BN / warps[1] rows of a
      K-contiguous B with 16-byte loads and multiplies them in f32 FMAs
      with the BM rows of A; for M of a few rows, NVIDIA only). For
      `gemv`, `block` is `[BM, BN, BK]` with BK the K a warp covers per
      iteration (32 lanes x 16 bytes x U), `warps` is `[1, W]`, `instr`
      is `[1, 1, 16 / element bytes]` and `stages` is 1. gemv on mma.sync
      (`instr = [8, 16, 16]`) also takes `stages = 2` with a B stored
      N x K (tn, tt): its 16-byte loads of the next iteration are issued
      before this iteration's products (a double buffer in registers).
    - `block`: the block tile `[BM, BN, BK]`.
    - `warps`: the warp grid `[WM, WN]` over the block tile; each warp owns a
      `BM/WM x BN/WN` warp tile. For `wgmma` the grid counts warpgroups (4
      warps each), which own the tile together.
    - `instr`: the instruction shape `[m, n, k]` (for `simt`, the per-thread
      tile `[TM, TN, 1]`).
    - `stages`: shared-memory pipeline depth (1 = no multi-buffering).
    - `smem`: shared-memory tile layout (`plain`, `pad`, `swizzle`).
    - `raster`, `group`: block rasterization order and group size (swizzled
      launch order for L2 reuse); `group = 1` is plain row/column order.
    - `split_k`: number of K slices computed by separate blocks.
    - `reduction`: how the slices' partial sums meet (split-K only):
      `workspace` (default: an accumulator-type workspace in global memory
      and a reduction kernel) or `cluster` (the slices of a tile form one
      thread-block cluster and add their partial sums through distributed
      shared memory in the GEMM kernel itself; sm_90 and later, at most
      8 slices) or `fixup` (only the tiles past the grid's last whole wave
      are split, into at most `split_k` slices chosen at launch; each slice
      writes its partial sums to a workspace, and the last slice of a tile
      to finish adds them in slice order and runs the epilogue, in the
      GEMM kernel itself; `kind = wgmma`, `schedule = tile`, no
      `multicast`).
    - `load`: how the operand tiles reach shared memory: `cp_async`
      (default: every thread issues 16-byte cp.async copies, or element
      copies for unaligned operands) or `tma` (one thread issues
      cp.async.bulk.tensor copies through tensor maps the host builds, each
      stage completing on an mbarrier; `wgmma` on sm_90a only). A `tma`
      kernel takes the tensor maps of A and B as two more arguments and
      copies element by element when the host passes null maps (operands TMA
      cannot address: unaligned base or rows). `tma_ws`: the same loads
      issued by a producer warpgroup of its own (warp specialization: 128
      more threads, `setmaxnreg` moves registers to the consumer
      warpgroups), stages handed back through mbarriers, no block-wide
      barrier in the main loop.
    - `schedule`: which output tiles a block computes. `tile` (default): one
      block per output tile. `pingpong` (with `load = tma_ws`): a persistent
      block of two consumer teams (each the `warps` grid) and the producer,
      launched once per SM at most; it walks the output tiles (and
      batches) from its block id in steps of the grid, the teams taking
      turns: one team's epilogue runs while the other's main loop keeps the
      tensor cores busy, and the producer fills the stages of the next tile
      during both. `persistent` (with `load = tma_ws`): the same persistent
      walk with one team (all compute warpgroups on each tile), the
      producer filling the next tile's stages during the epilogue.
    - `multicast`: `2` launches the blocks in thread-block clusters of two
      consecutive blocks (with `load = tma_ws`, `schedule = tile`, no
      split-K; sm_90a). Where the two blocks' tiles share their tile column
      (tile rows 2i and 2i + 1 of a row raster with an even `group`), each
      producer loads its own tile of A and half of the shared tile of B,
      which TMA multicasts into both blocks' shared memory: the pair reads
      B from L2 once. A stage is refilled once both blocks are done with
      it (the compute warpgroups of both blocks arrive on each block's
      "empty" barrier of the stage). Pairs whose tiles do not share a
      column, and a last block past the tiles, load on their own. `1`
      (default): no clusters.

    Example:
    ```mlir
    #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2],
                 instr = [16, 8, 16], stages = 4, smem = swizzle>
    ```
  }];
  let parameters = (ins
    EnumParameter<Gemm_Kind>:$kind,
    Gemm_ShapeParameter<"block tile [BM, BN, BK]">:$block,
    Gemm_ShapeParameter<"warp grid [WM, WN]">:$warps,
    Gemm_ShapeParameter<"instruction shape [m, n, k]">:$instr,
    DefaultValuedParameter<"int64_t", "2">:$stages,
    DefaultValuedParameter<"::mlir::gemm::SmemLayout",
        "::mlir::gemm::SmemLayout::swizzle">:$smem,
    DefaultValuedParameter<"::mlir::gemm::Raster",
        "::mlir::gemm::Raster::row">:$raster,
    DefaultValuedParameter<"int64_t", "1">:$group,
    DefaultValuedParameter<"int64_t", "1">:$split_k,
    DefaultValuedParameter<"::mlir::gemm::Reduction",
        "::mlir::gemm::Reduction::workspace">:$reduction,
    DefaultValuedParameter<"::mlir::gemm::Load",
        "::mlir::gemm::Load::cp_async">:$load,
    DefaultValuedParameter<"::mlir::gemm::Schedule",
        "::mlir::gemm::Schedule::tile">:$schedule,
    DefaultValuedParameter<"int64_t", "1">:$multicast
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getBM() const { return getBlock()[0]; }
    int64_t getBN() const { return getBlock()[1]; }
    int64_t getBK() const { return getBlock()[2]; }
    /// Warp tile M and N extents.
    int64_t getWarpTileM() const { return getBM() / getWarps()[0]; }
    int64_t getWarpTileN() const { return getBN() / getWarps()[1]; }
    /// Number of warps (wavefronts on AMD) per block; for wgmma the grid
    /// counts warpgroups of 4 warps.
    int64_t getNumWarps() const {
      return getWarps()[0] * getWarps()[1] *
             (getKind() == ::mlir::gemm::Kind::wgmma ? 4 : 1);
    }
    /// Consumer teams of a block: 2 with `schedule = pingpong` (each team
    /// the `warps` grid, on its own output tiles), else 1.
    int64_t getTeams() const {
      return getSchedule() == ::mlir::gemm::Schedule::pingpong ? 2 : 1;
    }
    /// Warps per block: the compute warps of every team plus, with
    /// `load = tma_ws`, the producer warpgroup (the last 4 warps of the
    /// block).
    int64_t getNumBlockWarps() const {
      return getTeams() * getNumWarps() +
             (getLoad() == ::mlir::gemm::Load::tma_ws ? 4 : 0);
    }
  }];
}

def Gemm_TargetAttr : Gemm_Attr<"Target", "target"> {
  let summary = "a chip of the gemm target table";
  let description = [{
    Names a chip (`sm_80`, `sm_86`, `sm_89`, `sm_90`, `sm_90a`, `gfx90a`,
    `gfx942`, `gfx950`). Attached to a module as `gemm.target`, it makes the
    verifiers check every `#gemm.config` in it against the chip's limits.

    ```mlir
    module attributes {gemm.target = #gemm.target<"sm_90">} { ... }
    ```
  }];
  let parameters = (ins StringRefParameter<"chip name">:$chip);
  let assemblyFormat = "`<` $chip `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The table entry; never null for a verified attribute.
    const ::mlir::gemm::TargetInfo *getInfo() const;
  }];
}

#endif // GEMM_ATTRS_TD
