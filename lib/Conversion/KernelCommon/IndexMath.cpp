//===- IndexMath.cpp - index arithmetic of the kernel builders ------------===//
//
// IndexMath: i32 (kernel) or index (host) arithmetic, folded as it is built,
// shared by the NVIDIA and AMD kernel builders.
//
//===----------------------------------------------------------------------===//

#include "IndexMath.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

//===----------------------------------------------------------------------===//
// IndexMath
//===----------------------------------------------------------------------===//

Value IndexMath::c(int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
}
Value IndexMath::idx(Value v) {
  if (v.getType().isIndex())
    return v;
  return b.createOrFold<arith::IndexCastOp>(loc, b.getIndexType(), v);
}
Value IndexMath::from(Value v) {
  if (v.getType() == type)
    return v;
  return b.createOrFold<arith::IndexCastOp>(loc, type, v);
}
Value IndexMath::add(Value x, Value y) {
  return b.createOrFold<arith::AddIOp>(loc, x, y);
}
Value IndexMath::sub(Value x, Value y) {
  return b.createOrFold<arith::SubIOp>(loc, x, y);
}
Value IndexMath::mul(Value x, Value y) {
  return b.createOrFold<arith::MulIOp>(loc, x, y);
}
Value IndexMath::div(Value x, Value y) {
  return b.createOrFold<arith::DivUIOp>(loc, x, y);
}
Value IndexMath::rem(Value x, Value y) {
  return b.createOrFold<arith::RemUIOp>(loc, x, y);
}
Value IndexMath::min(Value x, Value y) {
  return b.createOrFold<arith::MinSIOp>(loc, x, y);
}
Value IndexMath::max(Value x, Value y) {
  return b.createOrFold<arith::MaxSIOp>(loc, x, y);
}
Value IndexMath::xorOp(Value x, Value y) {
  return b.createOrFold<arith::XOrIOp>(loc, x, y);
}
Value IndexMath::andOp(Value x, int64_t y) {
  return b.createOrFold<arith::AndIOp>(loc, x, c(y));
}
Value IndexMath::shr(Value x, int64_t y) {
  return b.createOrFold<arith::ShRUIOp>(loc, x, c(y));
}
Value IndexMath::lt(Value x, Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, x, y);
}
Value IndexMath::le(Value x, Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sle, x, y);
}
Value IndexMath::andI1(Value x, Value y) {
  return b.createOrFold<arith::AndIOp>(loc, x, y);
}
Value IndexMath::select(Value cond, Value x, Value y) {
  return b.createOrFold<arith::SelectOp>(loc, cond, x, y);
}
