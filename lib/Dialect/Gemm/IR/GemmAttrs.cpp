//===- GemmAttrs.cpp - gemm dialect attributes ----------------------------===//
//
// `#gemm.config` and `#gemm.target`: parsing (generated), structural
// verification, and the resource estimates the per-target checks use.
//
//===----------------------------------------------------------------------===//

#include "gemm/Dialect/Gemm/IR/GemmAttrs.h"
#include "gemm/Dialect/Gemm/IR/GemmDialect.h"
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
  if (k == ElemKind::f32 && (kind == Kind::mma_sync || kind == Kind::wgmma))
    return ElemKind::tf32;
  return k;
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
// Resource estimates
//===----------------------------------------------------------------------===//

TileConfig mlir::gemm::toTileConfig(ConfigAttr config) {
  TileConfig t;
  t.kind = toInstrKind(config.getKind());
  t.bm = config.getBM();
  t.bn = config.getBN();
  t.bk = config.getBK();
  t.wm = config.getWarps()[0];
  t.wn = config.getWarps()[1];
  t.im = config.getInstr()[0];
  t.in = config.getInstr()[1];
  t.ik = config.getInstr()[2];
  t.stages = config.getStages();
  t.smem = toSmemKind(config.getSmem());
  t.rasterColumn = config.getRaster() == Raster::column;
  t.group = config.getGroup();
  t.splitK = config.getSplitK();
  return t;
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
  }
  SmemLayout smem = t.smem == SmemKind::plain ? SmemLayout::plain
                    : t.smem == SmemKind::pad ? SmemLayout::pad
                                              : SmemLayout::swizzle;
  return ConfigAttr::get(ctx, kind, {t.bm, t.bn, t.bk}, {t.wm, t.wn},
                         {t.im, t.in, t.ik}, t.stages, smem,
                         t.rasterColumn ? Raster::column : Raster::row,
                         t.group, t.splitK);
}

int64_t mlir::gemm::estimateSharedMemory(ConfigAttr config,
                                         unsigned elemBytes) {
  return estimateSharedMemory(toTileConfig(config), elemBytes);
}

int64_t mlir::gemm::estimateRegisters(ConfigAttr config,
                                      unsigned operandBytes, unsigned accBytes,
                                      unsigned warpSize) {
  return estimateRegisters(toTileConfig(config), operandBytes, accBytes,
                           warpSize);
}

//===----------------------------------------------------------------------===//
// ConfigAttr
//===----------------------------------------------------------------------===//

LogicalResult ConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 Kind kind, ArrayRef<int64_t> block,
                                 ArrayRef<int64_t> warps,
                                 ArrayRef<int64_t> instr, int64_t stages,
                                 SmemLayout smem, Raster raster, int64_t group,
                                 int64_t splitK) {
  auto checkSize = [&](StringRef name, ArrayRef<int64_t> values, size_t n,
                       StringRef meaning) -> LogicalResult {
    if (values.size() != n)
      return emitError() << "expected '" << name << "' to have " << n
                         << " entries (" << meaning << "), got "
                         << values.size();
    for (int64_t v : values)
      if (v <= 0)
        return emitError() << "expected '" << name
                           << "' entries to be positive, got " << v;
    return success();
  };
  if (failed(checkSize("block", block, 3, "BM, BN, BK")) ||
      failed(checkSize("warps", warps, 2, "WM, WN")) ||
      failed(checkSize("instr", instr, 3, "m, n, k")))
    return failure();
  if (stages < 1 || stages > 8)
    return emitError() << "expected 'stages' in [1, 8], got " << stages;
  if (group < 1)
    return emitError() << "expected 'group' to be positive, got " << group;
  if (splitK < 1)
    return emitError() << "expected 'split_k' to be positive, got " << splitK;
  if (block[0] % warps[0] != 0)
    return emitError() << "block tile M (" << block[0]
                       << ") is not divisible by the warp grid M ("
                       << warps[0] << ")";
  if (block[1] % warps[1] != 0)
    return emitError() << "block tile N (" << block[1]
                       << ") is not divisible by the warp grid N ("
                       << warps[1] << ")";
  int64_t wtm = block[0] / warps[0], wtn = block[1] / warps[1];
  if (wtm % instr[0] != 0)
    return emitError() << "warp tile M (" << wtm
                       << ") is not a multiple of the instruction M ("
                       << instr[0] << ")";
  if (wtn % instr[1] != 0)
    return emitError() << "warp tile N (" << wtn
                       << ") is not a multiple of the instruction N ("
                       << instr[1] << ")";
  if (block[2] % instr[2] != 0)
    return emitError() << "block tile K (" << block[2]
                       << ") is not a multiple of the instruction K ("
                       << instr[2] << ")";
  if (kind == Kind::simt && instr[2] != 1)
    return emitError() << "simt per-thread tile must have k = 1, got "
                       << instr[2];
  if (kind == Kind::wgmma && instr[0] != 64)
    return emitError() << "wgmma instruction M must be 64, got " << instr[0];
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
