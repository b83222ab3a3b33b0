// RUN: gemm-opt %s -split-input-file --gemm-check-kernel-modules=chip=sm_90a -verify-diagnostics -o /dev/null
// RUN: sed '/expected-error/d' %s | not gemm-opt -split-input-file --gemm-to-cubin=chip=sm_90a 2>&1 >/dev/null | FileCheck %s --check-prefix=NVIDIA
// RUN: sed '/expected-error/d' %s | not gemm-opt -split-input-file --gemm-to-hsaco=chip=gfx90a 2>&1 >/dev/null | FileCheck %s --check-prefix=AMD

// Each pipeline lowers every gpu.module with its vendor's passes and
// serializes it for each of its targets: a module of the other vendor made
// LLVM abort (gemm-to-ptx) or wrote the other vendor's binary
// (gemm-to-hsaco); one of the vendor for another chip was serialized for
// that chip (ptxas then rejected sm_99). A gpu.binary the input brings along
// was written as the pipeline's own (a "cubin" that was not ELF, AMD
// assembly under gemm-to-ptx). gemm-check-kernel-modules, the first pass of
// every pipeline, fails them at the op.

// NVIDIA: error: gpu.module 'other' targets #rocdl.target<chip = "gfx90a">, but this NVIDIA pipeline builds #nvvm.target kernels for sm_90a only
// NVIDIA: error: gpu.module 'sm99' targets #nvvm.target<chip = "sm_99">, but this NVIDIA pipeline builds #nvvm.target kernels for sm_90a only
// NVIDIA: error: gpu.binary 'prebuilt' is already compiled, but this NVIDIA pipeline compiles gpu.module and gemm.matmul ops only (write prebuilt objects with gemm-write-artifacts alone)
// NVIDIA: error: gpu.module '../esc' has a '/' in its name
// NVIDIA: error: argument #0 of 'permuted' has type 'memref<?x?xf16, affine_map<(d0, d1) -> (d1, d0)>>', whose layout is not strided
// NVIDIA: error: argument #0 of 'external' has type
// NVIDIA: error: argument #0 of 'k' has type
// NVIDIA: error: argument #1 of 'scratch' has type 'memref<?xf32, #gpu.address_space<private>>', whose memory space #gpu.address_space<private> the host lowering does not convert
// NVIDIA: error: argument #0 of 'global' has type
// NVIDIA: error: result #0 has type 'memref<?xf32, #gpu.address_space<workgroup>>'
// NVIDIA: error: 'rocdl.workitem.id.x' in gpu.module 'amdops' is an op of the other vendor's dialect, but this NVIDIA pipeline builds #nvvm.target kernels for sm_90a
// NVIDIA: error: gpu.module 'nvvmops' targets #rocdl.target<chip = "gfx90a">, but this NVIDIA pipeline builds #nvvm.target kernels for sm_90a only
// NVIDIA: error: 'func.func' @mgpuMemAlloc has a name the host lowering reserves for the GPU runtime's functions (mgpu*); rename it
// NVIDIA: error: 'llvm.func' @mgpuLaunchKernel has a name the host lowering reserves
// NVIDIA-NOT: error:

// AMD-NOT: 'other'
// AMD: error: gpu.module 'sm99' targets #nvvm.target<chip = "sm_99">, but this AMD pipeline builds #rocdl.target kernels for gfx90a only
// AMD: error: gpu.binary 'prebuilt' is already compiled, but this AMD pipeline compiles gpu.module and gemm.matmul ops only (write prebuilt objects with gemm-write-artifacts alone)
// AMD: error: gpu.module 'mine' targets #nvvm.target<chip = "sm_90a">, but this AMD pipeline builds #rocdl.target kernels for gfx90a only
// AMD: error: gpu.module '../esc' has a '/' in its name
// AMD: error: argument #0 of 'permuted' has type 'memref<?x?xf16, affine_map<(d0, d1) -> (d1, d0)>>', whose layout is not strided
// AMD: error: argument #1 of 'scratch' has type 'memref<?xf32, #gpu.address_space<private>>', whose memory space #gpu.address_space<private> the host lowering does not convert
// AMD: error: argument #0 of 'global' has type
// AMD: error: result #0 has type 'memref<?xf32, #gpu.address_space<workgroup>>'
// AMD: error: gpu.module 'amdops' targets #nvvm.target<chip = "sm_90a">, but this AMD pipeline builds #rocdl.target kernels for gfx90a only
// AMD: error: 'nvvm.read.ptx.sreg.tid.x' in gpu.module 'nvvmops' is an op of the other vendor's dialect, but this AMD pipeline builds #rocdl.target kernels for gfx90a
// AMD: error: 'func.func' @mgpuMemAlloc has a name the host lowering reserves for the GPU runtime's functions (mgpu*); rename it
// AMD: error: 'llvm.func' @mgpuLaunchKernel has a name the host lowering reserves

