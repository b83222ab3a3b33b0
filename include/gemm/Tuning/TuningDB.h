//===- TuningDB.h - The tuning database -------------------------*- C++ -*-===//
//
// Measured best configs, keyed by chip, operand type (+ accumulator), layout,
// epilogue class and shape, read from a JSON file (schema in docs/tuning.md,
// written by python/gemm_mlir/tune.py). Loading checks the schema, the chips
// and every entry's config against the lattice's legality rules; lookups
// return the exact shape bucket when present, else the nearest bucket.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_TUNING_TUNINGDB_H
#define GEMM_TUNING_TUNINGDB_H

#include "gemm/Target/TileConfig.h"
#include "gemm/Tuning/Problem.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace mlir::gemm {

/// The schema name and version this build reads and the tuner writes.
inline constexpr llvm::StringLiteral kTuningDBSchema = "gemm-mlir-tuning-db";
inline constexpr int64_t kTuningDBVersion = 1;

/// One measured best config.
struct TuningEntry {
  std::string arch;     ///< chip, e.g. "sm_90"
  std::string dtype;    ///< GemmProblem::dtypeKey(): f16, bf16, tf32, f32, ...
  std::string acc;      ///< accumulator type
  std::string layout;   ///< nn, nt, tn, tt
  EpilogueClass epilogue = EpilogueClass::none;
  int64_t m = 0, n = 0, k = 0; ///< the measured shape
  TileConfig config;
  double tflops = 0;    ///< measured, informational
};

struct TuningDB {
  std::vector<TuningEntry> entries;
};

/// Parses and checks a database; errors are lower-case messages naming the
/// offending value (and the entry index).
llvm::Expected<TuningDB> parseTuningDB(llvm::StringRef text);
/// Reads `path` and parses it.
llvm::Expected<TuningDB> loadTuningDB(llvm::StringRef path);

/// A database answer.
struct TuningMatch {
  const TuningEntry *entry = nullptr;
  /// The entry's shape bucket equals the problem's.
  bool exact = false;
  /// sum over M, N, K of |log2(bucket(problem)) - log2(bucket(entry))|.
  double distance = 0;
  /// The entry was measured with operands of the problem's alignment (see
  /// lookupTuningDB).
  bool sameAlignment = true;
};

/// Looks `problem` up for `arch`: among the entries with the same arch,
/// dtype, accumulator and layout, those of the problem's epilogue class if
/// any exist, else those of class `none`; of these, those measured with the
/// problem's operand alignment if any exist, else all; of these, the entry
/// whose shape bucket is nearest (exact when equal); ties go to the entry
/// listed first.
///
/// An entry's alignment is its shape's: the tuner measures contiguous
/// operands, whose rows allow 16-byte copies when they are whole 16 bytes
/// (GemmProblem::rowsAllowVectorCopies). 4095 and 4096 share a bucket, but
/// one takes element copies or a pack and the other does not, so their best
/// configs differ. The problem's alignment is `aligned` where known (e.g.
/// from a memref type's strides), else its shape's.
std::optional<TuningMatch> lookupTuningDB(const TuningDB &db,
                                          llvm::StringRef arch,
                                          const GemmProblem &problem,
                                          std::optional<bool> aAligned = {},
                                          std::optional<bool> bAligned = {});

} // namespace mlir::gemm

#endif // GEMM_TUNING_TUNINGDB_H
