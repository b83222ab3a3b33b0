// RUN: gemm-opt %s --split-input-file --convert-gemm-to-nvgpu="chip=sm_90a" | FileCheck %s
// RUN: gemm-opt %s --split-input-file --convert-gemm-to-nvgpu="chip=sm_80" | FileCheck %s --check-prefix=SM80

// Programmatic dependent launch (Launch.cpp, addGridDependencyControl): on
// sm_90 and later every kernel a gemm.matmul lowers to (pack, GEMM,
// split-K reduction) starts with griddepcontrol.launch_dependents and
// griddepcontrol.wait, before any memory access, and every manifest entry
// says programmatic_launch = true so that runtimes may launch the family's
// kernels with programmatic stream serialization. Before sm_90 neither.

// K = 4095 (f16): the operands are packed (one pack kernel for both); M and
// N unknown: 30 members (tiny-k and short-k need K <= 128, decode-64x64-split
// K >= 8192) on 25 GEMM kernels (gemv-mma-16 launches gemv-mma-16-few's,
// mid-64x64 decode-64x64's, mid-64x128 decode-64x128's, split-k
// decode-64-split's, half-n mid's; split-k-64x64 has its own here,
// decode-64x64-split being dropped), 5 of
// them split-K with their reductions (2 more reduce in clusters): 31
// kernels.
// CHECK: module attributes {gemm.kernels = [{
// CHECK-SAME: programmatic_launch = true
// CHECK-SAME: rule = "split-k-narrow"
// CHECK-COUNT-29: programmatic_launch = true
// CHECK-NOT: programmatic_launch
// CHECK-LABEL: func.func @family(
// CHECK: gpu.module @gemm_kernels
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @{{[a-z0-9_]+}}({{.*}}) {{.*}}kernel{{.*}} {
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NOT: gpu.func

// SM80-NOT: programmatic_launch
// SM80-NOT: nvvm.griddepcontrol
func.func @family(%a: memref<?x4095xf16>, %b: memref<?x4095xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x4095xf16>, memref<?x4095xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
