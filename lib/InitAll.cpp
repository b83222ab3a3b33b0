//===- InitAll.cpp - register gemm-mlir dialects and passes ---------------===//
//
// The registration entry points of gemm/InitAll.h: what an embedding
// compiler registers to parse gemm modules and run our passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "gemm/InitAll.h"
#include "gemm/Conversion/LinalgToGemm/LinalgToGemm.h"
#include "gemm/Conversion/Passes.h"
#include "gemm/Dialect/Gemm/IR/GemmDialect.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"
#include "gemm/Pipelines/Pipelines.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVM/ROCDL/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"

void mlir::gemm::registerGemmDialect(DialectRegistry &registry) {
  registry.insert<GemmDialect>();
  // The input of a gemm module, the kernels and the host code.
  registry.insert<affine::AffineDialect, amdgpu::AMDGPUDialect,
                  arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, gpu::GPUDialect, index::IndexDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  nvgpu::NVGPUDialect, NVVM::NVVMDialect, ROCDL::ROCDLDialect,
                  scf::SCFDialect, ub::UBDialect, vector::VectorDialect>();

  // A linalg input (gemm-from-linalg, the pipelines' linalg front): linalg,
  // tensor and bufferization, with the bufferization models of its ops.
  registerGemmFromLinalgDependencies(registry);

  // Conversion to LLVM, collected from the loaded dialects by gpu-to-llvm
  // and convert-gpu-to-nvvm/rocdl.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  gpu::registerConvertGpuToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);

  // The GPU targets gpu-module-to-binary serializes with.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  ROCDL::registerROCDLTargetInterfaceExternalModels(registry);

  // Translation to LLVM IR: the kernels (serialization) and the host module
  // with its embedded binaries (gpu.binary's offloading handler).
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
}

void mlir::gemm::registerGemmPasses() {
  registerGemmTransformsPasses();
  registerGemmConversionPasses();
}

void mlir::gemm::registerAllGemmDialects(DialectRegistry &registry) {
  registerGemmDialect(registry);
}

void mlir::gemm::registerAllGemmPasses() {
  registerGemmPasses();
  registerGemmPipelines();
}
