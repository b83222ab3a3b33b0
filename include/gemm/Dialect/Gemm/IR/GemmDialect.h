//===- GemmDialect.h - gemm dialect declaration -----------------*- C++ -*-===//
//
// The gemm dialect: GEMM problems with layouts, epilogues and configurations.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DIALECT_GEMM_IR_GEMMDIALECT_H
#define GEMM_DIALECT_GEMM_IR_GEMMDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dialect.h"

#include "gemm/Dialect/Gemm/IR/GemmOpsDialect.h.inc"

#endif // GEMM_DIALECT_GEMM_IR_GEMMDIALECT_H
