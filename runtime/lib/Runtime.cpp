//===- Runtime.cpp - The gemm-c/Runtime.h C API ---------------------------===//
//
// A module is its validated manifest plus, on a device, the CUDA modules,
// the functions of every family member (GEMM, reduction, pack kernels) and a
// memory pool for workspaces, all resolved at load. A launch is then
// argument checks, the dispatch rules, the kernel parameters built on the
// stack, one stream-ordered allocation (pack and split-K workspaces
// together, when any is needed), the launches and the stream-ordered free:
// no other allocation, lock or manifest work per call.
//
// Everything here mirrors the host code of
// lib/Conversion/KernelCommon/Launch.cpp and Pack.cpp (docs/dispatch.md,
// "Launching a family"); python/gemm_mlir/harness.py launches through it.
//
//===----------------------------------------------------------------------===//

#include "gemm-c/Runtime.h"

#include "CudaDriver.h"
#include "Manifest.h"
#include "TensorMap.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>

using namespace gemm::rt;
using namespace gemm::rt::cuda;

//===----------------------------------------------------------------------===//
// Errors and element types
//===----------------------------------------------------------------------===//

namespace {
thread_local std::string lastError;

GemmRtStatus fail(GemmRtStatus status, std::string message) {
  lastError = std::move(message);
  return status;
}

struct DTypeInfo {
  GemmRtDType dtype;
  const char *name;
  size_t size;
};

const DTypeInfo kDTypes[] = {
    {GEMM_RT_DTYPE_F16, "f16", 2},
    {GEMM_RT_DTYPE_BF16, "bf16", 2},
    {GEMM_RT_DTYPE_F32, "f32", 4},
    {GEMM_RT_DTYPE_F64, "f64", 8},
    {GEMM_RT_DTYPE_I8, "i8", 1},
    {GEMM_RT_DTYPE_I16, "i16", 2},
    {GEMM_RT_DTYPE_I32, "i32", 4},
    {GEMM_RT_DTYPE_I64, "i64", 8},
    {GEMM_RT_DTYPE_INDEX, "index", 8},
    {GEMM_RT_DTYPE_F8E4M3FN, "f8E4M3FN", 1},
    {GEMM_RT_DTYPE_F8E5M2, "f8E5M2", 1},
    {GEMM_RT_DTYPE_F8E4M3FNUZ, "f8E4M3FNUZ", 1},
    {GEMM_RT_DTYPE_F8E5M2FNUZ, "f8E5M2FNUZ", 1},
};

const DTypeInfo *dtypeInfo(GemmRtDType dtype) {
  for (const DTypeInfo &info : kDTypes)
    if (info.dtype == dtype)
      return &info;
  return nullptr;
}

std::string dtypeName(int32_t dtype) {
  for (const DTypeInfo &info : kDTypes)
    if (int32_t(info.dtype) == dtype)
      return info.name;
  return "dtype code " + std::to_string(dtype);
}
} // namespace

const char *gemmRtGetLastError(void) { return lastError.c_str(); }

const char *gemmRtStatusGetName(GemmRtStatus status) {
  switch (status) {
  case GEMM_RT_SUCCESS:
    return "success";
  case GEMM_RT_ERROR_INVALID_ARGUMENT:
    return "invalid argument";
  case GEMM_RT_ERROR_INVALID_MANIFEST:
    return "invalid manifest";
  case GEMM_RT_ERROR_NOT_FOUND:
    return "not found";
  case GEMM_RT_ERROR_NO_DEVICE:
    return "no device";
  case GEMM_RT_ERROR_DRIVER:
    return "driver error";
  case GEMM_RT_ERROR_NOT_LOADED:
    return "not loaded on a device";
  }
  return "unknown status";
}

int32_t gemmRtGetAbiVersion(void) { return GEMM_RT_ABI_VERSION; }

const char *gemmRtDTypeGetName(GemmRtDType dtype) {
  const DTypeInfo *info = dtypeInfo(dtype);
  return info ? info->name : nullptr;
}

GemmRtDType gemmRtDTypeFromName(const char *name) {
  if (name)
    for (const DTypeInfo &info : kDTypes)
      if (std::strcmp(info.name, name) == 0)
        return info.dtype;
  return GEMM_RT_DTYPE_INVALID;
}

size_t gemmRtDTypeGetSize(GemmRtDType dtype) {
  const DTypeInfo *info = dtypeInfo(dtype);
  return info ? info->size : 0;
}

//===----------------------------------------------------------------------===//
// Module and function state
//===----------------------------------------------------------------------===//

namespace {
/// The kernel parameters of one launch, in MLIR's calling convention: a
/// memref expands to (allocated ptr, aligned ptr, offset, sizes...,
/// strides...), a scalar is its value; each value gets an 8-byte slot.
struct KernelParams {
  static constexpr size_t kCapacity = 256;
  uint64_t slots[kCapacity];
  void *pointers[kCapacity];
  size_t size = 0;

  void addMemRef(const void *data, int64_t rank, const int64_t *sizes,
                 const int64_t *strides) {
    uint64_t address = uint64_t(reinterpret_cast<uintptr_t>(data));
    push(address);
    push(address);
    push(0);
    for (int64_t d = 0; d < rank; ++d)
      push(uint64_t(sizes[d]));
    for (int64_t d = 0; d < rank; ++d)
      push(uint64_t(strides[d]));
  }
  void addScalar(const GemmRtScalar &value, size_t bytes) {
    uint64_t slot = 0;
    std::memcpy(&slot, &value, bytes); // little-endian: the low bytes
    push(slot);
  }

private:
  void push(uint64_t value) {
    slots[size] = value;
    pointers[size] = &slots[size];
    ++size;
  }
};

/// Slots a parameter list takes (checked against the capacity at load).
size_t countSlots(const std::vector<Param> &params) {
  size_t n = 0;
  for (const Param &p : params)
    n += p.isMemRef ? 3 + 2 * size_t(p.rank) : 1;
  return n;
}

struct Member {
  const KernelEntry *entry = nullptr;
  CUfunction gemm = nullptr;
  CUfunction reduce = nullptr;
  CUfunction pack[2] = {nullptr, nullptr};
};
} // namespace

struct GemmRtFunctionImpl {
  GemmRtModuleImpl *module = nullptr;
  const Family *family = nullptr;
  std::vector<Member> members;
  /// A is K x M for nt and tt, B is N x K for tn and tt (docs/dialect.md).
  bool aIsKM = false, bIsNK = false;
  /// "A, B, C, extra0" for messages.
  std::string paramList;
};

struct GemmRtModuleImpl {
  Manifest manifest;
  std::vector<std::unique_ptr<GemmRtFunctionImpl>> functions;
  bool onDevice = false;
  const Driver *driver = nullptr;
  CUcontext context = nullptr;
  CUdevice device = 0;
  bool retainedPrimary = false;
  std::vector<CUmodule> cuModules; // per manifest object, null if unused
  CUmemoryPool pool = nullptr;
  /// The device and driver take programmatic dependent launch (sm_90 and
  /// later, cuLaunchKernelEx).
  bool programmaticLaunch = false;
  /// The device's SMs: the grid of a persistent kernel.
  int multiprocessors = 1;

