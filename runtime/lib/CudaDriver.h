//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The runtime builds without the CUDA toolkit: the few driver types,
// constants and entry points it uses are declared here (values as in
// cuda.h, CUDA 12/13) and resolved with dlopen/dlsym from libcuda.so.1 at
// the first device operation. GEMM_RUNTIME_CUDA_LIBRARY names another file
// to load (tests use it to run as if no driver were installed).
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_CUDADRIVER_H
#define GEMM_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

// The driver's handle types, with cuda.h's struct tags so that a program
// including cuda.h passes its handles unchanged.
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
struct CUmemPoolHandle_st;

namespace gemm::rt::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUevent = CUevent_st *;
using CUmemoryPool = CUmemPoolHandle_st *;

enum : int {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_DEINITIALIZED = 4,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
  CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
  CU_STREAM_NON_BLOCKING = 1,
  CU_EVENT_DISABLE_TIMING = 2,
  CU_MEM_ATTACH_GLOBAL = 1,
  CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4,
  CU_MEM_ALLOCATION_TYPE_PINNED = 1,
  CU_MEM_LOCATION_TYPE_DEVICE = 1,
};

enum : int {
  CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
  CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6,
};

/// CUlaunchAttribute: the id, padding to 8 bytes, and a 64-byte value union
/// (8-byte aligned: it holds pointers) of which an int and the cluster
/// dimensions are used here.
struct CUlaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  union {
    char bytes[64];
    int programmaticStreamSerializationAllowed;
    struct {
      unsigned x, y, z;
    } clusterDim;
    void *alignment;
  } value;
};
static_assert(sizeof(CUlaunchAttribute) == 72, "cuda.h's CUlaunchAttribute");

struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};

struct CUmemLocation {
  int type;
  int id;
};

/// CUmemPoolProps: its size is the same in every CUDA version since 11.2
/// (fields added since took bytes of `reserved`, which must be zero).
struct CUmemPoolProps {
  int allocType;
  int handleTypes;
  CUmemLocation location;
  void *win32SecurityAttributes;
  unsigned char reserved[64];
};

struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxGetDevice)(CUdevice *);
  CUresult (*cuCtxPushCurrent)(CUcontext);
  CUresult (*cuCtxPopCurrent)(CUcontext *);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemHostRegister)(void *, size_t, unsigned);
  CUresult (*cuMemHostUnregister)(void *);
  CUresult (*cuMemPoolCreate)(CUmemoryPool *, const CUmemPoolProps *);
  CUresult (*cuMemPoolDestroy)(CUmemoryPool);
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool, int, void *);
  CUresult (*cuMemPoolTrimTo)(CUmemoryPool, size_t);
  CUresult (*cuMemAllocFromPoolAsync)(CUdeviceptr *, size_t, CUmemoryPool,
                                      CUstream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuCtxSynchronize)();
  /// CUDA 12 and later; null when the driver has none (TMA kernels then
  /// get null tensor maps and copy element by element).
  CUresult (*cuTensorMapEncodeTiled)(void *, int, unsigned, void *,
                                     const uint64_t *, const uint64_t *,
                                     const unsigned *, const unsigned *, int,
                                     int, int, int);
  /// CUDA 12 and later; null when the driver has none (launches then take
  /// cuLaunchKernel without programmatic serialization).
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **,
                               void **);
};

/// The driver, loaded and initialized (cuInit) once per process; nullptr
/// with `error` set when libcuda.so.1 (or GEMM_RUNTIME_CUDA_LIBRARY) cannot
/// be loaded, lacks an entry point, or cuInit fails. Thread-safe.
const Driver *getDriver(std::string &error);

/// "CUDA_ERROR_INVALID_VALUE (invalid argument)".
std::string describeResult(const Driver &driver, CUresult result);

} // namespace gemm::rt::cuda

#endif // GEMM_RUNTIME_CUDADRIVER_H
