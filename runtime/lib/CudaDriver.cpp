//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
//
// Entry points whose cuda.h name is a macro for a versioned symbol
// (cuCtxPushCurrent -> cuCtxPushCurrent_v2, ...) are looked up by the
// versioned name, as a program compiled against cuda.h would link them.
// The legacy-default-stream variants are used (not _ptsz): a null stream is
// the legacy default stream, as for the upstream MLIR wrappers.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace gemm::rt::cuda;

namespace {
struct Loaded {
  Driver driver{};
  std::string error;
  bool ok = false;
};

template <typename F>
bool lookup(void *handle, const char *name, F &out, std::string &missing) {
  out = reinterpret_cast<F>(::dlsym(handle, name));
  if (!out && missing.empty())
    missing = name;
  return out != nullptr;
}

void load(Loaded &l) {
  const char *override = std::getenv("GEMM_RUNTIME_CUDA_LIBRARY");
  std::string library =
      override && *override ? std::string(override) : "libcuda.so.1";
  // RTLD_LOCAL: the driver's symbols stay out of the global namespace.
  void *handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = ::dlerror();
    l.error = "cannot load the CUDA driver library '" + library +
              "': " + (why ? why : "unknown error") +
              " (an NVIDIA driver is needed to launch kernels; loading a "
              "module parse-only is not)";
    return;
  }
  Driver &d = l.driver;
  std::string missing;
  lookup(handle, "cuInit", d.cuInit, missing);
  lookup(handle, "cuGetErrorName", d.cuGetErrorName, missing);
  lookup(handle, "cuGetErrorString", d.cuGetErrorString, missing);
  lookup(handle, "cuDeviceGet", d.cuDeviceGet, missing);
  lookup(handle, "cuDeviceGetAttribute", d.cuDeviceGetAttribute, missing);
  lookup(handle, "cuCtxGetCurrent", d.cuCtxGetCurrent, missing);
  lookup(handle, "cuCtxSetCurrent", d.cuCtxSetCurrent, missing);
  lookup(handle, "cuCtxGetDevice", d.cuCtxGetDevice, missing);
  lookup(handle, "cuCtxPushCurrent_v2", d.cuCtxPushCurrent, missing);
  lookup(handle, "cuCtxPopCurrent_v2", d.cuCtxPopCurrent, missing);
  lookup(handle, "cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain,
         missing);
  lookup(handle, "cuDevicePrimaryCtxRelease_v2", d.cuDevicePrimaryCtxRelease,
         missing);
  lookup(handle, "cuModuleLoadData", d.cuModuleLoadData, missing);
  lookup(handle, "cuModuleLoadDataEx", d.cuModuleLoadDataEx, missing);
  lookup(handle, "cuModuleUnload", d.cuModuleUnload, missing);
  lookup(handle, "cuModuleGetFunction", d.cuModuleGetFunction, missing);
  lookup(handle, "cuFuncSetAttribute", d.cuFuncSetAttribute, missing);
  lookup(handle, "cuLaunchKernel", d.cuLaunchKernel, missing);
  lookup(handle, "cuStreamCreate", d.cuStreamCreate, missing);
  lookup(handle, "cuStreamDestroy_v2", d.cuStreamDestroy, missing);
  lookup(handle, "cuStreamSynchronize", d.cuStreamSynchronize, missing);
  lookup(handle, "cuStreamWaitEvent", d.cuStreamWaitEvent, missing);
  lookup(handle, "cuEventCreate", d.cuEventCreate, missing);
  lookup(handle, "cuEventDestroy_v2", d.cuEventDestroy, missing);
  lookup(handle, "cuEventSynchronize", d.cuEventSynchronize, missing);
  lookup(handle, "cuEventRecord", d.cuEventRecord, missing);
  lookup(handle, "cuMemAlloc_v2", d.cuMemAlloc, missing);
  lookup(handle, "cuMemAllocManaged", d.cuMemAllocManaged, missing);
  lookup(handle, "cuMemFree_v2", d.cuMemFree, missing);
  lookup(handle, "cuMemcpyAsync", d.cuMemcpyAsync, missing);
  lookup(handle, "cuMemsetD16Async", d.cuMemsetD16Async, missing);
  lookup(handle, "cuMemsetD32Async", d.cuMemsetD32Async, missing);
  lookup(handle, "cuMemHostRegister_v2", d.cuMemHostRegister, missing);
  lookup(handle, "cuMemHostUnregister", d.cuMemHostUnregister, missing);
  lookup(handle, "cuMemPoolCreate", d.cuMemPoolCreate, missing);
  lookup(handle, "cuMemPoolDestroy", d.cuMemPoolDestroy, missing);
  lookup(handle, "cuMemPoolSetAttribute", d.cuMemPoolSetAttribute, missing);
  lookup(handle, "cuMemPoolTrimTo", d.cuMemPoolTrimTo, missing);
  lookup(handle, "cuMemAllocFromPoolAsync", d.cuMemAllocFromPoolAsync, missing);
  lookup(handle, "cuMemFreeAsync", d.cuMemFreeAsync, missing);
  lookup(handle, "cuMemcpyHtoD_v2", d.cuMemcpyHtoD, missing);
  lookup(handle, "cuCtxSynchronize", d.cuCtxSynchronize, missing);
  // Optional: TMA kernels need it (they copy element by element without it).
  d.cuTensorMapEncodeTiled =
      reinterpret_cast<decltype(d.cuTensorMapEncodeTiled)>(
          ::dlsym(handle, "cuTensorMapEncodeTiled"));
  // Optional: programmatic dependent launch needs it.
  d.cuLaunchKernelEx = reinterpret_cast<decltype(d.cuLaunchKernelEx)>(
      ::dlsym(handle, "cuLaunchKernelEx"));
  if (!missing.empty()) {
    l.error = "the CUDA driver library '" + library + "' has no entry point '" +
              missing + "' (a driver for CUDA 11.2 or newer is needed)";
    return;
  }
  CUresult status = d.cuInit(0);
  if (status != CUDA_SUCCESS) {
    l.error = "cuInit failed: " + describeResult(d, status);
    return;
  }
  l.ok = true;
  // The handle stays open for the life of the process.
}
} // namespace

const Driver *gemm::rt::cuda::getDriver(std::string &error) {
  // Never destroyed: host code from gpu-to-llvm unloads its modules from a
  // global destructor (mgpuModuleUnload), which may run after this
  // function's statics would have been destroyed.
  static Loaded &loaded = *new Loaded;
  static std::once_flag once;
  std::call_once(once, [] { load(loaded); });
  if (!loaded.ok) {
    error = loaded.error;
    return nullptr;
  }
  return &loaded.driver;
}

std::string gemm::rt::cuda::describeResult(const Driver &driver,
                                           CUresult result) {
  const char *name = nullptr, *text = nullptr;
  if (driver.cuGetErrorName)
    driver.cuGetErrorName(result, &name);
  if (driver.cuGetErrorString)
    driver.cuGetErrorString(result, &text);
  std::string out = name ? name : "CUresult " + std::to_string(result);
  if (text)
    out += std::string(" (") + text + ")";
  return out;
}
