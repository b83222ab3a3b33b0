//===- gemm-lds-model.cpp - print the LDS layout model's verdicts ---------===//
//
// For an AMD chip, prints what the LDS bank-conflict model
// (gemm/Utils/MfmaLayout.h) predicts for the staged tiles of a block tile:
// modelled LDS cycles per k-tile for the plain, swizzled and padded layouts
// (with the padding it picks per tile) and the layout the default config
// takes. Defaults to the default configs of every dtype and layout; a
// single problem can be given on the command line.
//
//   gemm-lds-model [--chip=gfx942]
//   gemm-lds-model --chip=gfx942 --dtype=f16 --layout=tn --block=128,128,32
//                  --warps=2,2 --instr=16,16,16
//
//===----------------------------------------------------------------------===//

#include "gemm/Target/Legality.h"
#include "gemm/Utils/MfmaLayout.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <utility>

using namespace mlir::gemm;
namespace cl = llvm::cl;

// Only these options show in --help (not the LLVM libraries' own).
static cl::OptionCategory ldsModelCategory("gemm-lds-model options");

static cl::opt<std::string> chip("chip", cl::desc("AMD chip"),
                                 cl::init("gfx942"), cl::cat(ldsModelCategory));
static cl::opt<std::string> dtype("dtype",
                                  cl::desc("f16, bf16, f32, f64, i8 or f8 "
                                           "(default: all)"),
                                  cl::init(""), cl::cat(ldsModelCategory));
static cl::opt<std::string> layout("layout",
                                   cl::desc("nn, nt, tn or tt (default: all)"),
                                   cl::init(""), cl::cat(ldsModelCategory));
static cl::list<int64_t> block("block", cl::desc("BM,BN,BK"),
                               cl::CommaSeparated, cl::cat(ldsModelCategory));
static cl::list<int64_t> warps("warps", cl::desc("WM,WN"), cl::CommaSeparated,
                               cl::cat(ldsModelCategory));
static cl::list<unsigned> instr("instr", cl::desc("m,n,k"), cl::CommaSeparated,
                                cl::cat(ldsModelCategory));

namespace {
struct DType {
  ElemKind operand, acc;
  unsigned bytes;
  int64_t bm, bn, bk; ///< the default block tile (lib/Tuning/DefaultConfig.cpp)
};
} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(ldsModelCategory);
  cl::ParseCommandLineOptions(argc, argv, "gemm-mlir LDS layout model\n");
  const TargetInfo *target = lookupTarget(chip);
  if (!target || !target->isAMD()) {
    llvm::errs() << "error: unknown AMD chip '" << chip << "'\n";
    return 1;
  }
  std::map<std::string, DType> dtypes = {
      {"f16", {ElemKind::f16, ElemKind::f32, 2, 128, 128, 32}},
      {"bf16", {ElemKind::bf16, ElemKind::f32, 2, 128, 128, 32}},
      {"f32", {ElemKind::f32, ElemKind::f32, 4, 128, 128, 16}},
      {"f64", {ElemKind::f64, ElemKind::f64, 8, 64, 64, 16}},
      {"i8", {ElemKind::i8, ElemKind::i32, 1, 128, 128, 64}},
      {"f8", {ElemKind::f8E4M3FN, ElemKind::f32, 1, 128, 128, 64}}};
  if (!dtype.empty() && !dtypes.count(dtype)) {
    llvm::errs() << "error: unknown dtype '" << dtype << "'\n";
    return 1;
  }
  if ((!block.empty() && block.size() != 3) ||
      (!warps.empty() && warps.size() != 2) ||
      (!instr.empty() && instr.size() != 3)) {
    llvm::errs() << "error: expected --block=BM,BN,BK --warps=WM,WN "
                    "--instr=m,n,k\n";
    return 1;
  }
  static const char *layouts[] = {"nn", "nt", "tn", "tt"};
  if (!layout.empty() && !llvm::is_contained(layouts, layout)) {
    llvm::errs() << "error: unknown layout '" << layout
                 << "' (expected nn, nt, tn or tt)\n";
    return 1;
  }
  // The header goes out with the first row, after the checks.
  bool header = false;
  for (auto &[dname, d] : dtypes) {
    if (!dtype.empty() && dname != dtype)
      continue;
    std::optional<MmaShape> shape;
    for (const MmaShape &s : mfmaLoweredShapes(*target, d.operand))
      if (s.acc == d.acc &&
          (instr.empty() ? s.blocks == 1
                         : s.m == instr[0] && s.n == instr[1] &&
                               s.k == instr[2])) {
        shape = s;
        break;
      }
    if (!shape) {
      if (!dtype.empty()) {
        llvm::errs() << "error: no lowered mfma shape for " << dname << " on "
                     << chip << "\n";
        return 1;
      }
      continue;
    }
    int64_t bm = block.empty() ? d.bm : block[0];
    int64_t bn = block.empty() ? d.bn : block[1];
    int64_t bk = block.empty() ? d.bk : block[2];
    int64_t wm = warps.empty() ? 2 : warps[0];
    int64_t wn = warps.empty() ? 2 : warps[1];
    // The tile the model reads must be one a config could name: positive
    // sizes in bounds, the block divisible by the warps and the warp tile
    // by the instruction (the verifier's structural rules).
    TileConfig config;
    config.kind = InstrKind::mfma;
    config.bm = bm, config.bn = bn, config.bk = bk;
    config.wm = wm, config.wn = wn;
    config.im = shape->m, config.in = shape->n, config.ik = shape->k;
    if (std::string why = checkConfigStructure(config); !why.empty()) {
      llvm::errs() << "error: block " << bm << "x" << bn << "x" << bk
                   << " with warps " << wm << "x" << wn << " and mfma "
                   << shape->m << "x" << shape->n << "x" << shape->k << ": "
                   << why << "\n";
      return 1;
    }
    for (const char *l : layouts) {
      if (!layout.empty() && layout != l)
        continue;
      // nt/tt: A stored K x M; tn/tt: B stored N x K (docs/dialect.md).
      std::string ls = l;
      bool transA = ls == "nt" || ls == "tt";
      bool transB = ls == "tn" || ls == "tt";
      MfmaTileProblem p{*shape,
                        !transA,
                        transB,
                        bm,
                        bn,
                        bk,
                        d.bytes,
                        wm * wn * int64_t(target->warpSize),
                        bm / wm,
                        bn / wn,
                        target->sharedBanks};
      auto pads = mfmaLdsLayouts(p, SmemKind::pad);
      if (!std::exchange(header, true))
        llvm::outs() << "| dtype | layout | block | mfma | plain | swizzle | "
                        "pad (A, B elements) | default |\n"
                        "|---|---|---|---|---|---|---|---|\n";
      llvm::outs() << "| " << dname << " | " << l << " | " << bm << "x" << bn
                   << "x" << bk << " | " << shape->m << "x" << shape->n << "x"
                   << shape->k << " | "
                   << mfmaLdsCycles(p, SmemKind::plain) << " | "
                   << mfmaLdsCycles(p, SmemKind::swizzle) << " | "
                   << mfmaLdsCycles(p, SmemKind::pad) << " (+"
                   << pads.first.padElems << ", +" << pads.second.padElems
                   << ") | " << stringifySmemKind(chooseMfmaLdsKind(p)) << " |\n";
    }
  }
  return 0;
}
