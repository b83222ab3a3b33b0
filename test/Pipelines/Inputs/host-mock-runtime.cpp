//===- host-mock-runtime.cpp - mgpu* functions that only log --------------===//
//
// A stand-in for libGemmRuntime.so in tests without a GPU: the mgpu* entry
// points the compiled host code calls, with host memory for device memory
// (so the drivers' copies work), a kernel handle that is the kernel's name,
// launches that run nothing, and a log on stderr of every module load,
// allocation, launch and synchronization, with streams numbered in order of
// creation (s1, s2, ...). Outputs keep the poison the drivers put there.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
intptr_t streams = 0;

const char *name(void *stream) {
  static char text[32];
  if (!stream)
    return "s0";
  std::snprintf(text, sizeof(text), "s%ld", long(intptr_t(stream)));
  return text;
}
} // namespace

extern "C" {
void *mgpuModuleLoad(void *data, size_t size) {
  std::fprintf(stderr, "mock: load %zu bytes\n", size);
  return data;
}
void *mgpuModuleLoadJIT(void *data, int optLevel) {
  std::fprintf(stderr, "mock: load-jit O%d %.9s\n", optLevel,
               static_cast<const char *>(data) + 6);
  return data;
}
void mgpuModuleUnload(void *) {}
void *mgpuModuleGetFunction(void *, const char *kernel) {
  return const_cast<char *>(kernel);
}
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream, void **,
                      void **, size_t params) {
  std::fprintf(stderr,
               "mock: launch %s grid %ld %ld %ld block %ld %ld %ld smem %d "
               "params %zu on %s\n",
               static_cast<const char *>(function), long(gridX), long(gridY),
               long(gridZ), long(blockX), long(blockY), long(blockZ), smem,
               params, name(stream));
}
void *mgpuStreamCreate() { return reinterpret_cast<void *>(++streams); }
void mgpuStreamSynchronize(void *stream) {
  std::fprintf(stderr, "mock: sync %s\n", name(stream));
}
void mgpuStreamDestroy(void *) {}
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool) {
  std::fprintf(stderr, "mock: alloc %llu on %s\n", (unsigned long long)bytes,
               name(stream));
  return bytes ? std::malloc(bytes) : nullptr;
}
void mgpuMemFree(void *ptr, void *stream) {
  std::fprintf(stderr, "mock: free on %s\n", name(stream));
  std::free(ptr);
}
// The tensor maps of TMA kernels: none (a null map makes a kernel copy
// through cp.async), logged with the operand's box.
void *mgpuGemmTensorMap(int64_t dtype, int64_t rank, char *, int64_t,
                        int64_t size0, int64_t size1, int64_t size2, int64_t,
                        int64_t, int64_t, int64_t box0, int64_t box1,
                        int64_t box2) {
  std::fprintf(stderr,
               "mock: tensor map dtype %ld rank %ld sizes %ld %ld %ld box "
               "%ld %ld %ld\n",
               long(dtype), long(rank), long(size0), long(size1), long(size2),
               long(box0), long(box1), long(box2));
  return nullptr;
}
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *) {
  std::memcpy(dst, src, bytes);
}
}
