// RUN: gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_90" | FileCheck %s --check-prefixes=CHECK,NV --implicit-check-not=gpu.alloc --implicit-check-not=gpu.dealloc --implicit-check-not=unrealized_conversion_cast
// RUN: gemm-opt --verify-roundtrip %s --gemm-to-amdgcn="chip=gfx942" | FileCheck %s --check-prefixes=CHECK,AMD --implicit-check-not=gpu.alloc --implicit-check-not=gpu.dealloc --implicit-check-not=unrealized_conversion_cast

// The host side of the pipelines lowers completely to the LLVM dialect, so
// that LLVM IR translation (mlir-translate --mlir-to-llvmir, or
// host-object=true) accepts it: gpu.alloc / gpu.dealloc of the packing and
// split-K workspaces become mgpuMemAlloc / mgpuMemFree on a stream (a
// synchronous gpu.alloc survived gpu-to-llvm with index casts), the
// launches run on that stream, which is synchronized before the block ends,
// and the public function gets its C interface (_mlir_ciface_linear, memrefs
// as pointers to descriptors). The same host code for NVIDIA and AMD.

// CHECK-LABEL: llvm.func @linear(
// CHECK-SAME: attributes {llvm.emit_c_interface}

// Packing A and B (K unaligned at run time) into workspaces.
// CHECK: %[[PACK:[0-9]+]] = llvm.call @mgpuStreamCreate()
// CHECK: llvm.call @mgpuMemAlloc(%{{.*}}, %[[PACK]], %{{.*}}) : (i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK: gpu.launch_func <%[[PACK]] : !llvm.ptr> @gemm_kernels::@gemm_pack_f16
// CHECK: llvm.call @mgpuMemAlloc(%{{.*}}, %[[PACK]], %{{.*}})
// CHECK: gpu.launch_func <%[[PACK]] : !llvm.ptr> @gemm_kernels::@gemm_pack_f16
// CHECK: llvm.call @mgpuStreamSynchronize(%[[PACK]])
// CHECK: llvm.call @mgpuStreamDestroy(%[[PACK]])

// NVIDIA's family starts with gemv and decode (no workspace): each kernel
// on a stream.
// NV: %[[GV:[0-9]+]] = llvm.call @mgpuStreamCreate()
// NV: gpu.launch_func <%[[GV]] : !llvm.ptr> @gemm_kernels::@linear_gemm blocks
// NV: llvm.call @mgpuStreamSynchronize(%[[GV]])
// NV: llvm.call @mgpuStreamDestroy(%[[GV]])
// NV: %[[DEC:[0-9]+]] = llvm.call @mgpuStreamCreate()
// NV: gpu.launch_func <%[[DEC]] : !llvm.ptr> @gemm_kernels::@linear_gemm_0 blocks
// NV: llvm.call @mgpuStreamSynchronize(%[[DEC]])
// NV: llvm.call @mgpuStreamDestroy(%[[DEC]])

// decode-cluster (NVIDIA): no workspace; the launch names its clusters.
// NV: %[[CL:[0-9]+]] = llvm.call @mgpuStreamCreate()
// NV: gpu.launch_func <%[[CL]] : !llvm.ptr> @gemm_kernels::@linear_gemm_1 clusters in
// NV: llvm.call @mgpuStreamSynchronize(%[[CL]])
// NV: llvm.call @mgpuStreamDestroy(%[[CL]])

// Split-K (decode-split on NVIDIA, split-k on AMD): the workspace, the GEMM
// and the reduction on one stream.
// CHECK: %[[SPLIT:[0-9]+]] = llvm.call @mgpuStreamCreate()
// CHECK: %[[WS:[0-9]+]] = llvm.call @mgpuMemAlloc(%{{.*}}, %[[SPLIT]], %{{.*}})
// CHECK: gpu.launch_func <%[[SPLIT]] : !llvm.ptr> @gemm_kernels::@[[SK:linear_gemm(_[02])?]] blocks
// CHECK: gpu.launch_func <%[[SPLIT]] : !llvm.ptr> @gemm_kernels::@[[SK]]_reduce blocks
// CHECK: llvm.call @mgpuMemFree(%[[WS]], %[[SPLIT]])
// CHECK: llvm.call @mgpuStreamSynchronize(%[[SPLIT]])
// CHECK: llvm.call @mgpuStreamDestroy(%[[SPLIT]])

// The packing workspaces are freed after the GEMM, whose last member is
// the default (the thirteenth kernel on NVIDIA, the second on AMD).
// NV: gpu.launch_func <%{{.*}} : !llvm.ptr> @gemm_kernels::@linear_gemm_12 blocks
// AMD: gpu.launch_func <%{{.*}} : !llvm.ptr> @gemm_kernels::@linear_gemm_0 blocks
// CHECK: llvm.call @mgpuMemFree(%{{.*}}, %[[FREE:[0-9]+]])
// CHECK: llvm.call @mgpuMemFree(%{{.*}}, %[[FREE]])
// CHECK: llvm.call @mgpuStreamSynchronize(%[[FREE]])
// CHECK: llvm.return

// CHECK-LABEL: llvm.func @_mlir_ciface_linear(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: llvm.call @linear(

// CHECK: gpu.binary @gemm_kernels

func.func @linear(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>,
                  %bias: memref<?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
      outs(%c : memref<?x?xf16>) extras(%bias : memref<?xf32>) acc(f32)
      attributes {broadcast = [#gemm.bcast<col>]} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32):
    %0 = arith.addf %acc, %bi : f32
    %1 = arith.truncf %0 : f32 to f16
    gemm.yield %1 : f16
  }
  return
}
