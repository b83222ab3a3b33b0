//===- MgpuWrappers.cpp - The mgpu* ABI of upstream gpu-to-llvm -----------===//
//
// The host code that upstream MLIR 22's `gpu-to-llvm` (and the translation
// of gpu.binary / gpu.launch_func) emits calls these functions, which
// upstream implements in mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp
// (libmlir_cuda_runtime, not shipped by Debian). Same names, signatures
// (as MLIR 22 declares them: `mgpuModuleLoadJIT(ptr, i32)`,
// `mgpuLaunchKernel(..., i64 paramsCount)`, `mgpuMemAlloc(i64, ptr, i8)`)
// and behaviour: a failing driver call prints "'<call>' failed with
// '<CUDA_ERROR_...>'" to stderr and execution goes on; work runs in the
// default device's primary context, pushed for the duration of the call.
// Differences: the driver is loaded with dlopen (a missing driver is
// reported the same way, once per call), and each device's primary context
// is retained on first use (upstream retains one, for the device current at
// its first call).
//
// Do not link this library together with libmlir_cuda_runtime: both
// define these symbols.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"
#include "TensorMap.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#define MGPU_EXPORT extern "C" __attribute__((visibility("default")))

using namespace gemm::rt::cuda;
using namespace gemm::rt;

namespace {
thread_local int32_t defaultDevice = 0;

/// The driver, or nullptr after printing why it cannot be used.
const Driver *driverOrReport(const char *caller) {
  std::string error;
  const Driver *d = getDriver(error);
  if (!d)
    std::fprintf(stderr, "%s: %s\n", caller, error.c_str());
  return d;
}

void report(const Driver &d, const char *expr, CUresult result) {
  if (result == CUDA_SUCCESS)
    return;
  const char *name = nullptr;
  d.cuGetErrorName(result, &name);
  std::fprintf(stderr, "'%s' failed with '%s'\n", expr,
               name ? name : "<unknown>");
}

#define REPORT_IF_ERROR(d, expr) report(d, #expr, d.expr)

CUdevice getDefaultCuDevice(const Driver &d) {
  CUdevice device = 0;
  REPORT_IF_ERROR(d, cuDeviceGet(&device, /*ordinal=*/defaultDevice));
  return device;
}

/// Makes the primary context of the default device current for the
/// duration of the instance and restores the previous one after.
class ScopedContext {
public:
  explicit ScopedContext(const Driver &d) : d(d) {
    static std::mutex mutex;
    static CUcontext contexts[64] = {};
    CUcontext context = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex);
      int32_t ordinal = defaultDevice;
      if (ordinal >= 0 && ordinal < 64 && contexts[ordinal]) {
        context = contexts[ordinal];
      } else {
        // Note: this does not change the current context.
        REPORT_IF_ERROR(
            d, cuDevicePrimaryCtxRetain(&context, getDefaultCuDevice(d)));
        if (ordinal >= 0 && ordinal < 64)
          contexts[ordinal] = context;
      }
    }
    REPORT_IF_ERROR(d, cuCtxPushCurrent(context));
  }
  ~ScopedContext() {
    CUcontext popped = nullptr;
    REPORT_IF_ERROR(d, cuCtxPopCurrent(&popped));
  }

private:
  const Driver &d;
};
} // namespace

MGPU_EXPORT CUmodule mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  const Driver *d = driverOrReport("mgpuModuleLoad");
  if (!d)
    return nullptr;
  ScopedContext scopedContext(*d);
  CUmodule module = nullptr;
  REPORT_IF_ERROR((*d), cuModuleLoadData(&module, data));
  return module;
}

MGPU_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  const Driver *d = driverOrReport("mgpuModuleLoadJIT");
  if (!d)
    return nullptr;
  ScopedContext scopedContext(*d);
  CUmodule module = nullptr;
  char jitErrorBuffer[4096] = {0};
  int jitOptions[] = {CU_JIT_ERROR_LOG_BUFFER,
                      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                      CU_JIT_OPTIMIZATION_LEVEL};
  void *jitOptionsVals[] = {jitErrorBuffer,
                            reinterpret_cast<void *>(sizeof(jitErrorBuffer)),
                            reinterpret_cast<void *>(intptr_t(optLevel))};
  CUresult result =
      d->cuModuleLoadDataEx(&module, data, 3, jitOptions, jitOptionsVals);
  if (result) {
    std::fprintf(stderr, "JIT compilation failed with: '%s'\n", jitErrorBuffer);
    report(*d,
           "cuModuleLoadDataEx(&module, data, 3, jitOptions, "
           "jitOptionsVals)",
           result);
  }
  return module;
}