  ~GemmRtModuleImpl() {
    if (!onDevice && !retainedPrimary && cuModules.empty() && !pool)
      return;
    // Unload in the module's context (pushed if another one is current).
    CUcontext current = nullptr;
    driver->cuCtxGetCurrent(&current);
    bool pushed = current != context;
    if (pushed)
      driver->cuCtxPushCurrent(context);
    for (CUmodule m : cuModules)
      if (m)
        driver->cuModuleUnload(m);
    if (pool)
      driver->cuMemPoolDestroy(pool);
    if (pushed) {
      CUcontext popped;
      driver->cuCtxPopCurrent(&popped);
    }
    if (retainedPrimary)
      driver->cuDevicePrimaryCtxRelease(device);
  }
};

namespace {
/// chipguard.py's rule for NVIDIA: a cubin runs on the same major version
/// with a minor at least the chip's (sm_XYa: exactly that chip); PTX is
/// compiled for any device at least that new (sm_XYa: that chip only).
bool chipRunsOn(const ObjectEntry &object, int devMajor, int devMinor,
                std::string &why) {
  std::string device =
      "sm_" + std::to_string(devMajor) + std::to_string(devMinor);
  int major, minor;
  bool arch;
  if (object.chip.compare(0, 3, "gfx") == 0) {
    why = "its kernels are for the AMD chip " + object.chip +
          "; this runtime launches NVIDIA kernels only";
    return false;
  }
  if (!parseSmChip(object.chip, major, minor, arch)) {
    why = "unrecognized NVIDIA chip '" + object.chip + "'";
    return false;
  }
  bool ok;
  if (object.isBinary)
    ok = devMajor == major && devMinor >= minor && (!arch || devMinor == minor);
  else
    ok = arch ? devMajor == major && devMinor == minor
              : devMajor > major || (devMajor == major && devMinor >= minor);
  if (!ok)
    why = std::string(object.isBinary ? "cubin" : "PTX") + " compiled for " +
          object.chip + " cannot run on " + device +
          "; recompile with chip=" + device;
  return ok;
}

GemmRtStatus driverError(const Driver &d, const std::string &call,
                         CUresult result) {
  return fail(GEMM_RT_ERROR_DRIVER,
              call + " failed: " + describeResult(d, result));
}

GemmRtStatus loadOnDevice(GemmRtModuleImpl &m) {
  std::string error;
  const Driver *d = getDriver(error);
  if (!d)
    return fail(GEMM_RT_ERROR_NO_DEVICE, error);
  m.driver = d;
  CUresult r = d->cuCtxGetCurrent(&m.context);
  if (r != CUDA_SUCCESS)
    return driverError(*d, "cuCtxGetCurrent", r);
  if (!m.context) {
    // No context on this thread: the device's primary context, which the
    // CUDA runtime (and so PyTorch and CuPy) uses.
    if ((r = d->cuDeviceGet(&m.device, 0)) != CUDA_SUCCESS)
      return driverError(*d, "cuDeviceGet(0)", r);
    if ((r = d->cuDevicePrimaryCtxRetain(&m.context, m.device)) != CUDA_SUCCESS)
      return driverError(*d, "cuDevicePrimaryCtxRetain", r);
    m.retainedPrimary = true;
    if ((r = d->cuCtxSetCurrent(m.context)) != CUDA_SUCCESS)
      return driverError(*d, "cuCtxSetCurrent", r);
  } else if ((r = d->cuCtxGetDevice(&m.device)) != CUDA_SUCCESS) {
    return driverError(*d, "cuCtxGetDevice", r);
  }
  int major = 0, minor = 0, smemOptIn = 0, pools = 0;
  if ((r = d->cuDeviceGetAttribute(
           &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, m.device)) ||
      (r = d->cuDeviceGetAttribute(
           &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, m.device)) ||
      (r = d->cuDeviceGetAttribute(
           &smemOptIn, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
           m.device)) ||
      (r = d->cuDeviceGetAttribute(
           &pools, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, m.device)) ||
      (r = d->cuDeviceGetAttribute(&m.multiprocessors,
                                   CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                   m.device)))
    return driverError(*d, "cuDeviceGetAttribute", r);
  m.programmaticLaunch = major >= 9 && d->cuLaunchKernelEx;

  // The objects some kernel uses, each checked against the device's chip.
  const Manifest &mf = m.manifest;
  m.cuModules.assign(mf.objects.size(), nullptr);
  auto objectOf = [&](const KernelEntry &k) {
    for (size_t i = 0; i < mf.objects.size(); ++i)
      if (mf.objects[i].module == k.module && mf.objects[i].chip == k.chip)
        return i;
    return mf.objects.size(); // not reached: loadManifest checked
  };
  for (const KernelEntry &k : mf.kernels) {
    size_t i = objectOf(k);
    if (m.cuModules[i])
      continue;
    const ObjectEntry &object = mf.objects[i];
    std::string why;
    if (!chipRunsOn(object, major, minor, why))
      return fail(GEMM_RT_ERROR_NO_DEVICE,
                  "cannot load '" + object.path + "': " + why);
    std::string bytes;
    if (!readRegularFile(object.path, bytes, why))
      return fail(GEMM_RT_ERROR_INVALID_MANIFEST,
                  "cannot read '" + object.path + "': " + why);
    if (object.isBinary) {
      r = d->cuModuleLoadData(&m.cuModules[i], bytes.data());
      if (r != CUDA_SUCCESS)
        return driverError(*d, "cuModuleLoadData('" + object.path + "')", r);
    } else {
      // PTX through the driver's JIT, its log in the message.
      char log[8192] = {0};
      int options[] = {CU_JIT_ERROR_LOG_BUFFER,
                       CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
      void *values[] = {log, reinterpret_cast<void *>(sizeof(log))};
      r = d->cuModuleLoadDataEx(&m.cuModules[i], bytes.c_str(), 2, options,
                                values);
      if (r != CUDA_SUCCESS)
        return fail(GEMM_RT_ERROR_DRIVER,
                    "cuModuleLoadDataEx('" + object.path +
                        "') failed: " + describeResult(*d, r) +
                        (log[0] ? std::string(": ") + log : ""));
    }
  }

  CUmemPoolProps props;
  std::memset(&props, 0, sizeof(props));
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = m.device;
  if (!pools)
    return fail(GEMM_RT_ERROR_NO_DEVICE,
                "the device does not support stream-ordered memory pools, "
                "which the runtime's workspaces need");
  if ((r = d->cuMemPoolCreate(&m.pool, &props)) != CUDA_SUCCESS)
    return driverError(*d, "cuMemPoolCreate", r);
  // Keep freed workspaces for reuse (gemmRtModuleTrimWorkspaces returns
  // them): a pool that released memory at every synchronization would map
  // it again at the next launch.
  uint64_t keep = std::numeric_limits<uint64_t>::max();
  if ((r = d->cuMemPoolSetAttribute(m.pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                    &keep)) != CUDA_SUCCESS)
    return driverError(*d, "cuMemPoolSetAttribute", r);

  auto getFunction = [&](const KernelEntry &k, const std::string &name,
                         CUfunction &out) -> GemmRtStatus {
    size_t i = objectOf(k);
    CUresult res = d->cuModuleGetFunction(&out, m.cuModules[i], name.c_str());
    if (res != CUDA_SUCCESS)
      return fail(GEMM_RT_ERROR_INVALID_MANIFEST,
                  "kernel '" + name + "' not found in '" + mf.objects[i].path +
                      "': " + describeResult(*d, res));
    return GEMM_RT_SUCCESS;
  };
  for (auto &fn : m.functions) {
    for (Member &member : fn->members) {
      const KernelEntry &k = *member.entry;
      if (GemmRtStatus s = getFunction(k, k.name, member.gemm))
        return s;
      if (k.dynamicSharedMemory > smemOptIn)
        return fail(GEMM_RT_ERROR_NO_DEVICE,
                    "kernel '" + k.name + "' needs " +
                        std::to_string(k.dynamicSharedMemory) +
                        " bytes of dynamic shared memory; the device allows " +
                        std::to_string(smemOptIn));
      // Always raise the limit: the module's static shared memory counts
      // against the default 48 KiB too.
      r = d->cuFuncSetAttribute(member.gemm,
                                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                int(k.dynamicSharedMemory));
      if (r != CUDA_SUCCESS)
        return driverError(*d, "cuFuncSetAttribute('" + k.name + "')", r);
      if (k.hasReduceKernel())
        if (GemmRtStatus s = getFunction(k, k.split->reduceName, member.reduce))
          return s;
      if (k.pack)
        for (const PackOperand &op : k.pack->operands)
          if (GemmRtStatus s =
                  getFunction(k, op.kernel, member.pack[size_t(op.operand)]))
            return s;
    }
  }
  m.onDevice = true;
  return GEMM_RT_SUCCESS;
}
} // namespace

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

GemmRtStatus gemmRtModuleLoad(const char *directory, uint32_t flags,
                              GemmRtModule *module) {
  if (!module)
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "gemmRtModuleLoad: null module pointer");
  *module = nullptr;
  if (!directory)
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "gemmRtModuleLoad: null directory");
  if (flags & ~uint32_t(GEMM_RT_LOAD_PARSE_ONLY))
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "gemmRtModuleLoad: unknown flags " + std::to_string(flags));
  auto m = std::make_unique<GemmRtModuleImpl>();
  std::string error;
  if (!loadManifest(directory, m->manifest, error))
    return fail(GEMM_RT_ERROR_INVALID_MANIFEST, error);
  for (const Family &family : m->manifest.families) {
    auto fn = std::make_unique<GemmRtFunctionImpl>();
    fn->module = m.get();
    fn->family = &family;
    fn->aIsKM = family.layout == "nt" || family.layout == "tt";
    fn->bIsNK = family.layout == "tn" || family.layout == "tt";
    for (size_t i = 0; i < family.params.size(); ++i)
      fn->paramList += (i ? ", " : "") + family.params[i].name;
    for (size_t index : family.members) {
      const KernelEntry &k = m->manifest.kernels[index];
      size_t slots = countSlots(k.params);
      if (k.hasReduceKernel())
        slots = std::max(slots, countSlots(k.split->reduceParams));
      if (slots > KernelParams::kCapacity)
        return fail(
            GEMM_RT_ERROR_INVALID_MANIFEST,
            m->manifest.path + ": kernels[" + std::to_string(k.index) + "] ('" +
                k.name + "'): 'params': " + std::to_string(slots) +
                " parameter values (a memref takes 3 + 2 x rank); "
                "at most " +
                std::to_string(KernelParams::kCapacity) + " are supported");
      Member member;
      member.entry = &k;
      fn->members.push_back(member);
    }
    m->functions.push_back(std::move(fn));
  }
  if (!(flags & GEMM_RT_LOAD_PARSE_ONLY))
    if (GemmRtStatus s = loadOnDevice(*m))
      return s; // ~GemmRtModuleImpl undoes what was done
  *module = m.release();
  return GEMM_RT_SUCCESS;
}

