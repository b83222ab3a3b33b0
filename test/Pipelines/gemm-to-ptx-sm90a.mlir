// RUN: rm -rf %t && gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_90a output-dir=%t" -o /dev/null
// RUN: FileCheck %s < %t/gemm_kernels.sm_90a.ptx

// PTX for sm_90a: the chip's default PTX version and the Hopper path, which
// is the default there for f16/bf16: cp.async into shared memory, the fence
// into the async proxy, and warpgroup MMAs from shared-memory descriptors
// (B N-major here: the transpose immediate of B is 1).

// CHECK: .version 8.4
// CHECK: .target sm_90a
// (LLVM rotates the main loop, so their textual order is not checked.)
// CHECK-DAG: cp.async.cg.shared.global
// CHECK-DAG: fence.proxy.async.shared::cta
// CHECK-DAG: bar.sync {{[ \t]*}}0;
// CHECK-DAG: wgmma.fence.sync.aligned
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{.*}} p, 1, {{ *}}1, 0, {{ *}}1;
// CHECK-DAG: wgmma.commit_group.sync.aligned
// CHECK-DAG: wgmma.wait_group.sync.aligned {{[ \t]*}}1;
// CHECK: wgmma.wait_group.sync.aligned {{[ \t]*}}0;
func.func @bf16_nn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) acc(f32)
  return
}
