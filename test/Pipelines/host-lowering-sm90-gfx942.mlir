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

// On AMD, A and B (K unaligned at run time) are packed into workspaces
// once, before the family.
// AMD: %[[PACK:[0-9]+]] = llvm.call @mgpuStreamCreate()
// AMD: llvm.call @mgpuMemAlloc(%{{.*}}, %[[PACK]], %{{.*}}) : (i64, !llvm.ptr, i8) -> !llvm.ptr
// AMD: gpu.launch_func <%[[PACK]] : !llvm.ptr> @gemm_kernels::@gemm_pack_f16
// AMD: llvm.call @mgpuMemAlloc(%{{.*}}, %[[PACK]], %{{.*}})
// AMD: gpu.launch_func <%[[PACK]] : !llvm.ptr> @gemm_kernels::@gemm_pack_f16
// AMD: llvm.call @mgpuStreamSynchronize(%[[PACK]])
// AMD: llvm.call @mgpuStreamDestroy(%[[PACK]])

// NVIDIA's family starts with gemv, which reads A and B as stored: nothing
// packed before its kernel, launched on a stream.
// NV-NOT: gemm_pack
// NV: %[[GV:[0-9]+]] = llvm.call @mgpuStreamCreate()
// NV: gpu.launch_func <%[[GV]] : !llvm.ptr> @gemm_kernels::@linear_gemm blocks
// NV: llvm.call @mgpuStreamSynchronize(%[[GV]])
// NV: llvm.call @mgpuStreamDestroy(%[[GV]])
// gemv-2 likewise.
// NV-NOT: gemm_pack
// NV: %[[GV2:[0-9]+]] = llvm.call @mgpuStreamCreate()
// NV: gpu.launch_func <%[[GV2]] : !llvm.ptr> @gemm_kernels::@linear_gemm_0 blocks
// NV: llvm.call @mgpuStreamDestroy(%[[GV2]])
// gemv-mma and gemv-mma-16 likewise.
// NV-NOT: gemm_pack
// NV: gpu.launch_func <%{{.*}} : !llvm.ptr> @gemm_kernels::@linear_gemm_1 blocks
// NV-NOT: gemm_pack
// NV: gpu.launch_func <%{{.*}} : !llvm.ptr> @gemm_kernels::@linear_gemm_2 blocks
// The other members pack A and B in their own branch and free the
// workspaces after their launch; decode has no workspace of its own.
// NV: %[[PACK:[0-9]+]] = llvm.call @mgpuStreamCreate()
// NV: llvm.call @mgpuMemAlloc(%{{.*}}, %[[PACK]], %{{.*}}) : (i64, !llvm.ptr, i8) -> !llvm.ptr
// NV: gpu.launch_func <%[[PACK]] : !llvm.ptr> @gemm_kernels::@gemm_pack_f16
// NV: llvm.call @mgpuMemAlloc(%{{.*}}, %[[PACK]], %{{.*}})
// NV: gpu.launch_func <%[[PACK]] : !llvm.ptr> @gemm_kernels::@gemm_pack_f16
// NV: llvm.call @mgpuStreamSynchronize(%[[PACK]])
// NV: llvm.call @mgpuStreamDestroy(%[[PACK]])
// NV: %[[DEC:[0-9]+]] = llvm.call @mgpuStreamCreate()
// NV: gpu.launch_func <%[[DEC]] : !llvm.ptr> @gemm_kernels::@linear_gemm_3 blocks
// NV: llvm.call @mgpuStreamSynchronize(%[[DEC]])
// NV: llvm.call @mgpuStreamDestroy(%[[DEC]])
// NV: llvm.call @mgpuMemFree(%{{.*}}, %[[DFREE:[0-9]+]])
// NV: llvm.call @mgpuMemFree(%{{.*}}, %[[DFREE]])
// NV: llvm.call @mgpuStreamSynchronize(%[[DFREE]])

// decode-cluster (NVIDIA): no workspace; the launch names its clusters.
// NV: gpu.launch_func <%{{.*}} : !llvm.ptr> @gemm_kernels::@gemm_pack_f16
// NV: gpu.launch_func <%{{.*}} : !llvm.ptr> @gemm_kernels::@gemm_pack_f16
// NV: %[[CL:[0-9]+]] = llvm.call @mgpuStreamCreate()
// NV: gpu.launch_func <%[[CL]] : !llvm.ptr> @gemm_kernels::@linear_gemm_4 clusters in
// NV: llvm.call @mgpuStreamSynchronize(%[[CL]])
// NV: llvm.call @mgpuStreamDestroy(%[[CL]])

// Split-K (decode-split on NVIDIA, split-k on AMD): the workspace, the GEMM
// and the reduction on one stream (on NVIDIA after its own packing).
// NV: gpu.launch_func <%{{.*}} : !llvm.ptr> @gemm_kernels::@gemm_pack_f16
// NV: gpu.launch_func <%{{.*}} : !llvm.ptr> @gemm_kernels::@gemm_pack_f16
// CHECK: %[[SPLIT:[0-9]+]] = llvm.call @mgpuStreamCreate()
// CHECK: %[[WS:[0-9]+]] = llvm.call @mgpuMemAlloc(%{{.*}}, %[[SPLIT]], %{{.*}})
// CHECK: gpu.launch_func <%[[SPLIT]] : !llvm.ptr> @gemm_kernels::@[[SK:linear_gemm(_[05])?]] blocks
// CHECK: gpu.launch_func <%[[SPLIT]] : !llvm.ptr> @gemm_kernels::@[[SK]]_reduce blocks
// CHECK: llvm.call @mgpuMemFree(%[[WS]], %[[SPLIT]])
// CHECK: llvm.call @mgpuStreamSynchronize(%[[SPLIT]])
// CHECK: llvm.call @mgpuStreamDestroy(%[[SPLIT]])

// The last member is the default (the sixteenth kernel on NVIDIA, the
// second on AMD). On AMD the packing workspaces are freed after the
// family; on NVIDIA the default frees its own, in a block the canonicalizer
// merged with the other members' identical ones.
// NV: gpu.launch_func <%{{.*}} : !llvm.ptr> @gemm_kernels::@linear_gemm_15 blocks
// NV-NEXT: llvm.call @mgpuStreamSynchronize
// NV-NEXT: llvm.call @mgpuStreamDestroy
// NV-NEXT: llvm.cond_br
// AMD: gpu.launch_func <%{{.*}} : !llvm.ptr> @gemm_kernels::@linear_gemm_0 blocks
// AMD: llvm.call @mgpuMemFree(%{{.*}}, %[[FREE:[0-9]+]])
// AMD: llvm.call @mgpuMemFree(%{{.*}}, %[[FREE]])
// AMD: llvm.call @mgpuStreamSynchronize(%[[FREE]])
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
