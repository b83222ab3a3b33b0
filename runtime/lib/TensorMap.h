//===- TensorMap.h - TMA tensor maps for `load = tma` kernels ---*- C++ -*-===//
//
// A `load = tma` kernel reads A and B through TMA tensor maps (CUtensorMap,
// 128 bytes) that the host encodes at launch time from the operands as the
// kernel sees them (after packing): the whole tensor, its innermost
// dimension contiguous, with the box the manifest's `tma` record gives and
// the 128-byte swizzle, out-of-bounds elements read as zeros. The kernel
// takes each map as a pointer to a copy in device memory, or null when TMA
// cannot address the operand (base or row pitch not a multiple of 16 bytes,
// a non-unit inner stride, more than 2^32 elements in a dimension, no
// cuTensorMapEncodeTiled in the driver): it then copies element by element.
//
// The device copies are cached per context by the map's bytes, so repeated
// launches on the same tensors encode on the host and copy nothing; a new
// map is copied synchronously (visible to every stream before any launch
// that uses it). The cache holds kMaxTensorMaps maps per context; when it
// is full it waits for the context to go idle and starts over.
// Used by the runtime's launches and by mgpuGemmTensorMap (host code from
// gemm-opt).
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_TENSORMAP_H
#define GEMM_RUNTIME_TENSORMAP_H

#include "CudaDriver.h"
#include "gemm-c/Runtime.h"

#include <array>
#include <cstdint>
#include <string>

namespace gemm::rt {

inline constexpr size_t kTensorMapBytes = 128;
inline constexpr size_t kMaxTensorMaps = 4096;

/// The encoded map, 64-byte aligned as cuTensorMapEncodeTiled wants it.
struct alignas(64) TensorMapBytes {
  std::array<unsigned char, kTensorMapBytes> bytes{};
};

/// An operand as the kernel sees it: `rank` sizes and strides (elements,
/// outermost first) and the box (outermost first, rank entries).
struct TensorMapOperand {
  GemmRtDType type = GEMM_RT_DTYPE_INVALID;
  int rank = 0;
  const void *data = nullptr;
  const int64_t *sizes = nullptr, *strides = nullptr, *box = nullptr;
};

/// Encodes the map of `operand` (128-byte swizzle, zero fill, 256-byte L2
/// promotion; f32 elements read as tf32, rounded to nearest). Returns an empty string on success, else why TMA cannot
/// address the operand.
std::string encodeTensorMap(const cuda::Driver &driver,
                            const TensorMapOperand &operand,
                            TensorMapBytes &out);

/// The device address of `map` in the current context, copying it on first
/// use; 0 with `error` set when the copy fails.
cuda::CUdeviceptr deviceTensorMap(const cuda::Driver &driver,
                                  const TensorMapBytes &map,
                                  std::string &error);

} // namespace gemm::rt

#endif // GEMM_RUNTIME_TENSORMAP_H
