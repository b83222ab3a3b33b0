# Experiment (not shipped): how fast can a GEMV-style decode kernel read B on
# the H200, against cuBLAS and a same-bytes copy, timed like harness.time_fn.
import json, sys, time
import numpy as np, torch, cupy as cp

def time_fn(fn, reps=200):
    for _ in range(3): fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(3): fn()
    host_s = (time.perf_counter() - t0) / 3
    torch.cuda.synchronize()
    cycles = int(max(2 * host_s, 20e-6) * 2e9)
    ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(cycles)
        s.record(); fn(); e.record(); e.synchronize()
        ts.append(s.elapsed_time(e))
    return float(np.median(ts))

SRC = r'''
#include <cuda_fp16.h>
template<int M, int U, int R>
__device__ void gemv_tn(const __half* __restrict__ A, const __half* __restrict__ B,
                        __half* __restrict__ C, int N, int K) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  int n0 = warp * R;
  if (n0 >= N) return;
  float acc[R][M];
  #pragma unroll
  for (int r = 0; r < R; ++r)
    #pragma unroll
    for (int m = 0; m < M; ++m) acc[r][m] = 0.f;
  for (int k0 = lane * 8; k0 < K; k0 += 32 * 8 * U) {
    uint4 bv[U][R];
    #pragma unroll
    for (int u = 0; u < U; ++u)
      #pragma unroll
      for (int r = 0; r < R; ++r) {
        int k = k0 + u * 256;
        bv[u][r] = (k < K && n0 + r < N) ? __ldg((const uint4*)(B + (size_t)(n0 + r) * K + k)) : make_uint4(0,0,0,0);
      }
    #pragma unroll
    for (int u = 0; u < U; ++u) {
      int k = k0 + u * 256;
      if (k >= K) break;
      #pragma unroll
      for (int m = 0; m < M; ++m) {
        uint4 av = __ldg((const uint4*)(A + (size_t)m * K + k));
        const __half2* a2 = (const __half2*)&av;
        #pragma unroll
        for (int r = 0; r < R; ++r) {
          const __half2* b2 = (const __half2*)&bv[u][r];
          #pragma unroll
          for (int j = 0; j < 4; ++j) {
            float2 af = __half22float2(a2[j]), bf = __half22float2(b2[j]);
            acc[r][m] = fmaf(af.x, bf.x, acc[r][m]);
            acc[r][m] = fmaf(af.y, bf.y, acc[r][m]);
          }
        }
      }
    }
  }
  #pragma unroll
  for (int r = 0; r < R; ++r)
    #pragma unroll
    for (int m = 0; m < M; ++m) {
      float v = acc[r][m];
      #pragma unroll
      for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
      if (lane == 0 && n0 + r < N) C[(size_t)m * N + n0 + r] = __float2half(v);
    }
}
#define INST(M,U,R) extern "C" __global__ void tn_##M##_##U##_##R(const __half* A, const __half* B, __half* C, int N, int K) { gemv_tn<M,U,R>(A,B,C,N,K); }
INST(1,2,1) INST(1,4,1) INST(1,8,1) INST(1,4,2) INST(1,2,2) INST(1,2,4)
INST(4,2,1) INST(4,4,1) INST(4,2,2)
INST(8,2,1) INST(8,2,2) INST(16,2,1) INST(16,1,2)

// nn: B is K x N. Thread: 8 columns, warps of a block split the block's k range;
// grid.y splits K; partial sums added with atomics into f32 C (experiment only).
template<int M, int U>
__device__ void gemv_nn(const __half* __restrict__ A, const __half* __restrict__ B,
                        float* __restrict__ C, int N, int K, int kPerBlock) {
  __shared__ float red[8][M][256 + 1];
  int lane = threadIdx.x % 32, w = threadIdx.x / 32, W = blockDim.x / 32;
  int col = blockIdx.x * 256 + lane * 8;
  int kb = blockIdx.y * kPerBlock, ke = min(K, kb + kPerBlock);
  float acc[M][8];
  #pragma unroll
  for (int m = 0; m < M; ++m)
    #pragma unroll
    for (int j = 0; j < 8; ++j) acc[m][j] = 0.f;
  if (col < N)
  for (int k = kb + w; k < ke; k += W * U) {
    uint4 bv[U];
    #pragma unroll
    for (int u = 0; u < U; ++u) {
      int kk = k + u * W;
      bv[u] = kk < ke ? __ldg((const uint4*)(B + (size_t)kk * N + col)) : make_uint4(0,0,0,0);
    }
    #pragma unroll
    for (int u = 0; u < U; ++u) {
      int kk = k + u * W;
      if (kk >= ke) break;
      const __half2* b2 = (const __half2*)&bv[u];
      #pragma unroll
      for (int m = 0; m < M; ++m) {
        float a = __half2float(A[(size_t)m * K + kk]);
        #pragma unroll
        for (int j = 0; j < 4; ++j) {
          float2 bf = __half22float2(b2[j]);
          acc[m][2*j] = fmaf(a, bf.x, acc[m][2*j]);
          acc[m][2*j+1] = fmaf(a, bf.y, acc[m][2*j+1]);
        }
      }
    }
  }
  #pragma unroll
  for (int m = 0; m < M; ++m)
    #pragma unroll
    for (int j = 0; j < 8; ++j) red[w][m][lane * 8 + j] = acc[m][j];
  __syncthreads();
  for (int i = threadIdx.x; i < M * 256; i += blockDim.x) {
    int m = i / 256, c = i % 256;
    float s = 0.f;
    for (int q = 0; q < W; ++q) s += red[q][m][c];
    if (blockIdx.x * 256 + c < N) atomicAdd(C + (size_t)m * N + blockIdx.x * 256 + c, s);
  }
}
#define INSTN(M,U) extern "C" __global__ void nn_##M##_##U(const __half* A, const __half* B, float* C, int N, int K, int kpb) { gemv_nn<M,U>(A,B,C,N,K,kpb); }
INSTN(1,2) INSTN(1,4) INSTN(1,8) INSTN(4,4)
'''
mod = cp.RawModule(code=SRC, options=("-std=c++17", "-arch=sm_90a"))
res = []
mod.get_function("tn_1_2_1")
def gb(t_ms, nbytes): return nbytes / (t_ms * 1e-3) / 1e9

