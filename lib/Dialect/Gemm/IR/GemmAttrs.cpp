//===- GemmAttrs.cpp - gemm dialect attributes ----------------------------===//
//
// `#gemm.config` and `#gemm.target`: parsing (generated), structural
// verification (through gemm/Target/Legality.h), and the conversions to the
// context-free TileConfig.
//
//===----------------------------------------------------------------------===//

#include "gemm/Dialect/Gemm/IR/GemmAttrs.h"
#include "gemm/Dialect/Gemm/IR/GemmDialect.h"
#include "gemm/Target/Legality.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::gemm;

#include "gemm/Dialect/Gemm/IR/GemmEnums.cpp.inc"

FailureOr<SmallVector<int64_t>> mlir::gemm::parseShapeList(AsmParser &parser) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(values.emplace_back());
      }))
    return failure();
  return values;
}

void mlir::gemm::printShapeList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

#define GET_ATTRDEF_CLASSES
#include "gemm/Dialect/Gemm/IR/GemmAttrs.cpp.inc"

void GemmDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "gemm/Dialect/Gemm/IR/GemmAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Type helpers
//===----------------------------------------------------------------------===//

std::optional<ElemKind> mlir::gemm::getElemKind(Type type) {
  if (type.isF16())
    return ElemKind::f16;
  if (type.isBF16())
    return ElemKind::bf16;
  if (type.isF32())
    return ElemKind::f32;
  if (type.isF64())
    return ElemKind::f64;
  if (type.isSignlessInteger(8))
    return ElemKind::i8;
  if (type.isSignlessInteger(32))
    return ElemKind::i32;
  if (isa<Float8E4M3FNType>(type))
    return ElemKind::f8E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return ElemKind::f8E5M2;
  return std::nullopt;
}

std::optional<ElemKind> mlir::gemm::getOperandKind(Type type, Kind kind) {
  std::optional<ElemKind> k = getElemKind(type);
  if (!k)
    return std::nullopt;
  return instrOperandKind(*k, toInstrKind(kind));
}

InstrKind mlir::gemm::toInstrKind(Kind kind) {
  switch (kind) {
  case Kind::simt:
    return InstrKind::simt;
  case Kind::mma_sync:
    return InstrKind::mma_sync;
  case Kind::wgmma:
    return InstrKind::wgmma;
  case Kind::mfma:
    return InstrKind::mfma;
  case Kind::gemv:
    return InstrKind::gemv;
  }
  llvm_unreachable("unknown kind");
}

TargetAttr mlir::gemm::lookupTargetAttr(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto target = op->getAttrOfType<TargetAttr>(kTargetAttrName))
      return target;
  return {};
}

//===----------------------------------------------------------------------===//
// TileConfig conversions
//===----------------------------------------------------------------------===//

/// The TileConfig of #gemm.config's parameters (entry counts checked).
static TileConfig makeTileConfig(Kind kind, ArrayRef<int64_t> block,
                                 ArrayRef<int64_t> warps,
                                 ArrayRef<int64_t> instr, int64_t stages,
                                 SmemLayout smem, Raster raster, int64_t group,
                                 int64_t splitK, Reduction reduction, Load load,
                                 Schedule schedule, int64_t multicast) {
  TileConfig t;
  t.kind = toInstrKind(kind);
  t.bm = block[0], t.bn = block[1], t.bk = block[2];
  t.wm = warps[0], t.wn = warps[1];
  t.im = instr[0], t.in = instr[1], t.ik = instr[2];
  t.stages = stages;
  t.smem = toSmemKind(smem);
  t.rasterColumn = raster == Raster::column;
  t.group = group;
  t.splitK = splitK;
  t.clusterReduce = reduction == Reduction::cluster;
  t.fixupReduce = reduction == Reduction::fixup;
  t.tmaLoad = load == Load::tma || load == Load::tma_ws;
  t.producerWarp = load == Load::tma_ws;
  t.pingpong = schedule == Schedule::pingpong;
  t.persistent = schedule != Schedule::tile;
  t.multicast = multicast;
  return t;
}

