//===- Driver.h - What the example drivers share ----------------*- C++ -*-===//
//
// The host ABI of the code gemm-opt compiles (docs/user-guide.md, "The host
// ABI"): memref descriptors passed by pointer to `_mlir_ciface_<name>`, and
// the mgpu* entry points of libGemmRuntime.so, which the compiled host code
// calls too and which the drivers use for device memory. No CUDA header is
// needed: device pointers are plain `void *`.
//
// Besides: f16 <-> float conversion (bits in uint16_t, so that no compiler
// support for _Float16 is needed), device buffers, seeded random data, the
// error measures of the checks, and a JSON writer for the results line.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_EXAMPLES_MLP_DRIVER_H
#define GEMM_EXAMPLES_MLP_DRIVER_H

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

//===----------------------------------------------------------------------===//
// The host ABI
//===----------------------------------------------------------------------===//

/// MLIR's ranked memref descriptor (StridedMemRefType of
/// mlir/ExecutionEngine/CRunnerUtils.h): the C interface takes a pointer to
/// one per memref argument. For device memory both pointers are device
/// addresses; sizes and strides are in elements.
template <typename T, int Rank> struct MemRefDescriptor {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[Rank];
  int64_t strides[Rank];
};

/// A row-major (identity layout) descriptor of a buffer of `sizes`.
template <typename T, int Rank>
MemRefDescriptor<T, Rank> rowMajor(void *data, const int64_t (&sizes)[Rank]) {
  MemRefDescriptor<T, Rank> d;
  d.allocated = d.aligned = static_cast<T *>(data);
  d.offset = 0;
  int64_t stride = 1;
  for (int i = Rank - 1; i >= 0; --i) {
    d.sizes[i] = sizes[i];
    d.strides[i] = stride;
    stride *= sizes[i];
  }
  return d;
}

/// The mgpu* functions of libGemmRuntime.so, as MLIR 22's gpu-to-llvm
/// declares them (upstream's CudaRuntimeWrappers.cpp signatures).
extern "C" {
void *mgpuStreamCreate();
void mgpuStreamSynchronize(void *stream);
void mgpuStreamDestroy(void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
}

//===----------------------------------------------------------------------===//
// f16
//===----------------------------------------------------------------------===//

/// IEEE half (bits) to float.
inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) { // inf / NaN
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) { // normal
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) { // zero
    bits = sign;
  } else { // subnormal: renormalize
    int shift = 0;
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      ++shift;
    }
    mantissa &= 0x3ff;
    bits = sign | uint32_t(113 - shift) << 23 | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

/// Float to IEEE half (bits), rounding to nearest even.
inline uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  uint16_t sign = uint16_t((bits >> 16) & 0x8000);
  uint32_t abs = bits & 0x7fffffffu;
  if (abs >= 0x7f800000u) // inf / NaN
    return sign | 0x7c00 | (abs > 0x7f800000u ? 0x200 : 0);
  if (abs >= 0x477ff000u) // rounds to >= 65520: inf
    return sign | 0x7c00;
  if (abs < 0x38800000u) { // below the smallest normal half: subnormal
    if (abs < 0x33000000u) // below half the smallest subnormal
      return sign;
    uint32_t mantissa = (abs & 0x7fffff) | 0x800000;
    int shift = 126 - int(abs >> 23); // 14..24
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1)))
      ++half;
    return sign | uint16_t(half);
  }
  uint32_t half = ((abs - 0x38000000u) >> 13);
  uint32_t rest = abs & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return sign | uint16_t(half);
}

/// A quiet f16 NaN: what outputs are poisoned with before a call, so that an
/// element the kernels never write fails the check.
constexpr uint16_t kHalfPoison = 0x7e00;

//===----------------------------------------------------------------------===//
// Host and device data
//===----------------------------------------------------------------------===//

/// A host array of f16 with its values as float (the exact f16 values, for
/// the reference).
struct HalfArray {
  std::vector<uint16_t> bits;
  std::vector<double> values;

  explicit HalfArray(size_t n) : bits(n), values(n) {}
  size_t size() const { return bits.size(); }
  /// Uniform in [lo, hi), rounded to f16.
  void fillUniform(std::mt19937_64 &rng, double lo, double hi) {
    std::uniform_real_distribution<double> dist(lo, hi);
    for (size_t i = 0; i < size(); ++i) {
      bits[i] = floatToHalf(float(dist(rng)));
      values[i] = halfToFloat(bits[i]);
    }
  }
};

/// Device memory from mgpuMemAlloc, freed on destruction.
class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t bytes)
      : bytes(bytes), ptr(mgpuMemAlloc(bytes, nullptr, false)) {}
  ~DeviceBuffer() {
    if (ptr)
      mgpuMemFree(ptr, nullptr);
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  void *get() const { return ptr; }
  explicit operator bool() const { return ptr != nullptr; }
  size_t size() const { return bytes; }

private:
  size_t bytes;
  void *ptr;
};

/// Copies through a stream of the runtime's and waits for the copy: the
/// compiled host code runs its kernels on streams of its own that do not
/// synchronize with others.
class Copier {
public:
  Copier() : stream(mgpuStreamCreate()) {}
  ~Copier() {
    if (stream)
      mgpuStreamDestroy(stream);
  }
  Copier(const Copier &) = delete;
  Copier &operator=(const Copier &) = delete;