void gemmRtModuleDestroy(GemmRtModule module) { delete module; }

int32_t gemmRtModuleIsOnDevice(GemmRtModule module) {
  return module && module->onDevice ? 1 : 0;
}

GemmRtStatus gemmRtModuleTrimWorkspaces(GemmRtModule module) {
  if (!module)
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "gemmRtModuleTrimWorkspaces: null module");
  if (!module->onDevice)
    return GEMM_RT_SUCCESS;
  CUresult r = module->driver->cuMemPoolTrimTo(module->pool, 0);
  if (r != CUDA_SUCCESS)
    return driverError(*module->driver, "cuMemPoolTrimTo", r);
  return GEMM_RT_SUCCESS;
}

size_t gemmRtModuleGetNumFunctions(GemmRtModule module) {
  return module ? module->functions.size() : 0;
}

const char *gemmRtModuleGetFunctionName(GemmRtModule module, size_t index) {
  if (!module || index >= module->functions.size())
    return nullptr;
  return module->functions[index]->family->name.c_str();
}

GemmRtStatus gemmRtModuleGetFunction(GemmRtModule module, const char *name,
                                     GemmRtFunction *function) {
  if (!module || !name || !function)
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "gemmRtModuleGetFunction: null module, name or result");
  *function = nullptr;
  for (const auto &fn : module->functions) {
    const Family &f = *fn->family;
    if (f.name == name || f.function + "#" + std::to_string(f.gemm) == name) {
      *function = fn.get();
      return GEMM_RT_SUCCESS;
    }
  }
  std::string known;
  for (const auto &fn : module->functions)
    known += (known.empty() ? "" : ", ") + fn->family->name;
  return fail(GEMM_RT_ERROR_NOT_FOUND, "no function '" + std::string(name) +
                                           "' in '" + module->manifest.path +
                                           "' (it has: " + known + ")");
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

const char *gemmRtFunctionGetName(GemmRtFunction function) {
  return function ? function->family->name.c_str() : nullptr;
}

const char *gemmRtFunctionGetLayout(GemmRtFunction function) {
  return function ? function->family->layout.c_str() : nullptr;
}

const char *gemmRtFunctionGetChip(GemmRtFunction function) {
  return function ? function->family->chip.c_str() : nullptr;
}

size_t gemmRtFunctionGetNumKernels(GemmRtFunction function) {
  return function ? function->members.size() : 0;
}

const char *gemmRtFunctionGetKernelName(GemmRtFunction function, size_t index) {
  if (!function || index >= function->members.size())
    return nullptr;
  return function->members[index].entry->name.c_str();
}

size_t gemmRtFunctionGetNumParams(GemmRtFunction function) {
  return function ? function->family->params.size() : 0;
}

GemmRtStatus gemmRtFunctionGetParam(GemmRtFunction function, size_t index,
                                    GemmRtParamInfo *info) {
  if (!function || !info)
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "gemmRtFunctionGetParam: null function or result");
  const std::vector<Param> &params = function->family->params;
  if (index >= params.size())
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "gemmRtFunctionGetParam: index " + std::to_string(index) +
                    " out of range (function '" + function->family->name +
                    "' has " + std::to_string(params.size()) + " parameters)");
  const Param &p = params[index];
  info->name = p.name.c_str();
  info->kind = p.isMemRef ? GEMM_RT_PARAM_MEMREF : GEMM_RT_PARAM_SCALAR;
  info->elementType = p.type;
  info->rank = p.rank;
  info->shape = p.shape.data();
  return GEMM_RT_SUCCESS;
}

