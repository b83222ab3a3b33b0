// RUN: gemm-opt %s --convert-gemm-to-amdgpu=chip=gfx942 -split-input-file -verify-diagnostics

func.func @simt(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @below {{config kind simt is not lowered by convert-gemm-to-amdgpu (it lowers mfma)}}
  gemm.matmul nn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = simt, block = [64, 64, 16], warps = [2, 2], instr = [4, 8, 1]>}
  return
}

// -----

func.func @mma_sync(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @below {{config kind mma_sync is not lowered by convert-gemm-to-amdgpu (it lowers mfma)}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 2], instr = [16, 8, 16]>}
  return
}

// -----

// The shape exists on gfx942 but only for CDNA2-style i8 (4 bytes per lane):
// gfx942 has 16x16x32 instead.
func.func @shape_not_on_chip(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @below {{mfma shape 16x16x16 for i8 operands is not available on gfx942}}
  gemm.matmul tn ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) acc(i32)
    attributes {config = #gemm.config<kind = mfma, block = [128, 128, 64], warps = [2, 2], instr = [16, 16, 16]>}
  return
}

// -----

// OCP fp8 is not gfx942's fp8 (FNUZ): no MFMA takes it.
func.func @fp8_on_gfx942(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  // expected-error @below {{mfma shape 16x16x32 for f8E4M3FN operands is not available on gfx942}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [128, 128, 64], warps = [2, 2], instr = [16, 16, 32]>}
  return
}

// -----

// The default config of an fp8 GEMM on gfx942 has no MFMA either.
func.func @fp8_default(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  // expected-error @below {{config kind simt is not lowered by convert-gemm-to-amdgpu (it lowers mfma)}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}

// -----

// The 4-block f64 form covers 16 columns per instruction.
func.func @four_blocks_narrow(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  // expected-error @below {{wave tile N (8) is not a multiple of the 4-block mfma tile N (16)}}
  gemm.matmul nn ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64)
    attributes {config = #gemm.config<kind = mfma, block = [32, 16, 8], warps = [2, 2], instr = [4, 4, 4]>}
  return
}

// -----

// Transcendental f64 math would call the ROCm device library.
func.func @f64_exp(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  // expected-error @below {{epilogue op 'math.exp' is not lowered by convert-gemm-to-amdgpu (gfx942): on f64 it needs the ROCm device library (ocml), which the kernels do not link; compute it in f32}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64) {
  ^bb0(%acc: f64, %cin: f64):
    // expected-note @below {{the epilogue op}}
    %e = math.exp %acc : f64
    gemm.yield %e : f64
  }
  return
}

// -----

// f16 accumulation has no MFMA: the default is SIMT, which this pass does not
// lower.
func.func @f16_acc(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  // expected-error @below {{config kind simt is not lowered by convert-gemm-to-amdgpu (it lowers mfma)}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f16)
  return
}

// -----

// LDS over the chip's 64 KiB.
func.func @lds(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @below {{config needs 131072 bytes of shared memory per block, over the 65536 available on gfx942}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [256, 256, 32], warps = [2, 2], instr = [16, 16, 4], stages = 2, smem = plain>}
  return
}

// -----

// expected-error @below {{module declares gemm.target gfx90a but convert-gemm-to-amdgpu runs for gfx942}}
module attributes {gemm.target = #gemm.target<"gfx90a">} {
  func.func @mismatch(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
    gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{kernel module 'gemm_kernels' exists without a #rocdl.target for gfx942}}
  gpu.module @gemm_kernels [#nvvm.target<chip = "sm_90">] {
  }
  func.func @wrong_module(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
    gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    return
  }
}

// -----

// The swizzle permutes 16-byte chunks: a row of A (f32, K = 2) has 8 bytes.
func.func @swizzle_rows(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @below {{swizzled shared tile of A has rows of 8 bytes, not a multiple of 16; use smem = plain or pad}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
    attributes {config = #gemm.config<kind = mfma, block = [64, 64, 2], warps = [2, 2], instr = [32, 32, 2], smem = swizzle>}
  return
}

// -----

// sin, cos, floor, exp2, ... lower to ocml calls whatever the type
// (convert-gpu-to-rocdl marks their LLVM intrinsics illegal).
func.func @f32_sin(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @below {{epilogue op 'math.sin' is not lowered by convert-gemm-to-amdgpu (gfx942): it needs the ROCm device library (ocml), which the kernels do not link}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: f32):
    %r = arith.maximumf %acc, %cin : f32
    // expected-note @below {{the epilogue op}}
    %s = math.sin %r : f32
    gemm.yield %s : f32
  }
  return
}

// -----

func.func @f64_floor(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  // expected-error @below {{epilogue op 'math.floor' is not lowered by convert-gemm-to-amdgpu (gfx942): it needs the ROCm device library (ocml), which the kernels do not link}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>) acc(f64) {
  ^bb0(%acc: f64, %cin: f64):
    // expected-note @below {{the epilogue op}}
    %f = math.floor %acc : f64
    gemm.yield %f : f64
  }
  return
}

// -----

// exp and log are native in f32 only.
func.func @f16_exp(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  // expected-error @below {{epilogue op 'math.exp' is not lowered by convert-gemm-to-amdgpu (gfx942): only its f32 form is native; compute it in f32}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32) {
  ^bb0(%acc: f32, %cin: f16):
    %t = arith.truncf %acc : f32 to f16
    // expected-note @below {{the epilogue op}}
    %e = math.exp %t : f16
    gemm.yield %e : f16
  }
  return
}

// -----

func.func @remf(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @below {{epilogue op 'arith.remf' is not lowered by convert-gemm-to-amdgpu (gfx942)}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: f32):
    // expected-note @below {{the epilogue op}}
    %r = arith.remf %acc, %cin : f32
    gemm.yield %r : f32
  }
  return
}


// -----

// An epilogue op outside arith and math (here NVIDIA's intrinsic) reached
// AMDGPU instruction selection as is and aborted LLVM.
func.func @foreign(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @below {{epilogue op 'nvvm.read.ptx.sreg.tid.x' is not lowered by convert-gemm-to-amdgpu (gfx942): the kernels lower arith and math ops only}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: f32):
    // expected-note @below {{the epilogue op}}
    %t = nvvm.read.ptx.sreg.tid.x : i32
    %f = arith.sitofp %t : i32 to f32
    %r = arith.addf %acc, %f : f32
    gemm.yield %r : f32
  }
  return
}

// -----

// A float converted to i1, and a truncation with an explicit rounding
// mode: the AMDGPU back-end cannot select them (LLVM aborted).
func.func @to_i1(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @below {{epilogue op 'arith.fptoui' is not lowered by convert-gemm-to-amdgpu (gfx942): LLVM's AMDGPU back-end cannot convert a float to i1; compare with arith.cmpf instead}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: f32):
    %x = arith.truncf %acc : f32 to bf16
    // expected-note @below {{the epilogue op}}
    %i = arith.fptoui %x : bf16 to i1
    %r = arith.uitofp %i : i1 to f32
    gemm.yield %r : f32
  }
  return
}

// -----

func.func @rounding(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @below {{epilogue op 'arith.truncf' is not lowered by convert-gemm-to-amdgpu (gfx942): LLVM's AMDGPU back-end has no truncation with an explicit rounding mode; drop the rounding mode (to nearest even)}}
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32) {
  ^bb0(%acc: f32, %cin: f32):
    // expected-note @below {{the epilogue op}}
    %x = arith.truncf %acc to_nearest_away : f32 to bf16
    %r = arith.extf %x : bf16 to f32
    gemm.yield %r : f32
  }
  return
}
