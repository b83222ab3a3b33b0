// RUN: rm -rf %t && gemm-opt --verify-roundtrip %s --gemm-write-artifacts=output-dir=%t | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=PTX < %t/kernels.sm_90.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json

// gemm-write-artifacts works on any gpu.binary (here a hand-written one) and
// leaves the IR unchanged.

// IR: gpu.binary @kernels
// PTX: .entry k
// MANIFEST: "kernels": []
// MANIFEST: "chip": "sm_90",
// MANIFEST-NEXT: "file": "kernels.sm_90.ptx",
// MANIFEST-NEXT: "format": "assembly",
// MANIFEST-NEXT: "module": "kernels"
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.4\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n">]
}

// A module symbol holding a path stays inside output-dir: '/' and other
// characters outside [A-Za-z0-9._-] become '_', a leading '.' gets one.
// RUN: rm -rf %t.esc && gemm-opt %s -split-input-file --gemm-write-artifacts=output-dir=%t.esc/out -o /dev/null && ls %t.esc %t.esc/out | FileCheck %s --check-prefix=ESCAPE
// ESCAPE-NOT: escaped
// ESCAPE: _.._.._escaped.sm_90.ptx
// -----
module attributes {gpu.container_module} {
  gpu.binary @"../../escaped" [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.4\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n">]
}


