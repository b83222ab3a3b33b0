//===- GemmOps.h - gemm dialect operations ----------------------*- C++ -*-===//
//
// gemm.matmul and gemm.yield.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DIALECT_GEMM_IR_GEMMOPS_H
#define GEMM_DIALECT_GEMM_IR_GEMMOPS_H

#include "gemm/Dialect/Gemm/IR/GemmAttrs.h"
#include "gemm/Dialect/Gemm/IR/GemmDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "gemm/Dialect/Gemm/IR/GemmOps.h.inc"

#endif // GEMM_DIALECT_GEMM_IR_GEMMOPS_H
