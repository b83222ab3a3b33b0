//===- linear.cpp - Run the compiled linear layer and check it ------------===//
//
// The smallest end-to-end program: examples/gemm_f16_tn.mlir, one
// gemm.matmul written directly,
//
//   C = relu(A * B^T + bias)      (A: M x K, B: N x K, bias: N f32, f16 out)
//
// compiled into host.o and linked with this file and libGemmRuntime.so
// (scripts/build-executable.sh). Per shape M x N x K: seeded random A, B
// and bias, C poisoned with NaN, a call of `_mlir_ciface_linear`, and every
// element of C checked against a float64 reference (relative Frobenius
// error below 1e-2, nothing left unwritten). Prints one JSON line; exits 0
// if every shape passed, 1 if one failed, 2 if there is no usable GPU.
//
//   linear [--seed=N] [--repeat=N] [--shapes=MxNxK,...] [--list] [--help]
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <sstream>

/// The function gemm-opt compiled (examples/gemm_f16_tn.mlir).
extern "C" void _mlir_ciface_linear(MemRefDescriptor<uint16_t, 2> *a,
                                    MemRefDescriptor<uint16_t, 2> *b,
                                    MemRefDescriptor<uint16_t, 2> *c,
                                    MemRefDescriptor<float, 1> *bias);

namespace {
struct Shape {
  int64_t m, n, k;
};

/// Decode (split-K), ragged sizes (K = 300 and 1023: packing), a narrow N,
/// and a larger aligned shape.
const Shape kDefaultShapes[] = {{1, 4096, 4096},
                                {77, 520, 300},
                                {300, 517, 1023},
                                {1000, 48, 777},
                                {512, 1024, 2048}};

/// relu(A B^T + bias) in float64 from the f16 inputs.
std::vector<double> reference(const Shape &s, const HalfArray &a,
                              const HalfArray &b,
                              const std::vector<float> &bias) {
  std::vector<double> c(size_t(s.m * s.n));
  parallelRows(s.m, [&](int64_t row) {
    const double *ar = &a.values[size_t(row * s.k)];
    for (int64_t n = 0; n < s.n; ++n) {
      const double *br = &b.values[size_t(n * s.k)];
      double acc = 0;
      for (int64_t k = 0; k < s.k; ++k)
        acc += ar[k] * br[k];
      c[size_t(row * s.n + n)] = std::max(0.0, acc + double(bias[size_t(n)]));
    }
  });
  return c;
}

int runShape(const Shape &s, uint64_t seed, int repeat, std::string &json) {
  std::mt19937_64 rng(seed ^ uint64_t(s.m * 1000003 + s.n * 1009 + s.k));
  HalfArray a(size_t(s.m * s.k)), b(size_t(s.n * s.k));
  a.fillUniform(rng, -1.0, 1.0);
  b.fillUniform(rng, -1.0 / std::sqrt(double(s.k)),
                1.0 / std::sqrt(double(s.k)));
  std::vector<float> bias(size_t(s.n));
  std::uniform_real_distribution<float> biasDist(-0.5f, 0.5f);
  for (float &v : bias)
    v = biasDist(rng);
  std::vector<uint16_t> c(size_t(s.m * s.n), kHalfPoison);

  DeviceBuffer da(a.size() * 2), db(b.size() * 2), dc(c.size() * 2),
      dbias(bias.size() * 4);
  Copier copier;
  if (!da || !db || !dc || !dbias || !copier)
    return 2;
  copier.toDevice(da, a.bits.data());
  copier.toDevice(db, b.bits.data());
  copier.toDevice(dc, c.data());
  copier.toDevice(dbias, bias.data());

  auto ma = rowMajor<uint16_t, 2>(da.get(), {s.m, s.k});
  auto mb = rowMajor<uint16_t, 2>(db.get(), {s.n, s.k});
  auto mc = rowMajor<uint16_t, 2>(dc.get(), {s.m, s.n});
  auto mbias = rowMajor<float, 1>(dbias.get(), {s.n});
  _mlir_ciface_linear(&ma, &mb, &mc, &mbias);
  copier.toHost(c.data(), dc);

  ErrorMeasure e = measure(c, reference(s, a, b, bias));
  bool ok = e.nonFinite == 0 && e.relFrobenius < 1e-2;
  double ms = medianMilliseconds(
      repeat, [&] { _mlir_ciface_linear(&ma, &mb, &mc, &mbias); });
  std::ostringstream os;
  os << "{\"M\": " << s.m << ", \"N\": " << s.n << ", \"K\": " << s.k
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
  std::vector<std::array<int64_t, 3>> shapes;
  for (const Shape &s : kDefaultShapes)
    shapes.push_back({s.m, s.n, s.k});
  return driverMain<3>(
      argc, argv, "linear", "MxNxK", shapes,
      [](const std::array<int64_t, 3> &z, uint64_t seed, int repeat,
         std::string &json) {
        return runShape(Shape{z[0], z[1], z[2]}, seed, repeat, json);
      });
}
