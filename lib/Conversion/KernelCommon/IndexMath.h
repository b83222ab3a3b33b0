//===- IndexMath.h - Index arithmetic of the kernel builders ----*- C++ -*-===//
//
// Private to lib/Conversion. The integer arithmetic the kernel builders emit
// for thread, tile and shared-memory coordinates. Every operation is created
// with createOrFold, so that constant operands fold as the IR is built and
// the emitted kernels stay readable and small before canonicalization.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_CONVERSION_KERNELCOMMON_INDEXMATH_H
#define GEMM_LIB_CONVERSION_KERNELCOMMON_INDEXMATH_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::gemm::detail {

/// Index arithmetic at one location. Kernel-side math runs in i32 (`idx`
/// converts to `index` where memrefs are accessed): 64-bit address arithmetic
/// would double the registers it occupies, and GEMM kernels live at the edge
/// of the register file. Host-side math uses `index`.
///
/// IndexMath refers to the caller's builder rather than holding an
/// ImplicitLocOpBuilder, which would be a copy: the kernel builders create
/// one IndexMath and use it inside scf.if / scf.for body callbacks, where the
/// caller's builder has moved into the region and a copy would not follow.
class IndexMath {
public:
  IndexMath(OpBuilder &b, Location loc, bool useIndex = false)
      : b(b), loc(loc),
        type(useIndex ? Type(b.getIndexType()) : Type(b.getI32Type())) {}
  /// A constant of this math's type.
  Value c(int64_t v);
  /// `v` as an `index` (for memref and nvgpu indices).
  Value idx(Value v);
  /// An `index` value in this math's type.
  Value from(Value v);
  Value add(Value x, Value y);
  Value add(Value x, int64_t y) { return add(x, c(y)); }
  Value sub(Value x, Value y);
  Value mul(Value x, Value y);
  Value mul(Value x, int64_t y) { return mul(x, c(y)); }
  /// Unsigned division and remainder (indices are never negative).
  Value div(Value x, Value y);
  Value div(Value x, int64_t y) { return div(x, c(y)); }
  Value rem(Value x, Value y);
  Value rem(Value x, int64_t y) { return rem(x, c(y)); }
  Value ceilDiv(Value x, int64_t y) { return div(add(x, c(y - 1)), y); }
  Value ceilDiv(Value x, Value y) { return div(add(x, sub(y, c(1))), y); }
  Value min(Value x, Value y);
  Value max(Value x, Value y);
  Value xorOp(Value x, Value y);
  Value andOp(Value x, int64_t y);
  Value shr(Value x, int64_t y);
  /// i1: x < y (signed).
  Value lt(Value x, Value y);
  /// i1: x <= y (signed).
  Value le(Value x, Value y);
  Value andI1(Value x, Value y);
  Value select(Value cond, Value x, Value y);

  OpBuilder &b;
  Location loc;
  Type type;
};

} // namespace mlir::gemm::detail

#endif // GEMM_LIB_CONVERSION_KERNELCOMMON_INDEXMATH_H
