//===- Problem.cpp - A GEMM problem as the tuner sees it ------------------===//

#include "gemm/Tuning/Problem.h"
#include "gemm/Target/TargetInfo.h"
#include <cmath>

using namespace mlir::gemm;

std::string GemmProblem::dtypeKey() const {
  if (a == ElemKind::f32 && allowTf32)
    return "tf32";
  return stringifyElemKind(a).str();
}

bool GemmProblem::rowsAllowVectorCopies(bool operandB) const {
  int64_t contiguous = operandB ? (transB ? k : n) : (transA ? m : k);
  // (contiguous % 16) first: no overflow for any size.
  return (contiguous % 16) * int64_t(elemBytes(a)) % 16 == 0;
}

int64_t mlir::gemm::shapeBucket(int64_t dim) {
  if (dim <= 1)
    return 1;
  int exponent = static_cast<int>(std::lround(std::log2(double(dim))));
  return int64_t(1) << std::min(exponent, 62);
}

bool mlir::gemm::parseLayout(llvm::StringRef name, bool &transA,
                             bool &transB) {
  if (name.size() != 2 || (name[0] != 'n' && name[0] != 't') ||
      (name[1] != 'n' && name[1] != 't'))
    return false;
  // The layouts of docs/dialect.md: A is K x M for nt and tt, B is N x K for tn and tt.
  transA = name[1] == 't';
  transB = name[0] == 't';
  return true;
}

std::optional<EpilogueClass>
mlir::gemm::parseEpilogueClass(llvm::StringRef name) {
  if (name == "none")
    return EpilogueClass::none;
  if (name == "elementwise")
    return EpilogueClass::elementwise;
  if (name == "reads_c")
    return EpilogueClass::reads_c;
  return std::nullopt;
}

llvm::StringRef mlir::gemm::stringifyEpilogueClass(EpilogueClass epilogue) {
  switch (epilogue) {
  case EpilogueClass::none:
    return "none";
  case EpilogueClass::elementwise:
    return "elementwise";
  case EpilogueClass::reads_c:
    return "reads_c";
  }
  return "none";
}

std::optional<ElemKind> mlir::gemm::parseElemKind(llvm::StringRef name) {
  for (ElemKind k : {ElemKind::f16, ElemKind::bf16, ElemKind::f32,
                     ElemKind::tf32, ElemKind::f64, ElemKind::i8,
                     ElemKind::i32, ElemKind::f8E4M3FN, ElemKind::f8E5M2})
    if (stringifyElemKind(k) == name)
      return k;
  return std::nullopt;
}
