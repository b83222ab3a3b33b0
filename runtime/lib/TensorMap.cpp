//===- TensorMap.cpp - TMA tensor maps for `load = tma` kernels -----------===//

#include "TensorMap.h"

#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

using namespace gemm::rt;
using namespace gemm::rt::cuda;

namespace {
// cuda.h's CUtensorMapDataType, CUtensorMapSwizzle, ... values.
enum : int {
  kTmaUint8 = 0,
  kTmaFloat16 = 6,
  kTmaTfloat32 = 11,
  kTmaBfloat16 = 9,
  kTmaInterleaveNone = 0,
  kTmaSwizzle128B = 3,
  kTmaL2Promotion256B = 3,
  kTmaOobFillZero = 0,
};

/// The map's element type, -1 for a dtype TMA kernels do not read.
int tmaDataType(GemmRtDType type) {
  switch (type) {
  case GEMM_RT_DTYPE_F16:
    return kTmaFloat16;
  case GEMM_RT_DTYPE_BF16:
    return kTmaBfloat16;
  case GEMM_RT_DTYPE_F32:
    // f32 operands of TMA kernels run as tf32 (wgmma): the TMA unit rounds
    // them to tf32 as it loads them, as cuBLAS rounds (H200: tf32 4096^3
    // and 8192^3 error 1.00x cuBLAS's, against 2.65x truncated by wgmma).
    return kTmaTfloat32;
  case GEMM_RT_DTYPE_I8:
  case GEMM_RT_DTYPE_F8E4M3FN:
  case GEMM_RT_DTYPE_F8E5M2:
    return kTmaUint8;
  default:
    return -1;
  }
}
} // namespace

std::string gemm::rt::encodeTensorMap(const Driver &driver,
                                      const TensorMapOperand &operand,
                                      TensorMapBytes &out) {
  if (!driver.cuTensorMapEncodeTiled)
    return "the CUDA driver has no cuTensorMapEncodeTiled";
  int dataType = tmaDataType(operand.type);
  if (dataType < 0)
    return std::string("TMA kernels do not read ") +
           gemmRtDTypeGetName(operand.type) + " operands";
  int rank = operand.rank;
  if (rank < 2 || rank > 3)
    return "a tensor map needs a rank-2 or rank-3 operand, got rank " +
           std::to_string(rank);
  uint64_t elemBytes = gemmRtDTypeGetSize(operand.type);
  if (reinterpret_cast<uintptr_t>(operand.data) % 16 != 0)
    return "the operand's address is not 16-byte aligned";
  // TMA's dimensions are innermost first; the strides of all but the
  // innermost dimension are in bytes.
  uint64_t dims[3], strides[2];
  unsigned box[3], elementStrides[3] = {1, 1, 1};
  for (int d = 0; d < rank; ++d) {
    int from = rank - 1 - d;
    int64_t size = operand.sizes[from];
    if (size < 1 || uint64_t(size) > (uint64_t(1) << 32))
      return "dimension " + std::to_string(from) + " has " +
             std::to_string(size) +
             " elements, outside TMA's [1, 2^32]";
    dims[d] = uint64_t(size);
    int64_t b = operand.box[from];
    if (b < 1 || b > 256)
      return "box dimension " + std::to_string(from) + " is " +
             std::to_string(b) + ", outside TMA's [1, 256]";
    box[d] = unsigned(b);
  }
  if (operand.strides[rank - 1] != 1)
    return "the innermost stride is " +
           std::to_string(operand.strides[rank - 1]) + ", not 1";
  for (int d = 1; d < rank; ++d) {
    int64_t stride = operand.strides[rank - 1 - d];
    uint64_t bytes = uint64_t(stride) * elemBytes;
    if (stride < 1 || bytes % 16 != 0 || bytes >= (uint64_t(1) << 40))
      return "dimension " + std::to_string(rank - 1 - d) + " has a stride of " +
             std::to_string(stride) +
             " elements, not a positive multiple of 16 bytes";
    strides[d - 1] = bytes;
  }
  CUresult r = driver.cuTensorMapEncodeTiled(
      out.bytes.data(), dataType, unsigned(rank),
      const_cast<void *>(operand.data), dims, strides, box, elementStrides,
      kTmaInterleaveNone, kTmaSwizzle128B, kTmaL2Promotion256B,
      kTmaOobFillZero);
  if (r != CUDA_SUCCESS)
    return "cuTensorMapEncodeTiled failed: " + describeResult(driver, r);
  return "";
}

namespace {
/// The device copies of one context's maps, kMaxTensorMaps slots.
struct ContextMaps {
  CUdeviceptr slots = 0;
  size_t used = 0;
  std::unordered_map<std::string, CUdeviceptr> byBytes;
};
} // namespace

CUdeviceptr gemm::rt::deviceTensorMap(const Driver &driver,
                                      const TensorMapBytes &map,
                                      std::string &error) {
  // Never destroyed, like the driver table: host code may launch from
  // global destructors.
  static std::mutex &mutex = *new std::mutex;
  static auto &contexts = *new std::unordered_map<CUcontext, ContextMaps>;
  std::lock_guard<std::mutex> lock(mutex);
  CUcontext context = nullptr;
  CUresult r = driver.cuCtxGetCurrent(&context);
  if (r != CUDA_SUCCESS || !context) {
    error = "no current CUDA context for the tensor map";
    return 0;
  }
  ContextMaps &maps = contexts[context];
  std::string key(reinterpret_cast<const char *>(map.bytes.data()),
                  kTensorMapBytes);
  if (auto it = maps.byBytes.find(key); it != maps.byBytes.end())
    return it->second;
  if (!maps.slots) {
    r = driver.cuMemAlloc(&maps.slots, kMaxTensorMaps * kTensorMapBytes);
    if (r != CUDA_SUCCESS) {
      maps.slots = 0;
      error = "allocating the tensor map cache failed: " +
              describeResult(driver, r);
      return 0;
    }
  }
  if (maps.used == kMaxTensorMaps) {
    // Full: once nothing in flight can read a slot, start over.
    if ((r = driver.cuCtxSynchronize()) != CUDA_SUCCESS) {
      error = "cuCtxSynchronize failed: " + describeResult(driver, r);
      return 0;
    }
    maps.byBytes.clear();
    maps.used = 0;
  }
  CUdeviceptr slot = maps.slots + maps.used * kTensorMapBytes;
  // Synchronous, and waited for on the legacy stream: the map is in device
  // memory before any later launch, in any stream, reads it.
  if ((r = driver.cuMemcpyHtoD(slot, map.bytes.data(), kTensorMapBytes)) !=
          CUDA_SUCCESS ||
      (r = driver.cuStreamSynchronize(nullptr)) != CUDA_SUCCESS) {
    error = "copying a tensor map failed: " + describeResult(driver, r);
    return 0;
  }
  ++maps.used;
  maps.byBytes.emplace(std::move(key), slot);
  return slot;
}
