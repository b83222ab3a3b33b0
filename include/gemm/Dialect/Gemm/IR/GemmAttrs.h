//===- GemmAttrs.h - gemm dialect attributes --------------------*- C++ -*-===//
//
// Enums and attributes of the gemm dialect, and the conversions between MLIR
// types and the target table's element kinds.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DIALECT_GEMM_IR_GEMMATTRS_H
#define GEMM_DIALECT_GEMM_IR_GEMMATTRS_H

#include "gemm/Target/TargetInfo.h"
#include "gemm/Target/TileConfig.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

#include "mlir/IR/DialectImplementation.h"

#include "gemm/Dialect/Gemm/IR/GemmEnums.h.inc"

namespace mlir::gemm {
/// Parses `[d0, d1, ...]` (the shapes of #gemm.config).
FailureOr<SmallVector<int64_t>> parseShapeList(AsmParser &parser);
/// Prints `[d0, d1, ...]`.
void printShapeList(AsmPrinter &printer, ArrayRef<int64_t> values);
} // namespace mlir::gemm

#define GET_ATTRDEF_CLASSES
#include "gemm/Dialect/Gemm/IR/GemmAttrs.h.inc"

namespace mlir::gemm {

/// Maps an MLIR element type to the target table's element kind; nullopt for
/// types no GEMM instruction takes.
std::optional<ElemKind> getElemKind(Type type);

/// The operand element kind an instruction of `kind` sees for `type`: f32
/// operands run as tf32 on tensor cores (mma_sync, wgmma) and as f32 on
/// SIMT/MFMA.
std::optional<ElemKind> getOperandKind(Type type, Kind kind);

/// Converts the dialect's kind enum to the target table's.
InstrKind toInstrKind(Kind kind);

/// The `gemm.target` attribute governing `op`: on the op or the nearest
/// ancestor; null if none.
TargetAttr lookupTargetAttr(Operation *op);

/// Name of the attribute that attaches a `#gemm.target` to an op or module.
inline constexpr llvm::StringLiteral kTargetAttrName = "gemm.target";
/// Name of the module attribute listing generated kernels' launch facts
/// (written by the lowerings, read by gemm-write-artifacts).
inline constexpr llvm::StringLiteral kKernelsAttrName = "gemm.kernels";

/// The context-free form of `config` (gemm/Target/TileConfig.h).
TileConfig toTileConfig(ConfigAttr config);
/// The context-free form of a `smem` value.
SmemKind toSmemKind(SmemLayout layout);
/// The `#gemm.config` of a context-free config.
ConfigAttr getConfigAttr(MLIRContext *ctx, const TileConfig &config);


} // namespace mlir::gemm

#endif // GEMM_DIALECT_GEMM_IR_GEMMATTRS_H