namespace {
/// gemmRtFunctionChooseFor, its misuses reported as `api`'s.
GemmRtStatus choose(const char *api, GemmRtFunction function, int64_t m,
                    int64_t n, int64_t k, int64_t batch, unsigned aligned,
                    GemmRtChoice *choice) {
  if (!function || !choice)
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                std::string(api) + ": null function or result");
  if (aligned & ~unsigned(GEMM_RT_ALIGNED_A | GEMM_RT_ALIGNED_B))
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                std::string(api) + ": unknown alignment bits " +
                    std::to_string(aligned));
  const Manifest &mf = function->module->manifest;
  size_t i = chooseEntry(
      mf, *function->family, m, n, k, batch,
      {(aligned & GEMM_RT_ALIGNED_A) != 0, (aligned & GEMM_RT_ALIGNED_B) != 0});
  const KernelEntry &entry = *function->members[i].entry;
  choice->kernel = entry.name.c_str();
  choice->kernelIndex = i;
  const GemmRtModuleImpl &module = *function->module;
  choice->slices = splitSlices(entry, m, n, k, batch,
                               module.onDevice ? module.multiprocessors : 0);
  return GEMM_RT_SUCCESS;
}

} // namespace

GemmRtStatus gemmRtFunctionChooseFor(GemmRtFunction function, int64_t m,
                                     int64_t n, int64_t k, int64_t batch,
                                     unsigned aligned, GemmRtChoice *choice) {
  return choose("gemmRtFunctionChooseFor", function, m, n, k, batch, aligned,
                choice);
}

GemmRtStatus gemmRtFunctionChoose(GemmRtFunction function, int64_t m, int64_t n,
                                  int64_t k, int64_t batch,
                                  GemmRtChoice *choice) {
  return choose("gemmRtFunctionChoose", function, m, n, k, batch,
                GEMM_RT_ALIGNED_A | GEMM_RT_ALIGNED_B, choice);
}

//===----------------------------------------------------------------------===//
// Plans and launches
//===----------------------------------------------------------------------===//

namespace {
constexpr int64_t kMaxDim = std::numeric_limits<int32_t>::max();
constexpr int64_t kMaxGridYZ = 65535;
constexpr uint64_t kWorkspaceAlign = 256;

/// a * b, saturating at INT64_MAX (sizes are non-negative).
int64_t satMul(int64_t a, int64_t b) {
  if (a != 0 && b > std::numeric_limits<int64_t>::max() / a)
    return std::numeric_limits<int64_t>::max();
  return a * b;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// A workspace of the launch: its shape (row-major) and its place in the
/// launch's one allocation.
struct Workspace {
  int64_t rank = 0;
  int64_t sizes[GEMM_RT_MAX_RANK] = {};
  int64_t strides[GEMM_RT_MAX_RANK] = {};
  uint64_t offset = 0, bytes = 0;
  int64_t elements = 0;
};

struct Prepared {
  GemmRtPlan plan{};
  const Member *member = nullptr;
  bool pack[2] = {false, false};
  Workspace packed[2];
  Workspace split;
  /// A fix-up entry's workspace and flags, and its tail's tiles.
  Workspace fixup, flags;
  int64_t tail = 0;
  uint64_t totalBytes = 0;
};

/// The host check of Pack.cpp (harness.vector_copies_ok): 16-byte aligned
/// base, unit inner stride, outer strides multiples of `multiple` elements.
bool vectorCopiesOk(const GemmRtMemRef &v, int64_t multiple) {
  if (reinterpret_cast<uintptr_t>(v.data) % 16 != 0 ||
      v.strides[v.rank - 1] != 1)
    return false;
  for (int64_t d = 0; d + 1 < v.rank; ++d)
    if (v.strides[d] % multiple != 0)
      return false;
  return true;
}

/// The runtime's side of Pack.cpp's emitRowsAlignedTo: vectorCopiesOk with
/// outer strides of `multiple` elements, and the first element's address a
/// multiple of `multiple` elements of `elemBytes` bytes too.
bool rowsAlignedTo(const GemmRtMemRef &v, int64_t multiple, size_t elemBytes) {
  return vectorCopiesOk(v, multiple) &&
         reinterpret_cast<uintptr_t>(v.data) %
                 (uint64_t(multiple) * elemBytes) ==
             0;
}

/// Places a row-major workspace of `rank` sizes of `elementSize` bytes in
/// the launch's allocation; false if its size overflows.
bool place(Workspace &w, int64_t rank, const int64_t *sizes, size_t elementSize,
           uint64_t &total) {
  w.rank = rank;
  int64_t elements = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    w.sizes[d] = sizes[d];
    w.strides[d] = elements;
    elements = satMul(elements, sizes[d]);
  }
  w.elements = elements;
  int64_t bytes = satMul(elements, int64_t(elementSize));
  if (bytes == std::numeric_limits<int64_t>::max())
    return false;
  w.bytes = uint64_t(bytes);
  w.offset = total;
  uint64_t rounded =
      (w.bytes + kWorkspaceAlign - 1) / kWorkspaceAlign * kWorkspaceAlign;
  if (rounded > uint64_t(std::numeric_limits<int64_t>::max()) - total)
    return false;
  total += rounded;
  return true;
}

GemmRtStatus argError(const GemmRtFunctionImpl &fn, size_t i,
                      const std::string &message) {
  return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
              "function '" + fn.family->name + "': argument " +
                  std::to_string(i) + " ('" + fn.family->params[i].name +
                  "'): " + message);
}

/// "AxBxC": the first `rank` of `values`.
std::string joinDims(int64_t rank, const int64_t *values) {
  std::string text;
  for (int64_t d = 0; d < rank; ++d)
    text += (d ? "x" : "") + std::to_string(values[d]);
  return text;
}

/// Whether two indices of `v` address one element (python/gemm_mlir/api.py's
/// _check_no_overlap): over the dimensions of more than one element, by
/// increasing stride, each stride must reach past the span of the ones
/// before it. An empty memref has no elements to share.
bool overlaps(const GemmRtMemRef &v) {
  std::pair<int64_t, int64_t> dims[GEMM_RT_MAX_RANK]; // (stride, size)
  int64_t count = 0;
  for (int64_t d = 0; d < v.rank; ++d) {
    if (v.sizes[d] == 0)
      return false;
    if (v.sizes[d] > 1)
      dims[count++] = {v.strides[d], v.sizes[d]};
  }
  std::stable_sort(dims, dims + count, [](const auto &x, const auto &y) {
    return x.first < y.first;
  });
  int64_t span = 1;
  for (int64_t i = 0; i < count; ++i) {
    if (dims[i].first < span)
      return true;
    int64_t extent = satMul(dims[i].first, dims[i].second - 1);
    span = extent > std::numeric_limits<int64_t>::max() - span
               ? std::numeric_limits<int64_t>::max()
               : extent + span;
  }
  return false;
}