MGPU_EXPORT void mgpuModuleUnload(CUmodule module) {
  const Driver *d = driverOrReport("mgpuModuleUnload");
  if (!d)
    return;
  // Tolerate CUDA_ERROR_DEINITIALIZED: this can run from a global
  // destructor after the primary context was torn down.
  CUresult result = d->cuModuleUnload(module);
  if (result != CUDA_ERROR_DEINITIALIZED)
    report(*d, "cuModuleUnload(module)", result);
}

MGPU_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                             const char *name) {
  const Driver *d = driverOrReport("mgpuModuleGetFunction");
  if (!d)
    return nullptr;
  CUfunction function = nullptr;
  REPORT_IF_ERROR((*d), cuModuleGetFunction(&function, module, name));
  return function;
}

/// Above 48 KiB a kernel must opt in to its dynamic shared memory.
static void setDynamicSharedMemory(const Driver &d, CUfunction function,
                                   int32_t smem) {
  if (smem <= 0)
    return;
  int32_t maxShmem = 0;
  CUdevice device = getDefaultCuDevice(d);
  REPORT_IF_ERROR(d, cuDeviceGetAttribute(
                         &maxShmem,
                         CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                         device));
  if (maxShmem < smem)
    std::fprintf(stderr,
                 "Requested shared memory (%dkb) is larger than maximum "
                 "allowed shared memory (%dkb) for this device\n",
                 smem, maxShmem);
  REPORT_IF_ERROR(
      d, cuFuncSetAttribute(
             function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem));
}

// intptr_t rather than CUDA's unsigned int: MLIR's index type.
MGPU_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                  intptr_t gridY, intptr_t gridZ,
                                  intptr_t blockX, intptr_t blockY,
                                  intptr_t blockZ, int32_t smem,
                                  CUstream stream, void **params, void **extra,
                                  size_t /*paramsCount*/) {
  const Driver *d = driverOrReport("mgpuLaunchKernel");
  if (!d)
    return;
  ScopedContext scopedContext(*d);
  setDynamicSharedMemory(*d, function, smem);
  REPORT_IF_ERROR((*d),
                  cuLaunchKernel(function, unsigned(gridX), unsigned(gridY),
                                 unsigned(gridZ), unsigned(blockX),
                                 unsigned(blockY), unsigned(blockZ),
                                 unsigned(smem), stream, params, extra));
}

// gpu.launch_func with `clusters in (...)` (split-K kernels with
// `reduction = cluster`): the same launch through cuLaunchKernelEx with the
// cluster dimensions as a launch attribute.
MGPU_EXPORT void mgpuLaunchClusterKernel(
    CUfunction function, intptr_t clusterX, intptr_t clusterY,
    intptr_t clusterZ, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
    intptr_t blockX, intptr_t blockY, intptr_t blockZ, int32_t smem,
    CUstream stream, void **params, void **extra, size_t /*paramsCount*/) {
  const Driver *d = driverOrReport("mgpuLaunchClusterKernel");
  if (!d)
    return;
  if (!d->cuLaunchKernelEx) {
    std::fprintf(stderr, "'mgpuLaunchClusterKernel' failed: the CUDA driver "
                         "has no cuLaunchKernelEx\n");
    return;
  }
  ScopedContext scopedContext(*d);
  setDynamicSharedMemory(*d, function, smem);
  CUlaunchAttribute attr{};
  attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attr.value.clusterDim.x = unsigned(clusterX);
  attr.value.clusterDim.y = unsigned(clusterY);
  attr.value.clusterDim.z = unsigned(clusterZ);
  CUlaunchConfig config{unsigned(gridX),
                        unsigned(gridY),
                        unsigned(gridZ),
                        unsigned(blockX),
                        unsigned(blockY),
                        unsigned(blockZ),
                        unsigned(smem),
                        stream,
                        &attr,
                        1};
  REPORT_IF_ERROR((*d), cuLaunchKernelEx(&config, function, params, extra));
}

// The tensor map of a `load = tma` kernel's operand (TensorMap.h): the
// device address of the map of the rank-`rank` memref with aligned pointer
// `aligned`, `offset` elements in, sizes and strides (elements, outermost
// first; the first `rank` of each count), read in boxes of `box`; null when
// TMA cannot address the operand, and the kernel then copies through
// cp.async. `dtype` is a GemmRtDType.
MGPU_EXPORT void *mgpuGemmTensorMap(int64_t dtype, int64_t rank, char *aligned,
                                    int64_t offset, int64_t size0,
                                    int64_t size1, int64_t size2,
                                    int64_t stride0, int64_t stride1,
                                    int64_t stride2, int64_t box0, int64_t box1,
                                    int64_t box2) {
  const Driver *d = driverOrReport("mgpuGemmTensorMap");
  if (!d)
    return nullptr;
  ScopedContext scopedContext(*d);
  auto type = static_cast<GemmRtDType>(dtype);
  const int64_t sizes[] = {size0, size1, size2};
  const int64_t strides[] = {stride0, stride1, stride2};
  const int64_t box[] = {box0, box1, box2};
  TensorMapOperand operand;
  operand.type = type;
  operand.rank = int(rank);
  operand.data = aligned + offset * int64_t(gemmRtDTypeGetSize(type));
  operand.sizes = sizes;
  operand.strides = strides;
  operand.box = box;
  TensorMapBytes map;
  if (!encodeTensorMap(*d, operand, map).empty())
    return nullptr;
  std::string error;
  CUdeviceptr p = deviceTensorMap(*d, map, error);
  if (!p)
    std::fprintf(stderr, "'mgpuGemmTensorMap' failed: %s\n", error.c_str());
  return reinterpret_cast<void *>(uintptr_t(p));
}

