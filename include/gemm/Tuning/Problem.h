//===- Problem.h - A GEMM problem as the tuner sees it ----------*- C++ -*-===//
//
// What config selection needs to know about one GEMM, without an
// MLIRContext: sizes (dynamic sizes replaced by a representative bucket),
// element and accumulator types, operand layout, and the epilogue class. The
// lattice, the cost model and the tuning database are all keyed on it.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_TUNING_PROBLEM_H
#define GEMM_TUNING_PROBLEM_H

#include "gemm/Target/TileConfig.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace mlir::gemm {

/// What the epilogue costs beyond storing the accumulator: `none` (no
/// region), `elementwise` (math on the accumulator, scalars or bias vectors),
/// `reads_c` (reads C or a full M x N extra such as a residual).
enum class EpilogueClass { none, elementwise, reads_c };

/// One GEMM problem: its signature (types and layout, the part legality
/// depends on) and what the cost model and the tuning database add: sizes,
/// C's type, the epilogue class and whether f32 may run as tf32.
struct GemmProblem : GemmSignature {
  int64_t m = 1, n = 1, k = 1, batch = 1;
  /// Storage type of C / D.
  ElemKind c = ElemKind::f16;
  EpilogueClass epilogue = EpilogueClass::none;
  /// f32 operands may run on tf32 tensor cores.
  bool allowTf32 = false;

  double flops() const { return 2.0 * m * n * k * batch; }
  /// Whether A (B), stored contiguous and row-major from a 16-byte aligned
  /// address, allows 16-byte copies: its contiguous dimension (A: K, or M
  /// when A is K x M; B: N, or K when B is N x K) times the element size is
  /// a whole number of 16 bytes. What the cost model assumes (it prices
  /// element copies otherwise) and the alignment gemm-tune-space's
  /// dispatch mode chooses with unless told.
  bool rowsAllowVectorCopies(bool operandB) const;
  /// Tuning-database spelling of the operand type: the storage type, except
  /// "tf32" for f32 operands allowed on tf32 tensor cores.
  std::string dtypeKey() const;
};

/// The size a dynamic dimension is assumed to have when choosing a config.
inline constexpr int64_t kDynamicDimBucket = 4096;

/// The shape bucket of one dimension: the power of two nearest in log2
/// (4095 and 4099 -> 4096, 11008 -> 8192, 14336 -> 16384).
int64_t shapeBucket(int64_t dim);

/// Parses a layout name; false if unknown.
bool parseLayout(llvm::StringRef name, bool &transA, bool &transB);
std::optional<EpilogueClass> parseEpilogueClass(llvm::StringRef name);
llvm::StringRef stringifyEpilogueClass(EpilogueClass epilogue);
/// Parses an element kind name (f16, bf16, f32, tf32, f64, i8, i32, ...).
std::optional<ElemKind> parseElemKind(llvm::StringRef name);

} // namespace mlir::gemm

#endif // GEMM_TUNING_PROBLEM_H
