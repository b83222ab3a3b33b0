//===- Passes.h - gemm conversion passes ------------------------*- C++ -*-===//

#ifndef GEMM_CONVERSION_PASSES_H
#define GEMM_CONVERSION_PASSES_H

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::gemm {

#define GEN_PASS_DECL
#include "gemm/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gemm/Conversion/Passes.h.inc"

} // namespace mlir::gemm

#endif // GEMM_CONVERSION_PASSES_H