  explicit operator bool() const { return stream != nullptr; }
  void toDevice(const DeviceBuffer &dst, const void *src) {
    mgpuMemcpy(dst.get(), const_cast<void *>(src), dst.size(), stream);
    mgpuStreamSynchronize(stream);
  }
  void toHost(void *dst, const DeviceBuffer &src) {
    mgpuMemcpy(dst, src.get(), src.size(), stream);
    mgpuStreamSynchronize(stream);
  }

private:
  void *stream;
};

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// How far the f16 results are from the float64 reference.
struct ErrorMeasure {
  double relFrobenius = 0; ///< ||got - want||_F / ||want||_F
  double maxAbs = 0;       ///< max |got - want|
  size_t nonFinite = 0;    ///< results that are NaN or inf (poison left)
};

inline ErrorMeasure measure(const std::vector<uint16_t> &got,
                            const std::vector<double> &want) {
  ErrorMeasure e;
  double diff2 = 0, want2 = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double g = halfToFloat(got[i]);
    if (!std::isfinite(g)) {
      ++e.nonFinite;
      continue;
    }
    double d = g - want[i];
    diff2 += d * d;
    want2 += want[i] * want[i];
    e.maxAbs = std::max(e.maxAbs, std::fabs(d));
  }
  e.relFrobenius = want2 > 0 ? std::sqrt(diff2 / want2) : std::sqrt(diff2);
  return e;
}

/// Runs `body(row)` for rows [0, rows) on all cores.
template <typename Body> void parallelRows(int64_t rows, Body body) {
  int64_t workers = std::max<int64_t>(
      1, std::min<int64_t>(rows, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (int64_t w = 0; w < workers; ++w)
    threads.emplace_back([=] {
      for (int64_t row = w; row < rows; row += workers)
        body(row);
    });
  for (std::thread &t : threads)
    t.join();
}

/// Milliseconds of wall-clock time `call` takes (the compiled host
/// functions return once their kernels are done), the median of `repeat`.
template <typename Call> double medianMilliseconds(int repeat, Call call) {
  std::vector<double> times;
  for (int i = 0; i < repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    call();
    auto stop = std::chrono::steady_clock::now();
    times.push_back(
        std::chrono::duration<double, std::milli>(stop - start).count());
  }
  if (times.empty())
    return 0;
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// `value` as a JSON number (non-finite values as null).
inline std::string jsonNumber(double value) {
  if (!std::isfinite(value))
    return "null";
  char text[32];
  std::snprintf(text, sizeof(text), "%.6g", value);
  return text;
}

/// Parses "AxBxC..." into `count` positive sizes; false if it is not that.
inline bool parseSizes(const std::string &text, int count, int64_t *sizes) {
  size_t at = 0;
  for (int i = 0; i < count; ++i) {
    size_t end = text.find('x', at);
    if ((end == std::string::npos) != (i == count - 1))
      return false;
    std::string field = text.substr(
        at, end == std::string::npos ? std::string::npos : end - at);
    char *rest = nullptr;
    long long value = std::strtoll(field.c_str(), &rest, 10);
    if (field.empty() || *rest != '\0' || value <= 0)
      return false;
    sizes[i] = value;
    at = end + 1;
  }
  return true;
}

/// The command line and run loop both examples share:
///   PROGRAM [--seed=N] [--repeat=N] [--shapes=AxB...,...] [--list]
/// Each shape is N sizes in the order `syntax` names them ("MxNxK");
/// `runShape(sizes, seed, repeat, json)` runs one, appends its JSON object
/// and returns 0 (passed), 1 (failed) or 2 (no device memory). Prints one
/// JSON line for `example`; returns the exit status (2 also for a bad
/// command line).
template <size_t N, typename RunShape>
int driverMain(int argc, char **argv, const char *example, const char *syntax,
               std::vector<std::array<int64_t, N>> shapes, RunShape runShape) {
  auto usage = [&](bool asked) {
    std::fprintf(asked ? stdout : stderr,
                 "usage: %s [--seed=N] [--repeat=N] [--shapes=%s,...] "
                 "[--list]\n",
                 argv[0], syntax);
    return asked ? 0 : 2;
  };
  uint64_t seed = 42;
  int repeat = 5;
  bool list = false;
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
        std::array<int64_t, N> sizes;
        if (!parseSizes(item, int(N), sizes.data()))
          return usage(false);
        shapes.push_back(sizes);
      }
      if (shapes.empty())
        return usage(false);
    } else if (arg == "--list") {
      list = true;
    } else if (arg == "--help" || arg == "-h") {
      return usage(true);
    } else {
      return usage(false);
    }
  }
  if (list) {
    for (const std::array<int64_t, N> &sizes : shapes)
      for (size_t d = 0; d < N; ++d)
        std::printf("%lld%s", (long long)sizes[d], d + 1 < N ? "x" : "\n");
    return 0;
  }

  std::string results;
  int status = 0;
  for (const std::array<int64_t, N> &sizes : shapes) {
    if (!results.empty())
      results += ", ";
    int shapeStatus = runShape(sizes, seed, repeat, results);
    if (shapeStatus == 2) {
      std::printf("{\"example\": \"%s\", \"ok\": false, \"error\": \"no "
                  "device memory: is there a GPU and its driver?\"}\n",
                  example);
      return 2;
    }
    status = std::max(status, shapeStatus);
  }
  std::printf("{\"example\": \"%s\", \"seed\": %llu, \"ok\": %s, "
              "\"results\": [%s]}\n",
              example, (unsigned long long)seed, status == 0 ? "true" : "false",
              results.c_str());
  return status;
}

#endif // GEMM_EXAMPLES_MLP_DRIVER_H
