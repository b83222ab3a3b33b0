// RUN: rm -rf %t && gemm-opt %s --gemm-write-host-object=output-dir=%t -o /dev/null
// RUN: FileCheck %s < %t/host.ll
// RUN: test -s %t/host.o

// Inline assembly in host code: the object streamer parses it, so the
// host back-ends' assembly parsers are initialized with them (without, LLVM
// aborted: "Inline asm not supported by this streamer because we don't
// have an asm parser for this target").

// CHECK-LABEL: define void @host()
// CHECK: call void asm sideeffect "nop", ""()
llvm.func @host() {
  llvm.inline_asm has_side_effects "nop", "" : () -> ()
  llvm.return
}