MGPU_EXPORT CUstream mgpuStreamCreate() {
  const Driver *d = driverOrReport("mgpuStreamCreate");
  if (!d)
    return nullptr;
  ScopedContext scopedContext(*d);
  CUstream stream = nullptr;
  REPORT_IF_ERROR((*d), cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  return stream;
}

MGPU_EXPORT void mgpuStreamDestroy(CUstream stream) {
  if (const Driver *d = driverOrReport("mgpuStreamDestroy"))
    REPORT_IF_ERROR((*d), cuStreamDestroy(stream));
}

MGPU_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  if (const Driver *d = driverOrReport("mgpuStreamSynchronize"))
    REPORT_IF_ERROR((*d), cuStreamSynchronize(stream));
}

MGPU_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  if (const Driver *d = driverOrReport("mgpuStreamWaitEvent"))
    REPORT_IF_ERROR((*d), cuStreamWaitEvent(stream, event, /*flags=*/0));
}

MGPU_EXPORT CUevent mgpuEventCreate() {
  const Driver *d = driverOrReport("mgpuEventCreate");
  if (!d)
    return nullptr;
  ScopedContext scopedContext(*d);
  CUevent event = nullptr;
  REPORT_IF_ERROR((*d), cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  return event;
}

MGPU_EXPORT void mgpuEventDestroy(CUevent event) {
  if (const Driver *d = driverOrReport("mgpuEventDestroy"))
    REPORT_IF_ERROR((*d), cuEventDestroy(event));
}

MGPU_EXPORT void mgpuEventSynchronize(CUevent event) {
  if (const Driver *d = driverOrReport("mgpuEventSynchronize"))
    REPORT_IF_ERROR((*d), cuEventSynchronize(event));
}

MGPU_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  if (const Driver *d = driverOrReport("mgpuEventRecord"))
    REPORT_IF_ERROR((*d), cuEventRecord(event, stream));
}

MGPU_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/,
                               bool isHostShared) {
  const Driver *d = driverOrReport("mgpuMemAlloc");
  if (!d)
    return nullptr;
  ScopedContext scopedContext(*d);
  CUdeviceptr ptr = 0;
  if (sizeBytes == 0)
    return reinterpret_cast<void *>(ptr);
  if (isHostShared) {
    REPORT_IF_ERROR((*d),
                    cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL));
    return reinterpret_cast<void *>(ptr);
  }
  REPORT_IF_ERROR((*d), cuMemAlloc(&ptr, sizeBytes));
  return reinterpret_cast<void *>(ptr);
}

MGPU_EXPORT void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  if (const Driver *d = driverOrReport("mgpuMemFree"))
    REPORT_IF_ERROR((*d), cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
}

MGPU_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                            CUstream stream) {
  if (const Driver *d = driverOrReport("mgpuMemcpy"))
    REPORT_IF_ERROR((*d), cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                        reinterpret_cast<CUdeviceptr>(src),
                                        sizeBytes, stream));
}

MGPU_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                              CUstream stream) {
  if (const Driver *d = driverOrReport("mgpuMemset32"))
    REPORT_IF_ERROR((*d), cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst),
                                           value, count, stream));
}

MGPU_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                              CUstream stream) {
  if (const Driver *d = driverOrReport("mgpuMemset16"))
    REPORT_IF_ERROR((*d), cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst),
                                           value, count, stream));
}

/// Registers host memory with the CUDA runtime (examples' helper upstream).
MGPU_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  const Driver *d = driverOrReport("mgpuMemHostRegister");
  if (!d)
    return;
  ScopedContext scopedContext(*d);
  REPORT_IF_ERROR((*d), cuMemHostRegister(ptr, sizeBytes, /*flags=*/0));
}

MGPU_EXPORT void mgpuMemHostUnregister(void *ptr) {
  const Driver *d = driverOrReport("mgpuMemHostUnregister");
  if (!d)
    return;
  ScopedContext scopedContext(*d);
  REPORT_IF_ERROR((*d), cuMemHostUnregister(ptr));
}

MGPU_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  defaultDevice = device;
}
