//===- main.cpp - Run the compiled MLP block and check it -----------------===//
//
// The end-to-end program for examples/mlp_linalg.mlir:
//
//   H = GELU(X * W1^T + b1),  Y = H * W2^T + R      (f16, f32 accumulation)
//
// compiled by gemm-opt (gemm-from-linalg, two kernel families with fused
// epilogues, host code with run-time dispatch) into host.o and linked with
// this file and libGemmRuntime.so (scripts/build-executable.sh). For each
// shape M x K x F x N it fills X, W1, b1, W2 and R with seeded random
// values, poisons Y with NaN, calls the compiled function through its C
// interface `_mlir_ciface_mlp` on device buffers, copies Y back and checks
// every element against a float64 reference computed here: relative
// Frobenius error below 1e-2 and no element left unwritten. Prints one JSON
// line; exits 0 if every shape passed, 1 if one failed, 2 if there is no
// usable GPU.
//
//   mlp [--seed=N] [--repeat=N] [--shapes=MxKxFxN,...] [--list] [--help]
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <iostream>
#include <sstream>

/// The function gemm-opt compiled (examples/mlp_linalg.mlir):
/// mlp(X: M x K, W1: F x K, b1: F, W2: N x F, R: M x N, Y: M x N).
extern "C" void _mlir_ciface_mlp(MemRefDescriptor<uint16_t, 2> *x,
                                 MemRefDescriptor<uint16_t, 2> *w1,
                                 MemRefDescriptor<uint16_t, 1> *b1,
                                 MemRefDescriptor<uint16_t, 2> *w2,
                                 MemRefDescriptor<uint16_t, 2> *r,
                                 MemRefDescriptor<uint16_t, 2> *y);

namespace {
struct Shape {
  int64_t m, k, f, n;
};

/// Decode (M = 1: split-K on both GEMMs), ragged sizes (K, F, N not
/// multiples of 8: the packing path; F odd: the second GEMM's K too), a
/// small block, and larger aligned shapes for the default kernels.
const Shape kDefaultShapes[] = {
    {1, 4096, 1024, 4096}, {77, 300, 1000, 520},    {300, 1023, 1001, 517},
    {64, 64, 64, 64},      {128, 4096, 1024, 1024}, {512, 1024, 4096, 1024},
};

double gelu(double v) { return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))); }

/// Y = GELU(X W1^T + b1) W2^T + R in float64 from the f16 inputs.
std::vector<double> reference(const Shape &s, const HalfArray &x,
                              const HalfArray &w1, const HalfArray &b1,
                              const HalfArray &w2, const HalfArray &r) {
  std::vector<double> y(size_t(s.m * s.n));
  parallelRows(s.m, [&](int64_t row) {
    std::vector<double> h(size_t(s.f));
    const double *xr = &x.values[size_t(row * s.k)];
    for (int64_t f = 0; f < s.f; ++f) {
      const double *w = &w1.values[size_t(f * s.k)];
      double acc = 0;
      for (int64_t k = 0; k < s.k; ++k)
        acc += xr[k] * w[k];
      h[size_t(f)] = gelu(acc + b1.values[size_t(f)]);
    }
    for (int64_t n = 0; n < s.n; ++n) {
      const double *w = &w2.values[size_t(n * s.f)];
      double acc = 0;
      for (int64_t f = 0; f < s.f; ++f)
        acc += h[size_t(f)] * w[f];
      y[size_t(row * s.n + n)] = acc + r.values[size_t(row * s.n + n)];
    }
  });
  return y;
}

/// Runs and checks one shape; appends its JSON object to `json`. Returns
/// 0 (passed), 1 (wrong results) or 2 (no device memory).
int runShape(const Shape &s, uint64_t seed, int repeat, std::string &json) {
  std::mt19937_64 rng(seed ^
                      uint64_t(s.m * 1000003 + s.k * 10007 + s.f * 101 + s.n));
  HalfArray x(size_t(s.m * s.k)), w1(size_t(s.f * s.k)), b1(size_t(s.f)),
      w2(size_t(s.n * s.f)), r(size_t(s.m * s.n));
  // Weights scaled by 1/sqrt(fan-in) as in an initialized layer, so that
  // the pre-activations stay around 1 for every K and F.
  x.fillUniform(rng, -1.0, 1.0);
  w1.fillUniform(rng, -1.0 / std::sqrt(double(s.k)),
                 1.0 / std::sqrt(double(s.k)));
  b1.fillUniform(rng, -0.5, 0.5);
  w2.fillUniform(rng, -1.0 / std::sqrt(double(s.f)),
                 1.0 / std::sqrt(double(s.f)));
  r.fillUniform(rng, -1.0, 1.0);
  std::vector<uint16_t> y(size_t(s.m * s.n), kHalfPoison);

  DeviceBuffer dx(x.size() * 2), dw1(w1.size() * 2), db1(b1.size() * 2),
      dw2(w2.size() * 2), dr(r.size() * 2), dy(y.size() * 2);
  Copier copier;
  if (!dx || !dw1 || !db1 || !dw2 || !dr || !dy || !copier)
    return 2;
  copier.toDevice(dx, x.bits.data());
  copier.toDevice(dw1, w1.bits.data());
  copier.toDevice(db1, b1.bits.data());
  copier.toDevice(dw2, w2.bits.data());
  copier.toDevice(dr, r.bits.data());
  copier.toDevice(dy, y.data());

  auto mx = rowMajor<uint16_t, 2>(dx.get(), {s.m, s.k});
  auto mw1 = rowMajor<uint16_t, 2>(dw1.get(), {s.f, s.k});
  auto mb1 = rowMajor<uint16_t, 1>(db1.get(), {s.f});
  auto mw2 = rowMajor<uint16_t, 2>(dw2.get(), {s.n, s.f});
  auto mr = rowMajor<uint16_t, 2>(dr.get(), {s.m, s.n});
  auto my = rowMajor<uint16_t, 2>(dy.get(), {s.m, s.n});
  _mlir_ciface_mlp(&mx, &mw1, &mb1, &mw2, &mr, &my);
  copier.toHost(y.data(), dy);

  ErrorMeasure e = measure(y, reference(s, x, w1, b1, w2, r));
  bool ok = e.nonFinite == 0 && e.relFrobenius < 1e-2;
  double ms = medianMilliseconds(
      repeat, [&] { _mlir_ciface_mlp(&mx, &mw1, &mb1, &mw2, &mr, &my); });
  std::ostringstream os;
  os << "{\"M\": " << s.m << ", \"K\": " << s.k << ", \"F\": " << s.f
     << ", \"N\": " << s.n
     << ", \"rel_fro_error\": " << jsonNumber(e.relFrobenius)
     << ", \"max_abs_error\": " << jsonNumber(e.maxAbs)
     << ", \"nonfinite\": " << e.nonFinite
     << ", \"ok\": " << (ok ? "true" : "false")
     << ", \"ms\": " << jsonNumber(ms) << "}";
  json += os.str();
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::array<int64_t, 4>> shapes;
  for (const Shape &s : kDefaultShapes)
    shapes.push_back({s.m, s.k, s.f, s.n});
  return driverMain<4>(
      argc, argv, "mlp", "MxKxFxN", shapes,
      [](const std::array<int64_t, 4> &z, uint64_t seed, int repeat,
         std::string &json) {
        return runShape(Shape{z[0], z[1], z[2], z[3]}, seed, repeat, json);
      });
}
