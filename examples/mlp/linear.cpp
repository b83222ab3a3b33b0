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

int usage(const char *program, bool asked = false) {
  std::fprintf(asked ? stdout : stderr,
               "usage: %s [--seed=N] [--repeat=N] [--shapes=MxNxK,...] "
               "[--list]\n",
               program);
  return asked ? 0 : 2;
}
} // namespace

int main(int argc, char **argv) {
  uint64_t seed = 42;
  int repeat = 5;
  bool list = false;
  std::vector<Shape> shapes(std::begin(kDefaultShapes),
                            std::end(kDefaultShapes));
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--seed=", 0) == 0) {
      seed = std::strtoull(arg.c_str() + 7, nullptr, 10);
    } else if (arg.rfind("--repeat=", 0) == 0) {
      repeat = std::max(0, std::atoi(arg.c_str() + 9));
    } else if (arg.rfind("--shapes=", 0) == 0) {
      shapes.clear();
      std::stringstream items(arg.substr(9));
      for (std::string item; std::getline(items, item, ',');) {
        int64_t sizes[3];
        if (!parseSizes(item, 3, sizes))
          return usage(argv[0]);
        shapes.push_back({sizes[0], sizes[1], sizes[2]});
      }
      if (shapes.empty())
        return usage(argv[0]);
    } else if (arg == "--list") {
      list = true;
    } else if (arg == "--help" || arg == "-h") {
      return usage(argv[0], /*asked=*/true);
    } else {
      return usage(argv[0]);
    }
  }
  if (list) {
    for (const Shape &s : shapes)
      std::printf("%lldx%lldx%lld\n", (long long)s.m, (long long)s.n,
                  (long long)s.k);
    return 0;
  }

  std::string results;
  int status = 0;
  for (const Shape &s : shapes) {
    if (!results.empty())
      results += ", ";
    int shapeStatus = runShape(s, seed, repeat, results);
    if (shapeStatus == 2) {
      std::printf("{\"example\": \"linear\", \"ok\": false, \"error\": \"no "
                  "device memory: is there a GPU and its driver?\"}\n");
      return 2;
    }
    status = std::max(status, shapeStatus);
  }
  std::printf("{\"example\": \"linear\", \"seed\": %llu, \"ok\": %s, "
              "\"results\": [%s]}\n",
              (unsigned long long)seed, status == 0 ? "true" : "false",
              results.c_str());
  return status;
}