GemmRtStatus prepare(const GemmRtFunctionImpl &fn, const GemmRtArg *args,
                     size_t numArgs, uint32_t flags, Prepared &p) {
  const std::vector<Param> &params = fn.family->params;
  const std::string &name = fn.family->name;
  if (flags & ~uint32_t(GEMM_RT_LAUNCH_NO_PACK))
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT, "function '" + name +
                                                    "': unknown launch flags " +
                                                    std::to_string(flags));
  if (!args && numArgs)
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "function '" + name + "': null argument array");
  if (numArgs != params.size())
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "function '" + name + "' takes " +
                    std::to_string(params.size()) + " arguments (" +
                    fn.paramList + "), got " + std::to_string(numArgs));

  // Each argument against its parameter.
  for (size_t i = 0; i < numArgs; ++i) {
    const Param &param = params[i];
    const GemmRtArg &arg = args[i];
    if (arg.kind != GEMM_RT_PARAM_MEMREF && arg.kind != GEMM_RT_PARAM_SCALAR)
      return argError(fn, i, "invalid kind code " + std::to_string(arg.kind));
    bool isMemRef = arg.kind == GEMM_RT_PARAM_MEMREF;
    if (isMemRef != param.isMemRef)
      return argError(fn, i,
                      std::string("expected a ") +
                          (param.isMemRef ? "memref" : "scalar") + ", got a " +
                          (isMemRef ? "memref" : "scalar"));
    if (arg.dtype != param.type)
      return argError(fn, i,
                      std::string("expected ") +
                          (isMemRef ? "element type " : "a scalar of type ") +
                          dtypeName(param.type) + ", got " +
                          dtypeName(arg.dtype));
    if (!isMemRef)
      continue;
    const GemmRtMemRef &v = arg.memref;
    if (v.rank != param.rank)
      return argError(fn, i,
                      "expected rank " + std::to_string(param.rank) + ", got " +
                          std::to_string(v.rank));
    bool empty = false;
    for (int64_t d = 0; d < v.rank; ++d) {
      if (v.sizes[d] < 0)
        return argError(fn, i,
                        "size " + std::to_string(d) + " is negative (" +
                            std::to_string(v.sizes[d]) + ")");
      if (v.strides[d] < 0)
        return argError(fn, i,
                        "stride " + std::to_string(d) + " is negative (" +
                            std::to_string(v.strides[d]) + ")");
      if (param.shape[size_t(d)] >= 0 && v.sizes[d] != param.shape[size_t(d)])
        return argError(fn, i,
                        "size " + std::to_string(d) + " is " +
                            std::to_string(v.sizes[d]) +
                            ", but the function was compiled for " +
                            std::to_string(param.shape[size_t(d)]));
      empty |= v.sizes[d] == 0;
    }
    if (!v.data && !empty)
      return argError(fn, i, "null data pointer for a non-empty memref");
    // The kernels (and the pack kernels) take identity-layout memrefs: the
    // outer strides come from the descriptor, the inner one is taken as 1.
    if (v.rank > 0 && v.sizes[v.rank - 1] > 1 && v.strides[v.rank - 1] != 1)
      return argError(fn, i,
                      "inner stride is " +
                          std::to_string(v.strides[v.rank - 1]) + " (strides " +
                          joinDims(v.rank, v.strides) +
                          "), but the kernels read memrefs whose last "
                          "dimension is contiguous (stride 1)");
    // An identity layout also fixes every stride whose inner sizes are all
    // static (memref<?x4096xf16> has stride 4096 in the kernel's type): the
    // descriptor's stride there is not read, so it must be that product.
    int64_t staticInner = 1;
    for (int64_t d = v.rank - 1; d > 0 && param.shape[size_t(d)] >= 0; --d) {
      staticInner *= param.shape[size_t(d)];
      if (v.sizes[d - 1] > 1 && v.strides[d - 1] != staticInner)
        return argError(fn, i,
                        "stride " + std::to_string(d - 1) + " is " +
                            std::to_string(v.strides[d - 1]) + " (strides " +
                            joinDims(v.rank, v.strides) +
                            "), but the function was compiled for a "
                            "contiguous memref with static inner sizes, "
                            "which fixes it at " +
                            std::to_string(staticInner));
    }
    // The kernels write C: two of its indices on one element would race.
    if (i == 2 && overlaps(v))
      return argError(fn, i,
                      "the output's elements overlap (sizes " +
                          joinDims(v.rank, v.sizes) + ", strides " +
                          joinDims(v.rank, v.strides) +
                          "); pass a memref whose elements are distinct");
  }

  // M, N and the batch from C; K from A; A and B checked against them.
  const GemmRtMemRef &a = args[0].memref, &b = args[1].memref,
                     &c = args[2].memref;
  int64_t m = c.sizes[c.rank - 2], n = c.sizes[c.rank - 1];
  int64_t batch = c.rank == 3 ? c.sizes[0] : 1;
  int64_t aM = a.sizes[a.rank - (fn.aIsKM ? 1 : 2)];
  int64_t k = a.sizes[a.rank - (fn.aIsKM ? 2 : 1)];
  int64_t bN = b.sizes[b.rank - (fn.bIsNK ? 2 : 1)];
  int64_t bK = b.sizes[b.rank - (fn.bIsNK ? 1 : 2)];
  const std::string &layout = fn.family->layout;
  if (aM != m)
    return argError(fn, 0,
                    "M is " + std::to_string(aM) + " (its dimension " +
                        std::to_string(a.rank - (fn.aIsKM ? 1 : 2)) +
                        " under layout " + layout +
                        ") but C has M = " + std::to_string(m));
  if (bN != n)
    return argError(fn, 1,
                    "N is " + std::to_string(bN) + " (its dimension " +
                        std::to_string(b.rank - (fn.bIsNK ? 2 : 1)) +
                        " under layout " + layout +
                        ") but C has N = " + std::to_string(n));
  if (bK != k)
    return argError(fn, 1,
                    "K is " + std::to_string(bK) + " (its dimension " +
                        std::to_string(b.rank - (fn.bIsNK ? 1 : 2)) +
                        " under layout " + layout +
                        ") but A has K = " + std::to_string(k));
  for (size_t i = 0; i < 2; ++i) {
    const GemmRtMemRef &v = args[i].memref;
    if (v.rank == 3 && v.sizes[0] != batch)
      return argError(fn, i,
                      "batch " + std::to_string(v.sizes[0]) +
                          " differs from C's batch " + std::to_string(batch));
  }
  // Extras indexed per broadcast.
  for (size_t i = 3; i < numArgs; ++i) {
    const Param &param = params[i];
    if (!param.isMemRef)
      continue;
    const GemmRtMemRef &v = args[i].memref;
    auto expect = [&](int64_t d, int64_t size, const char *what) {
      return v.sizes[d] == size
                 ? GEMM_RT_SUCCESS
                 : argError(fn, i,
                            "size " + std::to_string(d) + " is " +
                                std::to_string(v.sizes[d]) + ", expected " +
                                what + " = " + std::to_string(size));
    };
    GemmRtStatus s = GEMM_RT_SUCCESS;
    if ((param.broadcast == Broadcast::Row ||
         param.broadcast == Broadcast::Col) &&
        v.rank >= 1) {
      // A vector of M (row) or N (col) values, optionally per batch
      // element: [batch, len] (lib/Dialect/Gemm/IR/GemmOps.cpp).
      bool row = param.broadcast == Broadcast::Row;
      s = expect(v.rank - 1, row ? m : n, row ? "M" : "N");
      if (!s && v.rank == 2)
        s = expect(0, batch, "the batch");
    } else if (param.broadcast == Broadcast::Full && v.rank >= 2) {
      s = expect(v.rank - 2, m, "M");
      if (!s)
        s = expect(v.rank - 1, n, "N");
      if (!s && v.rank == 3)
        s = expect(0, batch, "the batch");
    }
    if (s)
      return s;
  }
  // The kernels index in 32 bits; grid.z is the batch.
  const char *names[] = {"M", "N", "K"};
  int64_t sizes[] = {m, n, k};
  for (int d = 0; d < 3; ++d)
    if (sizes[d] > kMaxDim)
      return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                  "function '" + name + "': " + names[d] + " = " +
                      std::to_string(sizes[d]) +
                      " exceeds the kernels' limit of " +
                      std::to_string(kMaxDim));
  if (batch > kMaxGridYZ)
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "function '" + name + "': batch " + std::to_string(batch) +
                    " exceeds 65535 (grid.z)");

  // The member and its K slices.
  const Manifest &mf = fn.module->manifest;
  // Whether A and B allow 16-byte copies, for members bounded on it.
  auto aligned = [&](size_t i) {
    return vectorCopiesOk(
        args[i].memref,
        std::max<int64_t>(16 / int64_t(gemmRtDTypeGetSize(params[i].type)), 1));
  };
  size_t index =
      chooseEntry(mf, *fn.family, m, n, k, batch, {aligned(0), aligned(1)});
  p.member = &fn.members[index];
  const KernelEntry &e = *p.member->entry;
  GemmRtPlan &plan = p.plan;
  plan.kernel = e.name.c_str();
  plan.kernelIndex = index;
  plan.m = m;
  plan.n = n;
  plan.k = k;
  plan.batch = batch;
  int64_t multiprocessors =
      fn.module->onDevice ? fn.module->multiprocessors : 0;
  plan.slices = splitSlices(e, m, n, k, batch, multiprocessors);
  int64_t tiles = satMul(ceilDiv(m, e.tileM), ceilDiv(n, e.tileN));
  if (tiles <= kMaxDim)
    tiles = ceilDiv(tiles, e.clusterX) * e.clusterX;
  if (tiles > kMaxDim)
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "function '" + name + "': " + std::to_string(tiles) +
                    " blocks of kernel '" + e.name +
                    "' exceed grid.x's limit of " + std::to_string(kMaxDim));
  // A persistent kernel counts the tiles of every batch in 32 bits.
  if (e.persistent && satMul(tiles, batch) > kMaxDim)
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "function '" + name +
                    "': " + std::to_string(satMul(tiles, batch)) +
                    " tiles of persistent kernel '" + e.name +
                    "' exceed its limit of " + std::to_string(kMaxDim));

  // Packing (Pack.cpp's host code): an operand is packed always, or when it
  // rules out 16-byte copies, unless the GEMM is small; with each_operand each
  // by its own rule, else both whenever either has to be.
  bool packs[2] = {false, false};
  if (e.pack) {
    const Pack &pk = *e.pack;
    int64_t outputs = satMul(satMul(batch, m), n);
    int64_t work = satMul(outputs, k);
    int64_t gemmWork = satMul(satMul(m, n), k);
    bool small = pk.minWork && work < *pk.minWork && k <= *pk.maxDirectK &&
                 (!pk.maxDirectOutputs || outputs <= *pk.maxDirectOutputs) &&
                 (!pk.minGemmWork || gemmWork < *pk.minGemmWork);
    bool checked = !(flags & GEMM_RT_LAUNCH_NO_PACK) && !small;
    bool unaligned[2] = {!vectorCopiesOk(a, pk.multiple),
                         !vectorCopiesOk(b, pk.multiple)};
    // Rows that do not start on sector_multiple elements' boundaries where
    // the GEMM is compute-bound (Pack.cpp: M and N clamped to 2^30, so that
    // neither side overflows for an intensity up to 2^29).
    if (pk.sectorMultiple) {
      constexpr int64_t cap = int64_t(1) << 30;
      int64_t rows = std::min(m, cap), cols = std::min(n, cap);
      if (rows * cols >= pk.sectorMinIntensity * (rows + cols)) {
        unaligned[0] =
            unaligned[0] || !rowsAlignedTo(a, pk.sectorMultiple,
                                           gemmRtDTypeGetSize(params[0].type));
        unaligned[1] =
            unaligned[1] || !rowsAlignedTo(b, pk.sectorMultiple,
                                           gemmRtDTypeGetSize(params[1].type));
      }
    }
    for (const PackOperand &op : pk.operands) {
      size_t i = size_t(op.operand);
      if (pk.eachOperand)
        packs[i] = op.always || (checked && unaligned[i]);
      else
        packs[i] = pk.always || (checked && (unaligned[0] || unaligned[1]));
    }
  }
  p.totalBytes = 0;
  if (e.pack) {
    for (const PackOperand &op : e.pack->operands) {
      if (!packs[size_t(op.operand)])
        continue;
      const GemmRtArg &arg = args[size_t(op.operand)];
      int64_t rank = arg.memref.rank;
      int64_t shape[GEMM_RT_MAX_RANK];
      for (int64_t d = 0; d < rank; ++d)
        shape[d] = arg.memref.sizes[d];
      // A transposed copy swaps the last two dimensions (readManifest
      // checked the rank).
      if (op.transpose)
        std::swap(shape[rank - 2], shape[rank - 1]);
      for (int32_t d : op.roundUpDims)
        shape[d] =
            ceilDiv(shape[d], e.pack->roundTo) * e.pack->roundTo; // <= 2^32
      Workspace &w = p.packed[size_t(op.operand)];
      if (!place(w, arg.memref.rank, shape,
                 gemmRtDTypeGetSize(params[size_t(op.operand)].type),
                 p.totalBytes))
        return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                    "function '" + name + "': the packed copy of " +
                        params[size_t(op.operand)].name +
                        " is too large (the launch's workspaces would exceed "
                        "2^63 - 1 bytes)");
      p.pack[size_t(op.operand)] = true;
    }
  }
  plan.packA = p.pack[0];
  plan.packB = p.pack[1];
  if (e.hasReduceKernel()) {
    int64_t shape[4] = {batch, plan.slices, m, n};
    if (!place(p.split, 4, shape, gemmRtDTypeGetSize(e.split->workspaceType),
               p.totalBytes))
      return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                  "function '" + name + "': the split-K workspace of " +
                      std::to_string(plan.slices) +
                      " slices is too large (the launch's workspaces would "
                      "exceed 2^63 - 1 bytes)");
  }
  if (e.fixesUp()) {
    // [max(tail, 1)][slices][tile_m][tile_n] partial sums, one flag a plane
    // (Launch.cpp's host code; docs/runtime.md, "Fix-up").
    p.tail = fixupSplit(e, m, n, k, batch, multiprocessors).tail;
    int64_t planes = std::max<int64_t>(p.tail, 1);
    int64_t shape[4] = {planes, plan.slices, e.tileM, e.tileN};
    if (!place(p.fixup, 4, shape, gemmRtDTypeGetSize(e.split->workspaceType),
               p.totalBytes) ||
        !place(p.flags, 1, &planes, 4, p.totalBytes))
      return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                  "function '" + name + "': the fix-up workspace of " +
                      std::to_string(planes) + " tiles is too large");
  }
  plan.workspaceBytes = p.totalBytes;
  bool emptyC = m == 0 || n == 0 || batch == 0;
  plan.launches = emptyC ? 0
                         : int32_t(p.pack[0] && p.packed[0].elements > 0) +
                               int32_t(p.pack[1] && p.packed[1].elements > 0) +
                               1 + int32_t(e.hasReduceKernel());
  if (emptyC)
    plan.workspaceBytes = p.totalBytes = 0;
  return GEMM_RT_SUCCESS;
}
} // namespace

