// RUN: rm -rf %t && gemm-opt --verify-roundtrip %s --gemm-to-ptx="chip=sm_90 output-dir=%t" | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_kernels.sm_90.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json

// gemm.matmul all the way to a gpu.binary holding PTX, with the PTX and the
// manifest written out: the f16 tn kernel uses mma.sync, ldmatrix (plain for
// A and B) and 16-byte cp.async with commit/wait groups.

// IR: llvm.func @linear
// IR: gpu.launch_func <%{{.*}} : !llvm.ptr> @gemm_kernels::@linear_gemm
// IR: gpu.binary @gemm_kernels
// IR-SAME: #gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx84">

// PTX: .version 8.4
// PTX: .target sm_90
// PTX: .entry linear_gemm(
// PTX-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// PTX-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// PTX-DAG: cp.async.commit_group;
// PTX-DAG: cp.async.wait_group 1;
// PTX-DAG: bar.sync 0;
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: ldmatrix.sync.aligned.m8n8.x4.trans

// The gemm.matmul has dynamic sizes: a family of kernels in rule order
// (gemm/Tuning/Dispatch.h), gemv, gemv-2, gemv-mma, decode and split-K first, the default last;
// decode-cluster (no workspace parameter) adds its K slices in clusters.
// MANIFEST: "kernels": [
// MANIFEST: "block": [
// MANIFEST-NEXT: 256,
// MANIFEST: "config": "#gemm.config<kind = gemv, block = [1, 16, 512], warps = [1, 8], instr = [1, 1, 8], stages = 1, smem = plain>",
// MANIFEST-NEXT: "dynamic_shared_memory": 0,
// MANIFEST-NEXT: "function": "linear",
// MANIFEST-NEXT: "gemm": 0,
// MANIFEST: "name": "linear_gemm",
// MANIFEST: "rule": "gemv",
// MANIFEST-NEXT: "when": {
// MANIFEST-NEXT: "blocks_min": 66,
// MANIFEST-NEXT: "k_min": 256,
// MANIFEST-NEXT: "m_max": 1
// MANIFEST: "config": "#gemm.config<kind = gemv, block = [2, 16, 512], warps = [1, 8], instr = [1, 1, 8], stages = 1, smem = plain>",
// MANIFEST: "name": "linear_gemm_0",
// MANIFEST: "rule": "gemv-2",
// MANIFEST-NEXT: "when": {
// MANIFEST-NEXT: "blocks_min": 66,
// MANIFEST-NEXT: "k_min": 256,
// MANIFEST-NEXT: "m_max": 2,
// MANIFEST-NEXT: "m_min": 2,
// MANIFEST-NEXT: "n_max": 8320
// MANIFEST: "config": "#gemm.config<kind = gemv, block = [8, 16, 64], warps = [1, 8], instr = [8, 16, 16], stages = 1, smem = plain>",
// MANIFEST-NEXT: "dynamic_shared_memory": 4096,
// MANIFEST: "name": "linear_gemm_1",
// MANIFEST: "rule": "gemv-mma",
// MANIFEST-NEXT: "when": {
// MANIFEST-NEXT: "blocks_min": 66,
// MANIFEST-NEXT: "k_min": 256,
// MANIFEST-NEXT: "m_max": 8,
// MANIFEST-NEXT: "m_min": 3
// MANIFEST: "config": "#gemm.config<kind = gemv, block = [16, 32, 64], warps = [1, 8], instr = [8, 16, 16], stages = 1, smem = plain>",
// MANIFEST: "name": "linear_gemm_2",
// MANIFEST: "rule": "gemv-mma-16-few",
// MANIFEST-NEXT: "when": {
// MANIFEST-NEXT: "blocks_max": 65,
// MANIFEST-NEXT: "blocks_min": 33,
// MANIFEST-NEXT: "k_max": 6144,
// MANIFEST-NEXT: "k_min": 256,
// MANIFEST-NEXT: "m_max": 16,
// MANIFEST-NEXT: "m_min": 9
// MANIFEST: "name": "linear_gemm_2",
// MANIFEST: "rule": "gemv-mma-16",
// MANIFEST-NEXT: "when": {
// MANIFEST-NEXT: "blocks_min": 66,
// MANIFEST-NEXT: "k_min": 256,
// MANIFEST-NEXT: "m_max": 16,
// MANIFEST-NEXT: "m_min": 9
// MANIFEST: "block": [
// MANIFEST-NEXT: 128,
// MANIFEST: "name": "linear_gemm_3",
// MANIFEST: "rule": "decode",
// MANIFEST-NEXT: "when": {
// MANIFEST-NEXT: "blocks_min": 66,
// MANIFEST-NEXT: "k_min": 512,
// MANIFEST-NEXT: "m_max": 16
// MANIFEST: "name": "linear_gemm_4",
// MANIFEST: "rule": "decode-cluster",
// MANIFEST-NEXT: "split_k": {
// MANIFEST-NEXT: "cluster_capacity": [
// MANIFEST-NEXT: 132,
// MANIFEST: "max": 8,
// MANIFEST-NEXT: "min_k_per_slice": 512,
// MANIFEST-NEXT: "reduction": "cluster"
// MANIFEST: "name": "linear_gemm_5",
// MANIFEST: "name": "A",
// MANIFEST: "name": "extra0",
// MANIFEST: "name": "workspace",
// MANIFEST-NEXT: "rank": 4,
// MANIFEST: "rule": "decode-split",
// MANIFEST-NEXT: "split_k": {
// MANIFEST-NEXT: "fill_blocks": 132,
// MANIFEST-NEXT: "max": 128,
// MANIFEST-NEXT: "min_k_per_slice": 512,
// MANIFEST-NEXT: "reduce": {
// MANIFEST: "name": "linear_gemm_5_reduce",
// MANIFEST-NEXT: "params": [
// MANIFEST: "name": "C",
// MANIFEST: "name": "extra0",
// MANIFEST: "name": "workspace",
// MANIFEST: "workspace_type": "f32"
// MANIFEST: "when": {
// MANIFEST-NEXT: "k_min": 512,
// MANIFEST-NEXT: "m_max": 16
// MANIFEST: "name": "linear_gemm_10",
// MANIFEST: "rule": "split-k",
// MANIFEST-NEXT: "split_k": {
// MANIFEST-NEXT: "fill_blocks": 264,
// MANIFEST-NEXT: "max": 128,
// MANIFEST-NEXT: "min_k_per_slice": 256,
// MANIFEST: "when": {
// MANIFEST-NEXT: "blocks_max": 132,
// MANIFEST-NEXT: "k_min": 512
// MANIFEST: "name": "linear_gemm_11",
// MANIFEST: "rule": "small",
// MANIFEST-NEXT: "when": {
// MANIFEST-NEXT: "blocks_max": 132
// MANIFEST: "name": "linear_gemm_12",
// MANIFEST: "rule": "tiny-k",
// MANIFEST-NEXT: "when": {
// MANIFEST-NEXT: "blocks_max": 1056,
// MANIFEST-NEXT: "k_max": 16
// MANIFEST: "name": "linear_gemm_13",
// MANIFEST: "rule": "short-m",
// MANIFEST-NEXT: "when": {
// MANIFEST-NEXT: "m_max": 64
// MANIFEST: "name": "linear_gemm_14",
// MANIFEST: "rule": "narrow-n",
// MANIFEST-NEXT: "when": {
// MANIFEST-NEXT: "n_max": 32
// MANIFEST: "dynamic_shared_memory": 98304,
// MANIFEST: "name": "linear_gemm_15",
// MANIFEST: "reads_c": false
// MANIFEST-NEXT: "rule": "default",
// MANIFEST-NEXT: "when": {}
// MANIFEST: "objects": [
// MANIFEST: "file": "gemm_kernels.sm_90.ptx",
// MANIFEST: "param_convention"
func.func @linear(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %bias: memref<?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
      extras(%bias : memref<?xf32>) acc(f32) attributes {broadcast = [#gemm.bcast<col>]} {
  ^bb0(%acc: f32, %cin: f16, %bi: f32):
    %0 = arith.addf %acc, %bi : f32
    %1 = arith.truncf %0 : f32 to f16
    gemm.yield %1 : f16
  }
  return
}