big = torch.empty(1 << 29, dtype=torch.float16, device="cuda")
big2 = torch.empty_like(big)
t = time_fn(lambda: big2.copy_(big), 50)
copy1g = gb(t, 2 * big.numel() * 2)
print(f"1GiB copy: {copy1g:.0f} GB/s", flush=True)
del big, big2

for (M, N, K) in [(1, 4096, 4096), (1, 11008, 4096), (4, 14336, 4096),
                  (8, 11008, 4096), (16, 4096, 11008)]:
    A = torch.randn(M, K, device="cuda", dtype=torch.float16)
    Bt = torch.randn(N, K, device="cuda", dtype=torch.float16)   # tn: B as N x K
    Bn = torch.randn(K, N, device="cuda", dtype=torch.float16)   # nn: B as K x N
    nbytes = 2 * (M * K + N * K + M * N)
    ref_t = (A.double() @ Bt.double().T)
    ref_n = (A.double() @ Bn.double())
    t_cub_t = time_fn(lambda: torch.matmul(A, Bt.T))
    t_cub_n = time_fn(lambda: torch.matmul(A, Bn))
    src = torch.empty(nbytes // 4, dtype=torch.float16, device="cuda"); dst = torch.empty_like(src)
    t_copy = time_fn(lambda: dst.copy_(src))
    row = dict(shape=f"{M}x{N}x{K}", bytes=nbytes, copy_same_ms=t_copy, cublas_tn_ms=t_cub_t,
               cublas_nn_ms=t_cub_n, copy1g_gbs=copy1g)
    print(f"{M}x{N}x{K}: copy {t_copy*1e3:.1f}us cublas tn {t_cub_t*1e3:.1f} nn {t_cub_n*1e3:.1f}", flush=True)
    C = torch.empty(M, N, device="cuda", dtype=torch.float16)
    for name in [f"tn_{M}_{u}_{r}" for u in (1, 2, 4, 8) for r in (1, 2, 4)]:
        try: f = mod.get_function(name)
        except Exception as ex: continue
        R = int(name.split("_")[3])
        for threads in (128, 256):
            warps = (N + R - 1) // R
            grid = ((warps * 32 + threads - 1) // threads,)
            run = lambda: f(grid, (threads,), (A.data_ptr(), Bt.data_ptr(), C.data_ptr(), np.int32(N), np.int32(K)))
            C.fill_(float("nan")); run(); torch.cuda.synchronize()
            err = ((C.double() - ref_t).abs().max() / ref_t.abs().max()).item()
            tm = time_fn(run)
            row[f"{name}_t{threads}"] = tm
            print(f"  {name} t{threads}: {tm*1e3:.1f}us err {err:.1e} vs copy {t_copy/tm:.0%} of same-bytes, {gb(tm,nbytes)/copy1g:.0%} of 1GiB, cublas/ours {t_cub_t/tm:.2f}", flush=True)
    Cf = torch.zeros(M, N, device="cuda", dtype=torch.float32)
    for name in [f"nn_{M}_{u}" for u in (2, 4, 8)]:
        try: f = mod.get_function(name)
        except Exception: continue
        for ksplit in (4, 8, 16, 32):
            kpb = (K + ksplit - 1) // ksplit
            grid = ((N + 255) // 256, ksplit)
            run = lambda: f(grid, (256,), (A.data_ptr(), Bn.data_ptr(), Cf.data_ptr(), np.int32(N), np.int32(K), np.int32(kpb)))
            Cf.zero_(); run(); torch.cuda.synchronize()
            err = ((Cf.double() - ref_n).abs().max() / ref_n.abs().max()).item()
            tm = time_fn(run)
            row[f"{name}_s{ksplit}"] = tm
            print(f"  {name} split {ksplit}: {tm*1e3:.1f}us err {err:.1e} {t_copy/tm:.0%} of same-bytes, {gb(tm,nbytes)/copy1g:.0%} of 1GiB, cublas/ours {t_cub_n/tm:.2f}", flush=True)
    res.append(row)
import os
json.dump(res, open(os.environ.get("OUT", ".") + "/gemv_exp.json", "w"), indent=1)