GemmRtStatus gemmRtFunctionPlan(GemmRtFunction function, const GemmRtArg *args,
                                size_t numArgs, uint32_t flags,
                                GemmRtPlan *plan) {
  if (!function || !plan)
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "gemmRtFunctionPlan: null function or result");
  Prepared p;
  if (GemmRtStatus s = prepare(*function, args, numArgs, flags, p))
    return s;
  *plan = p.plan;
  return GEMM_RT_SUCCESS;
}

GemmRtStatus gemmRtFunctionLaunch(GemmRtFunction function,
                                  const GemmRtArg *args, size_t numArgs,
                                  GemmRtStream stream, uint32_t flags,
                                  GemmRtPlan *plan) {
  if (!function)
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "gemmRtFunctionLaunch: null function");
  GemmRtModuleImpl &module = *function->module;
  if (!module.onDevice)
    return fail(GEMM_RT_ERROR_NOT_LOADED,
                "function '" + function->family->name + "': the module '" +
                    module.manifest.directory +
                    "' was loaded parse-only and cannot launch");
  Prepared p;
  if (GemmRtStatus s = prepare(*function, args, numArgs, flags, p))
    return s;
  if (plan)
    *plan = p.plan;
  if (p.plan.launches == 0)
    return GEMM_RT_SUCCESS; // C is empty: nothing to compute

  const Driver &d = *module.driver;
  CUstream s = stream;
  CUcontext current = nullptr;
  CUresult r = d.cuCtxGetCurrent(&current);
  if (r != CUDA_SUCCESS)
    return driverError(d, "cuCtxGetCurrent", r);
  if (!current) {
    if ((r = d.cuCtxSetCurrent(module.context)) != CUDA_SUCCESS)
      return driverError(d, "cuCtxSetCurrent", r);
  } else if (current != module.context) {
    return fail(GEMM_RT_ERROR_INVALID_ARGUMENT,
                "function '" + function->family->name +
                    "': another CUDA context is current than the one its "
                    "module was loaded into");
  }

  const KernelEntry &e = *p.member->entry;
  const Member &member = *p.member;
  const std::vector<Param> &params = function->family->params;
  CUdeviceptr base = 0;
  if (p.totalBytes) {
    r = d.cuMemAllocFromPoolAsync(&base, p.totalBytes, module.pool, s);
    if (r != CUDA_SUCCESS)
      return fail(GEMM_RT_ERROR_DRIVER,
                  "function '" + function->family->name + "': allocating " +
                      std::to_string(p.totalBytes) +
                      " bytes of workspace failed: " + describeResult(d, r));
  }
  auto address = [&](const Workspace &w) -> void * {
    return w.elements ? reinterpret_cast<void *>(uintptr_t(base + w.offset))
                      : nullptr;
  };
  // Programmatic dependent launch: each kernel of the entry may start while
  // the previous one in the stream finishes; it waits (griddepcontrol.wait)
  // before it touches memory.
  bool programmatic = module.programmaticLaunch && e.programmaticLaunch;
  auto launch = [&](CUfunction f, const char *kernel, uint64_t gx, uint64_t gy,
                    uint64_t gz, const std::array<uint32_t, 3> &b, int64_t smem,
                    KernelParams &kp, uint32_t clusterY = 1) -> GemmRtStatus {
    CUresult res;
    if (clusterY > 1 && !d.cuLaunchKernelEx)
      return fail(GEMM_RT_ERROR_DRIVER,
                  "launching kernel '" + std::string(kernel) +
                      "' in clusters needs cuLaunchKernelEx, which the CUDA "
                      "driver lacks");
    if (programmatic || clusterY > 1) {
      // Programmatic dependent launch, and clusters of (1, clusterY, 1)
      // blocks for a `reduction = cluster` split-K kernel.
      CUlaunchAttribute attrs[2]{};
      unsigned numAttrs = 0;
      if (programmatic) {
        CUlaunchAttribute &a = attrs[numAttrs++];
        a.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
        a.value.programmaticStreamSerializationAllowed = 1;
      }
      if (clusterY > 1) {
        CUlaunchAttribute &a = attrs[numAttrs++];
        a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        a.value.clusterDim.x = 1;
        a.value.clusterDim.y = clusterY;
        a.value.clusterDim.z = 1;
      }
      CUlaunchConfig config{unsigned(gx), unsigned(gy), unsigned(gz),   b[0],
                            b[1],         b[2],         unsigned(smem), s,
                            attrs,        numAttrs};
      res = d.cuLaunchKernelEx(&config, f, kp.pointers, nullptr);
    } else {
      res =
          d.cuLaunchKernel(f, unsigned(gx), unsigned(gy), unsigned(gz), b[0],
                           b[1], b[2], unsigned(smem), s, kp.pointers, nullptr);
    }
    if (res != CUDA_SUCCESS)
      return fail(GEMM_RT_ERROR_DRIVER,
                  "launching kernel '" + std::string(kernel) + "' on grid (" +
                      std::to_string(gx) + ", " + std::to_string(gy) + ", " +
                      std::to_string(gz) +
                      ") failed: " + describeResult(d, res));
    return GEMM_RT_SUCCESS;
  };

  // The operands the GEMM reads: A and B, or their packed copies.
  GemmRtMemRef operands[2] = {args[0].memref, args[1].memref};
  GemmRtStatus status = GEMM_RT_SUCCESS;
  for (size_t i = 0; i < 2 && !status; ++i) {
    if (!p.pack[i])
      continue;
    const Workspace &w = p.packed[i];
    const Pack &pk = *e.pack;
    const PackOperand *op = nullptr;
    for (const PackOperand &o : pk.operands)
      if (size_t(o.operand) == i)
        op = &o;
    GemmRtMemRef dst;
    dst.data = address(w);
    dst.rank = w.rank;
    for (int64_t dd = 0; dd < w.rank; ++dd) {
      dst.sizes[dd] = w.sizes[dd];
      dst.strides[dd] = w.strides[dd];
    }
    // The GEMM reads a transposed copy at the operand's swapped sizes (K
    // not rounded up), with the workspace's strides.
    if (op->transpose)
      dst.sizes[w.rank - 1] = operands[i].sizes[w.rank - 2];
    if (w.elements) {
      // The manifest's pack grid rule: one 32-thread warp per row segment
      // of warp_elements, at most max_blocks blocks (x; y = 1), z is the
      // batch. Older manifests: x covers a workspace row, y strides over
      // the rows. A transposing copy: one block per tile of the workspace,
      // at most max_blocks.
      int64_t rows = w.sizes[w.rank - 2], cols = w.sizes[w.rank - 1];
      int64_t segments = ceilDiv(cols, pk.warpElements);
      uint64_t gx, gy;
      if (op->transpose) {
        gx = uint64_t(std::min(
            satMul(ceilDiv(rows, op->tile[0]), ceilDiv(cols, op->tile[1])),
            *pk.maxBlocks));
        gy = 1;
      } else if (pk.maxBlocks) {
        gx = uint64_t(
            std::min(ceilDiv(rows * segments * 32, int64_t(pk.block[0])),
                     *pk.maxBlocks));
        gy = 1;
      } else {
        gx = uint64_t(ceilDiv(segments * 32, int64_t(pk.block[0])));
        gy = uint64_t(std::min(rows, kMaxGridYZ));
      }
      uint64_t gz = w.rank == 3 ? uint64_t(w.sizes[0]) : 1;
      KernelParams kp;
      kp.addMemRef(operands[i].data, operands[i].rank, operands[i].sizes,
                   operands[i].strides);
      kp.addMemRef(dst.data, dst.rank, w.sizes, w.strides);
      status = launch(member.pack[i], op->kernel.c_str(), gx, gy, gz, pk.block,
                      0, kp);
    }
    operands[i] = dst;
  }

  void *splitData = e.hasReduceKernel() ? address(p.split) : nullptr;
  const GemmRtPlan &plan0 = p.plan;
  if (!status) {
    KernelParams kp;
    for (size_t i = 0; i < numArgs; ++i) {
      if (i < 2) {
        const GemmRtMemRef &v = operands[i];
        kp.addMemRef(v.data, v.rank, v.sizes, v.strides);
      } else if (args[i].kind == GEMM_RT_PARAM_MEMREF) {
        const GemmRtMemRef &v = args[i].memref;
        kp.addMemRef(v.data, v.rank, v.sizes, v.strides);
      } else {
        kp.addScalar(args[i].scalar, gemmRtDTypeGetSize(params[i].type));
      }
    }
    if (e.hasReduceKernel())
      kp.addMemRef(splitData, 4, p.split.sizes, p.split.strides);
    if (e.fixesUp()) {
      kp.addMemRef(address(p.fixup), 4, p.fixup.sizes, p.fixup.strides);
      kp.addMemRef(address(p.flags), 1, p.flags.sizes, p.flags.strides);
      // The flags start at zero (the kernel leaves them so); with no tail
      // no tile splits and the kernel reads none.
      if (p.tail > 0) {
        r = d.cuMemsetD32Async(CUdeviceptr(uintptr_t(address(p.flags))), 0,
                               size_t(p.flags.elements), s);
        if (r != CUDA_SUCCESS && !status)
          status = driverError(d, "cuMemsetD32Async", r);
      }
    }
    // A TMA kernel's tensor maps, built from the operands it reads (packed
    // or not); null where TMA cannot address one, and the kernel then
    // copies element by element.
    for (const TensorMap &map : e.tensorMaps) {
      const GemmRtMemRef &v = operands[map.operand];
      TensorMapOperand operand;
      operand.type = params[map.operand].type;
      operand.rank = int(v.rank);
      operand.data = v.data;
      operand.sizes = v.sizes;
      operand.strides = v.strides;
      operand.box = map.box.data();
      TensorMapBytes bytes;
      CUdeviceptr device = 0;
      if (encodeTensorMap(d, operand, bytes).empty()) {
        std::string error;
        device = deviceTensorMap(d, bytes, error);
        if (!device && !status)
          status = fail(GEMM_RT_ERROR_DRIVER,
                        "function '" + function->family->name + "': " + error);
      }
      GemmRtScalar pointer;
      std::memset(&pointer, 0, sizeof(pointer));
      static_assert(sizeof(pointer) >= sizeof(uint64_t));
      uint64_t address = device;
      std::memcpy(&pointer, &address, sizeof(address));
      kp.addScalar(pointer, sizeof(address));
    }
    uint64_t tiles = uint64_t(ceilDiv(plan0.m, e.tileM)) *
                     uint64_t(ceilDiv(plan0.n, e.tileN));
    // A kernel of clusters of clusterX blocks along x.
    tiles = uint64_t(ceilDiv(int64_t(tiles), e.clusterX) * e.clusterX);
    uint64_t gz = uint64_t(plan0.batch);
    if (e.persistent) {
      // One block per SM at most, each walking tiles and batches, in whole
      // clusters.
      int64_t clusters =
          std::max<int64_t>(module.multiprocessors / e.clusterX, 1);
      tiles = std::min(tiles * gz, uint64_t(clusters * e.clusterX));
      gz = 1;
    }
    uint64_t gy = uint64_t(plan0.slices);
    if (e.fixesUp()) {
      // The tiles before the tail one block each, the tail's `slices` each,
      // the batch folded in.
      uint64_t tail = uint64_t(p.tail);
      tiles = tiles * gz - tail + tail * gy;
      gy = gz = 1;
    }
    if (!status)
      status =
          launch(member.gemm, e.name.c_str(), tiles, gy, gz,
                 e.block, e.dynamicSharedMemory, kp,
                 e.launchesClusters() ? uint32_t(plan0.slices) : 1);
  }
  if (!status && e.hasReduceKernel()) {
    // The reduction: x covers N with block.x columns, y strides over M in
    // steps of R rows (the kernel recomputes grid.y this way), z is the
    // batch; parameters C, the extras, the workspace. R: block.y rows
    // below block.y slices or for more than group_outputs * slices outputs,
    // else 1 (the block's threads of a row are then its slice groups;
    // docs/runtime.md).
    const SplitK &sk = *e.split;
    KernelParams kp;
    for (size_t i = 2; i < numArgs; ++i) {
      if (args[i].kind == GEMM_RT_PARAM_MEMREF) {
        const GemmRtMemRef &v = args[i].memref;
        kp.addMemRef(v.data, v.rank, v.sizes, v.strides);
      } else {
        kp.addScalar(args[i].scalar, gemmRtDTypeGetSize(params[i].type));
      }
    }
    kp.addMemRef(splitData, 4, p.split.sizes, p.split.strides);
    uint64_t gx = uint64_t(ceilDiv(plan0.n, int64_t(sk.reduceBlock[0])));
    int64_t rows = int64_t(sk.reduceBlock[1]);
    bool fewOutputs = !sk.reduceGroupOutputs ||
                      plan0.batch <= sk.reduceGroupOutputs * plan0.slices /
                                         std::max<int64_t>(plan0.m, 1) /
                                         std::max<int64_t>(plan0.n, 1);
    if (plan0.slices >= rows && fewOutputs)
      rows = 1;
    uint64_t gy = uint64_t(std::min(ceilDiv(plan0.m, rows), kMaxGridYZ));
    status = launch(member.reduce, sk.reduceName.c_str(), gx, gy,
                    uint64_t(plan0.batch), sk.reduceBlock, 0, kp);
  }
  if (base) {
    // After the last launch that reads the workspaces, in stream order.
    r = d.cuMemFreeAsync(base, s);
    if (r != CUDA_SUCCESS && !status)
      status = driverError(d, "cuMemFreeAsync", r);
  }
  return status;
}
