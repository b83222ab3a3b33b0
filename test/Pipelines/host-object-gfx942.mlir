// RUN: rm -rf %t && gemm-opt %s --gemm-to-hsaco="chip=gfx942 output-dir=%t host-object=true" -o /dev/null
// RUN: llvm-readelf -h %t/host.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-nm %t/host.o | FileCheck %s --check-prefix=SYMS
// RUN: FileCheck %s --check-prefix=IR < %t/host.ll

// The AMD pipelines share the host lowering and the object: the HSACO is
// embedded and loaded with mgpuModuleLoad (a code object, no JIT); the
// runtime behind the mgpu* symbols is then a HIP one.

// ELF: Type: REL (Relocatable file)

// SYMS-DAG: T _mlir_ciface_scaled
// SYMS-DAG: U mgpuLaunchKernel
// SYMS-DAG: U mgpuModuleLoad
// SYMS-DAG: U mgpuStreamCreate
// SYMS-DAG: U mgpuStreamSynchronize

// IR: @gemm_kernels_binary = internal constant [{{[0-9]+}} x i8] c"\7FELF
// IR: define void @_mlir_ciface_scaled(ptr %0, ptr %1, ptr %2, float %3)
// IR: call ptr @mgpuModuleLoad(ptr @gemm_kernels_binary, i64 {{[0-9]+}})

// A scalar extra (alpha) is passed by value in the C interface.
func.func @scaled(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>,
                  %alpha: f32) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
      outs(%c : memref<?x?xf16>) extras(%alpha : f32) acc(f32)
      attributes {broadcast = [#gemm.bcast<scalar>]} {
  ^bb0(%acc: f32, %cin: f16, %s: f32):
    %0 = arith.mulf %acc, %s : f32
    %1 = arith.truncf %0 : f32 to f16
    gemm.yield %1 : f16
  }
  return
}
