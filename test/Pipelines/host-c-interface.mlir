// RUN: gemm-opt %s -split-input-file --gemm-host-c-interface -verify-diagnostics | FileCheck %s

// Public host function definitions get llvm.emit_c_interface (the
// _mlir_ciface_ wrapper C programs call); private functions, declarations
// (whose callers would otherwise call _mlir_ciface_<name>) and the kernels
// in gpu.module keep their ABI.

// CHECK-LABEL: func.func @linear
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: llvm.emit_c_interface
// CHECK: return
// CHECK-LABEL: func.func private @external
// CHECK-NOT: llvm.emit_c_interface
// CHECK-LABEL: gpu.module @kernels
// CHECK-NOT: llvm.emit_c_interface
module attributes {gpu.container_module} {
  func.func @linear(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                    %c: memref<?x?xf16>) {
    func.call @helper(%c) : (memref<?x?xf16>) -> ()
    func.call @external(%c) : (memref<?x?xf16>) -> ()
    return
  }
  func.func private @helper(%c: memref<?x?xf16>) {
    return
  }
  func.func private @external(%c: memref<?x?xf16>)
  gpu.module @kernels {
    gpu.func @k(%c: memref<?x?xf16>) kernel {
      gpu.return
    }
  }
}

// -----

// A function already named like the wrapper: convert-func-to-llvm would
// define the symbol twice.

// expected-error @below {{host function 'linear' cannot get a C interface: '_mlir_ciface_linear' is already defined}}
func.func @linear(%c: memref<?xf32>) {
  return
}

// expected-note @below {{'_mlir_ciface_linear' defined here}}
func.func @_mlir_ciface_linear(%c: memref<?xf32>) {
  return
}