module attributes {gpu.container_module} {
  // expected-error @below {{gpu.module 'other' targets #rocdl.target<chip = "gfx90a">, but this NVIDIA pipeline builds #nvvm.target kernels for sm_90a only}}
  gpu.module @other [#rocdl.target<chip = "gfx90a">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{gpu.module 'sm99' targets #nvvm.target<chip = "sm_99">, but this NVIDIA pipeline builds #nvvm.target kernels for sm_90a only}}
  gpu.module @sm99 [#nvvm.target<chip = "sm_99">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{gpu.binary 'prebuilt' is already compiled, but this NVIDIA pipeline compiles gpu.module and gemm.matmul ops only (write prebuilt objects with gemm-write-artifacts alone)}}
  gpu.binary @prebuilt [#gpu.object<#nvvm.target<chip = "sm_90a">, bin = "not an ELF file">]
}

// -----

// A module for the pipeline's chip passes.
module attributes {gpu.container_module} {
  gpu.module @mine [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// Serialization names its temporary files after the module ("Couldn't
// create the temp file" for @"../x").
module attributes {gpu.container_module} {
  // expected-error @below {{gpu.module '../esc' has a '/' in its name, which serialization names files after; rename it}}
  gpu.module @"../esc" [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// Memref layouts that are not strided (a permutation written as an affine
// map): the LLVM lowerings printed an error converting them and the
// pipeline went on to write a module with unconverted types (fuzzer
// finding, exit 0 after an error). The check names the value.
// expected-error @below {{argument #0 of 'permuted' has type 'memref<?x?xf16, affine_map<(d0, d1) -> (d1, d0)>>', whose layout is not strided; the pipelines lower strided memrefs only (normalize the layout first, e.g. with --normalize-memrefs)}}
func.func @permuted(%a: memref<?x?xf16, affine_map<(d0, d1) -> (d1, d0)>>) {
  return
}

// -----

// expected-error @below {{argument #0 of 'external' has type 'memref<4x8xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1, d0 mod 2)>>', whose layout is not strided}}
func.func private @external(memref<4x8xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1, d0 mod 2)>>)

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    // expected-error @below {{argument #0 of 'k' has type 'memref<?x?xf16, affine_map<(d0, d1) -> (d1, d0)>>', whose layout is not strided}}
    gpu.func @k(%c: memref<?x?xf16, affine_map<(d0, d1) -> (d1, d0)>>) kernel {
      gpu.return
    }
  }
}

// -----

// Host code in a #gpu.address_space: the host lowering printed an error
// converting the memory space and the pipeline exited 0 with unconverted
// host code (fuzzer finding, seed 36: a linalg function with a private
// scratch argument), or failed later at the gpu.launch_func it could not
// legalize (gemm.matmul operands in #gpu.address_space<global>, which the
// op itself allows). The check names the value.
// expected-error @below {{argument #1 of 'scratch' has type 'memref<?xf32, #gpu.address_space<private>>', whose memory space #gpu.address_space<private> the host lowering does not convert; host code takes memrefs in the default memory space (or a numbered one)}}
func.func @scratch(%beta: f32, %other: memref<?xf32, #gpu.address_space<private>>) {
  %c0 = arith.constant 0 : index
  memref.store %beta, %other[%c0] : memref<?xf32, #gpu.address_space<private>>
  return
}

// -----

// expected-error @below {{argument #0 of 'global' has type 'memref<?x?xf16, #gpu.address_space<global>>', whose memory space #gpu.address_space<global> the host lowering does not convert}}
func.func @global(%a: memref<?x?xf16, #gpu.address_space<global>>, %b: memref<?x?xf16, #gpu.address_space<global>>, %c: memref<?x?xf16, #gpu.address_space<global>>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16, #gpu.address_space<global>>, memref<?x?xf16, #gpu.address_space<global>>) outs(%c : memref<?x?xf16, #gpu.address_space<global>>) acc(f32)
  return
}

// -----

func.func @local(%n: index) {
  // expected-error @below {{result #0 has type 'memref<?xf32, #gpu.address_space<workgroup>>', whose memory space #gpu.address_space<workgroup> the host lowering does not convert}}
  %s = memref.alloca(%n) : memref<?xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// Numbered memory spaces on the host, and #gpu.address_space inside a
// gpu.module, are the lowerings' to convert: no diagnostic.
module attributes {gpu.container_module} {
  func.func @numbered(%a: memref<?xf32, 1>) {
    return
  }
  gpu.module @spaces [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%c: memref<?xf32, #gpu.address_space<global>>, %w: memref<?xf32, #gpu.address_space<workgroup>>) kernel {
      gpu.return
    }
  }
}

// -----

// A module for the pipeline's target holding the other vendor's ops: they
// reached instruction selection as intrinsics it has not (LLVM aborted).
module attributes {gpu.container_module} {
  gpu.module @amdops [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k(%p: memref<1xi32>) kernel {
      // expected-error @below {{'rocdl.workitem.id.x' in gpu.module 'amdops' is an op of the other vendor's dialect, but this NVIDIA pipeline builds #nvvm.target kernels for sm_90a}}
      %t = rocdl.workitem.id.x : i32
      %c0 = arith.constant 0 : index
      memref.store %t, %p[%c0] : memref<1xi32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{gpu.module 'nvvmops' targets #rocdl.target<chip = "gfx90a">, but this NVIDIA pipeline builds #nvvm.target kernels for sm_90a only}}
  gpu.module @nvvmops [#rocdl.target<chip = "gfx90a">] {
    gpu.func @k(%p: memref<1xi32>) kernel {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %c0 = arith.constant 0 : index
      memref.store %t, %p[%c0] : memref<1xi32>
      gpu.return
    }
  }
}

// -----

// Host functions named like the GPU runtime's (gpu-to-llvm declares and
// calls mgpuMemAlloc, mgpuLaunchKernel, ... by name): the alloc lowering
// took the user's function and crashed, launches called the user's GEMM.
// A gpu.module's own functions are not host symbols.
// expected-error @below {{'func.func' @mgpuMemAlloc has a name the host lowering reserves for the GPU runtime's functions (mgpu*); rename it}}
func.func @mgpuMemAlloc(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
// expected-error @below {{'llvm.func' @mgpuLaunchKernel has a name the host lowering reserves for the GPU runtime's functions (mgpu*); rename it}}
llvm.func @mgpuLaunchKernel(i64)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mgpuKernel(%p: memref<1xi32>) kernel {
      gpu.return
    }
  }
}
