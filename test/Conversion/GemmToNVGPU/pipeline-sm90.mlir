// RUN: gemm-opt %s --convert-gemm-to-nvgpu=chip=sm_90 --canonicalize --cse --verify-roundtrip | FileCheck %s --check-prefix=S4
// RUN: sed 's/stages = 4/stages = 5/' %s | gemm-opt --convert-gemm-to-nvgpu=chip=sm_90 --canonicalize --cse --verify-roundtrip | FileCheck %s --check-prefix=S5
// RUN: sed 's/stages = 4/stages = 2/' %s | gemm-opt --convert-gemm-to-nvgpu=chip=sm_90 --canonicalize --cse --verify-roundtrip | FileCheck %s --check-prefix=S2
// RUN: sed 's/stages = 4/stages = 1/' %s | gemm-opt --convert-gemm-to-nvgpu=chip=sm_90 --canonicalize --cse --verify-roundtrip | FileCheck %s --check-prefix=S1

// The software pipeline: a prologue loop putting S-1 tiles in flight (one
// cp.async group each), then one group per k-tile, a wait for at most S-2
// pending groups and one barrier per k-tile, and a drain (wait for 0) before
// the epilogue. One stage degenerates to copy / wait / barrier / compute /
// barrier. Groups and waits are NVVM ops (they need no tokens, so the IR
// prints in a form that parses back).

// S4: memref.view {{.*}} to memref<16384xf16
// S5: memref.view {{.*}} to memref<20480xf16
// S4-NOT: nvvm.cp.async.commit.group
// S4: scf.for %{{.*}} = %c0_i32 to %c3_i32 step %c1_i32 : i32 {
// S4: nvvm.cp.async.commit.group
// S4: scf.for
// S4: nvvm.cp.async.wait.group 2
// S4-NEXT: gpu.barrier
// S4: nvvm.cp.async.commit.group
// S4: nvgpu.mma.sync
// S4: scf.yield
// S4: nvvm.cp.async.wait.group 0
// S5: nvvm.cp.async.wait.group 3
// S2: nvvm.cp.async.wait.group 0
// S2-NEXT: gpu.barrier
// S1: scf.for
// S1: nvvm.cp.async.commit.group
// S1-NEXT: nvvm.cp.async.wait.group 0
// S1-NEXT: gpu.barrier
// S1: nvgpu.mma.sync
// S1: gpu.barrier
// S1-NEXT: scf.yield
func.func @pipelined(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16], stages = 4>}
  return
}
