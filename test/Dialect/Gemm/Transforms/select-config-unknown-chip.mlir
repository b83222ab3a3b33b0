// RUN: gemm-opt %s --gemm-select-config=target=sm_99 -verify-diagnostics

// An unknown chip is a diagnostic naming it.

// expected-error @+1 {{unknown target chip 'sm_99' (known: sm_80, sm_86, sm_89, sm_90, sm_90a, gfx90a, gfx942, gfx950)}}
module {
}