TileConfig mlir::gemm::toTileConfig(ConfigAttr config) {
  return makeTileConfig(
      config.getKind(), config.getBlock(), config.getWarps(), config.getInstr(),
      config.getStages(), config.getSmem(), config.getRaster(),
      config.getGroup(), config.getSplitK(), config.getReduction(),
      config.getLoad(), config.getSchedule(), config.getMulticast());
}

SmemKind mlir::gemm::toSmemKind(SmemLayout layout) {
  switch (layout) {
  case SmemLayout::plain:
    return SmemKind::plain;
  case SmemLayout::pad:
    return SmemKind::pad;
  case SmemLayout::swizzle:
    return SmemKind::swizzle;
  }
  llvm_unreachable("unknown smem layout");
}

ConfigAttr mlir::gemm::getConfigAttr(MLIRContext *ctx, const TileConfig &t) {
  Kind kind = Kind::simt;
  switch (t.kind) {
  case InstrKind::simt:
    kind = Kind::simt;
    break;
  case InstrKind::mma_sync:
    kind = Kind::mma_sync;
    break;
  case InstrKind::wgmma:
    kind = Kind::wgmma;
    break;
  case InstrKind::mfma:
    kind = Kind::mfma;
    break;
  case InstrKind::gemv:
    kind = Kind::gemv;
    break;
  }
  SmemLayout smem = t.smem == SmemKind::plain ? SmemLayout::plain
                    : t.smem == SmemKind::pad ? SmemLayout::pad
                                              : SmemLayout::swizzle;
  return ConfigAttr::get(
      ctx, kind, {t.bm, t.bn, t.bk}, {t.wm, t.wn}, {t.im, t.in, t.ik}, t.stages,
      smem, t.rasterColumn ? Raster::column : Raster::row, t.group, t.splitK,
      t.clusterReduce ? Reduction::cluster
      : t.fixupReduce ? Reduction::fixup
                      : Reduction::workspace,
      t.producerWarp ? Load::tma_ws
      : t.tmaLoad    ? Load::tma
                     : Load::cp_async,
      t.pingpong     ? Schedule::pingpong
      : t.persistent ? Schedule::persistent
                     : Schedule::tile,
      t.multicast);
}

//===----------------------------------------------------------------------===//
// ConfigAttr
//===----------------------------------------------------------------------===//

LogicalResult ConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 Kind kind, ArrayRef<int64_t> block,
                                 ArrayRef<int64_t> warps,
                                 ArrayRef<int64_t> instr, int64_t stages,
                                 SmemLayout smem, Raster raster, int64_t group,
                                 int64_t splitK, Reduction reduction, Load load,
                                 Schedule schedule, int64_t multicast) {
  for (auto [name, values, n, meaning] :
       {std::tuple<StringRef, ArrayRef<int64_t>, size_t, StringRef>{
            "block", block, 3, "BM, BN, BK"},
        {"warps", warps, 2, "WM, WN"},
        {"instr", instr, 3, "m, n, k"}})
    if (values.size() != n)
      return emitError() << "expected '" << name << "' to have " << n
                         << " entries (" << meaning << "), got "
                         << values.size();
  // The rest is the structural part of gemm/Target/Legality.h.
  if (std::string error = checkConfigStructure(
          makeTileConfig(kind, block, warps, instr, stages, smem, raster, group,
                         splitK, reduction, load, schedule, multicast));
      !error.empty())
    return emitError() << error;
  return success();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef chip) {
  if (!lookupTarget(chip))
    return emitError() << "unknown target chip '" << chip << "' (known: "
                       << knownTargetNames() << ")";
  return success();
}

const TargetInfo *TargetAttr::getInfo() const { return lookupTarget(getChip()); }
