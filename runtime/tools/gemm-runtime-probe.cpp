//===- gemm-runtime-probe.cpp - The runtime's C API from the shell --------===//
//
// Drives libGemmRuntime through gemm-c/Runtime.h for the lit tests
// (test/Runtime/) and for inspecting an artifact folder by hand. Modules are
// loaded parse-only unless --device is given, so everything but `launch`
// and `mgpu` runs without a GPU:
//
//   gemm-runtime-probe [--device] describe DIR
//       functions, layout, chip, parameters and kernels in rule order
//   gemm-runtime-probe [--device] choose DIR < SIZES
//       per input line "FUNCTION M N K [BATCH [ALIGNED]]": the kernel and K
//       slices (ALIGNED: GEMM_RT_ALIGNED_A | GEMM_RT_ALIGNED_B, 3 if absent)
//   gemm-runtime-probe [--device] plan|launch DIR FUNCTION [--no-pack] ARG...
//       validate the arguments and print the plan (launch: and launch on
//       the default stream); ARG is memref:DTYPE:ADDRESS:SIZES[:STRIDES]
//       (sizes/strides as 4x8, strides row-major if absent; the address is
//       not dereferenced by plan) or scalar:DTYPE:VALUE (f16/bf16 as bits)
//   gemm-runtime-probe api-errors DIR
//       misuses of the C API (null handles, unknown flags, bad codes) and
//       what each returns
//   gemm-runtime-probe mgpu
//       calls mgpuStreamCreate/mgpuMemAlloc/mgpuStreamDestroy (what they
//       report without a driver)
//
// Errors print "error (<status>): <message>" and exit 1.
//
//===----------------------------------------------------------------------===//

#include "gemm-c/Runtime.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
struct CUstream_st *mgpuStreamCreate();
void mgpuStreamDestroy(struct CUstream_st *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, struct CUstream_st *stream,
                   bool isHostShared);
}

namespace {
int report(GemmRtStatus status) {
  std::printf("error (%s): %s\n", gemmRtStatusGetName(status),
              gemmRtGetLastError());
  return 1;
}

int usage(const char *message) {
  std::fprintf(stderr,
               "gemm-runtime-probe: %s\n"
               "usage: gemm-runtime-probe [--device] describe|choose DIR\n"
               "       gemm-runtime-probe [--device] plan|launch DIR FUNCTION "
               "[--no-pack] ARG...\n"
               "       gemm-runtime-probe api-errors DIR\n"
               "       gemm-runtime-probe mgpu\n",
               message);
  return 2;
}

std::string shapeString(int64_t rank, const int64_t *sizes) {
  std::string s;
  for (int64_t d = 0; d < rank; ++d)
    s += (d ? "x" : "") +
         (sizes[d] < 0 ? std::string("?") : std::to_string(sizes[d]));
  return s;
}

int describe(GemmRtModule module) {
  for (size_t f = 0; f < gemmRtModuleGetNumFunctions(module); ++f) {
    GemmRtFunction fn;
    if (GemmRtStatus s = gemmRtModuleGetFunction(
            module, gemmRtModuleGetFunctionName(module, f), &fn))
      return report(s);
    std::printf("function %s layout %s chip %s\n", gemmRtFunctionGetName(fn),
                gemmRtFunctionGetLayout(fn), gemmRtFunctionGetChip(fn));
    for (size_t i = 0; i < gemmRtFunctionGetNumParams(fn); ++i) {
      GemmRtParamInfo p;
      if (GemmRtStatus s = gemmRtFunctionGetParam(fn, i, &p))
        return report(s);
      if (p.kind == GEMM_RT_PARAM_MEMREF)
        std::printf("  param %s memref<%sx%s>\n", p.name,
                    shapeString(p.rank, p.shape).c_str(),
                    gemmRtDTypeGetName(GemmRtDType(p.elementType)));
      else
        std::printf("  param %s scalar %s\n", p.name,
                    gemmRtDTypeGetName(GemmRtDType(p.elementType)));
    }
    for (size_t i = 0; i < gemmRtFunctionGetNumKernels(fn); ++i)
      std::printf("  kernel %s\n", gemmRtFunctionGetKernelName(fn, i));
  }
  return 0;
}

int choose(GemmRtModule module) {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string name;
    int64_t m, n, k, batch = 1;
    unsigned aligned = GEMM_RT_ALIGNED_A | GEMM_RT_ALIGNED_B;
    if (!(in >> name >> m >> n >> k))
      continue;
    if (in >> batch)
      in >> aligned;
    GemmRtFunction fn;
    if (GemmRtStatus s = gemmRtModuleGetFunction(module, name.c_str(), &fn))
      return report(s);
    GemmRtChoice choice;
    GemmRtStatus s =
        aligned == (GEMM_RT_ALIGNED_A | GEMM_RT_ALIGNED_B)
            ? gemmRtFunctionChoose(fn, m, n, k, batch, &choice)
            : gemmRtFunctionChooseFor(fn, m, n, k, batch, aligned, &choice);
    if (s)
      return report(s);
    std::string suffix = aligned == (GEMM_RT_ALIGNED_A | GEMM_RT_ALIGNED_B)
                             ? ""
                             : " aligned " + std::to_string(aligned);
    std::printf("%s %lldx%lldx%lld batch %lld%s: %s %lld\n", name.c_str(),
                (long long)m, (long long)n, (long long)k, (long long)batch,
                suffix.c_str(), choice.kernel, (long long)choice.slices);
  }
  return 0;
}

bool parseInts(const std::string &text, std::vector<int64_t> &out) {
  out.clear();
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, 'x')) {
    char *end = nullptr;
    out.push_back(std::strtoll(item.c_str(), &end, 0));
    if (item.empty() || *end)
      return false;
  }
  return !out.empty();
}

/// memref:DTYPE:ADDRESS:SIZES[:STRIDES] or scalar:DTYPE:VALUE.
bool parseArg(const std::string &text, GemmRtArg &arg) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ':'))
    parts.push_back(part);
  if (parts.size() < 3)
    return false;
  GemmRtDType dtype = gemmRtDTypeFromName(parts[1].c_str());
  if (dtype == GEMM_RT_DTYPE_INVALID) {
    // A raw code, to test the runtime's check of invalid codes.
    char *end = nullptr;
    dtype = GemmRtDType(std::strtol(parts[1].c_str(), &end, 0));
    if (parts[1].empty() || *end)
      return false;
  }
  if (parts[0] == "scalar" && parts.size() == 3) {
    GemmRtScalar s;
    s.i64 = 0;
    const char *v = parts[2].c_str();
    // An integer must fit its type (no silent wrap).
    auto integer = [&](int64_t lo, int64_t hi, int64_t &out) {
      char *end = nullptr;
      errno = 0;
      long long x = std::strtoll(v, &end, 0);
      out = x;
      return !parts[2].empty() && !*end && errno == 0 && x >= lo && x <= hi;
    };
    int64_t x = 0;
    switch (dtype) {
    case GEMM_RT_DTYPE_F32:
      s.f32 = std::strtof(v, nullptr);
      break;
    case GEMM_RT_DTYPE_F64:
      s.f64 = std::strtod(v, nullptr);
      break;
    case GEMM_RT_DTYPE_I8:
      if (!integer(INT8_MIN, INT8_MAX, x))
        return false;
      s.i8 = int8_t(x);
      break;
    case GEMM_RT_DTYPE_I16:
      if (!integer(INT16_MIN, INT16_MAX, x))
        return false;
      s.i16 = int16_t(x);
      break;
    case GEMM_RT_DTYPE_I32:
      if (!integer(INT32_MIN, INT32_MAX, x))
        return false;
      s.i32 = int32_t(x);
      break;
    default:
      s.i64 = std::strtoll(v, nullptr, 0);
      break;
    }
    arg = gemmRtArgScalar(dtype, s);
    return true;
  }
  if (parts[0] != "memref" || parts.size() < 4 || parts.size() > 5)
    return false;
  std::vector<int64_t> sizes, strides;
  char *end = nullptr;
  unsigned long long address = std::strtoull(parts[2].c_str(), &end, 0);
  if (*end || !parseInts(parts[3], sizes) || sizes.size() > GEMM_RT_MAX_RANK)
    return false;
  if (parts.size() == 5) {
    if (!parseInts(parts[4], strides) || strides.size() != sizes.size())
      return false;
  } else {
    // Row-major; sizes whose product overflows have no such strides.
    strides.assign(sizes.size(), 1);
    for (size_t d = sizes.size() - 1; d > 0; --d)
      if (__builtin_mul_overflow(strides[d], sizes[d], &strides[d - 1]))
        return false;
  }
  arg = gemmRtArgMemRef(dtype, reinterpret_cast<void *>(uintptr_t(address)),
                        int64_t(sizes.size()), sizes.data(), strides.data());
  return true;
}

int planOrLaunch(GemmRtModule module, bool launch, int argc, char **argv) {
  if (argc < 1)
    return usage("expected a function name");
  GemmRtFunction fn;
  if (GemmRtStatus s = gemmRtModuleGetFunction(module, argv[0], &fn))
    return report(s);
  uint32_t flags = 0;
  std::vector<GemmRtArg> args;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-pack") == 0) {
      flags |= GEMM_RT_LAUNCH_NO_PACK;
      continue;
    }
    GemmRtArg arg;
    if (!parseArg(argv[i], arg))
      return usage(
          (std::string("cannot parse argument '") + argv[i] + "'").c_str());
    args.push_back(arg);
  }
  GemmRtPlan plan;
  GemmRtStatus s =
      launch ? gemmRtFunctionLaunch(fn, args.data(), args.size(), nullptr,
                                    flags, &plan)
             : gemmRtFunctionPlan(fn, args.data(), args.size(), flags, &plan);
  if (s)
    return report(s);
  std::printf("plan %lldx%lldx%lld batch %lld: %s slices %lld pack A %d B %d "
              "workspace %llu bytes, %d launches\n",
              (long long)plan.m, (long long)plan.n, (long long)plan.k,
              (long long)plan.batch, plan.kernel, (long long)plan.slices,
              plan.packA, plan.packB, (unsigned long long)plan.workspaceBytes,
              plan.launches);
  return 0;
}
/// Each misuse prints "<call>: <status>: <message>".
int apiErrors(const char *directory) {
  auto show = [](const char *call, GemmRtStatus s) {
    std::printf("%s: %s: %s\n", call, gemmRtStatusGetName(s),
                s ? gemmRtGetLastError() : "");
  };
  GemmRtModule module = nullptr;
  show("load(null directory)",
       gemmRtModuleLoad(nullptr, GEMM_RT_LOAD_PARSE_ONLY, &module));
  show("load(null result)",
       gemmRtModuleLoad(directory, GEMM_RT_LOAD_PARSE_ONLY, nullptr));
  show("load(flags 6)", gemmRtModuleLoad(directory, 6, &module));
  if (GemmRtStatus s =
          gemmRtModuleLoad(directory, GEMM_RT_LOAD_PARSE_ONLY, &module))
    return report(s);
  GemmRtFunction fn = nullptr;
  show("getFunction(null name)", gemmRtModuleGetFunction(module, nullptr, &fn));
  show("getFunction(null module)",
       gemmRtModuleGetFunction(nullptr, "linear", &fn));
  show("getFunction(nope)", gemmRtModuleGetFunction(module, "nope", &fn));
  show("getFunction(linear#0)",
       gemmRtModuleGetFunction(module, "linear#0", &fn));
  GemmRtParamInfo info;
  show("getParam(99)", gemmRtFunctionGetParam(fn, 99, &info));
  show("getParam(null result)", gemmRtFunctionGetParam(fn, 0, nullptr));
  show("choose(null result)", gemmRtFunctionChoose(fn, 1, 1, 1, 1, nullptr));
  show("chooseFor(null result)",
       gemmRtFunctionChooseFor(fn, 1, 1, 1, 1, 0, nullptr));
  GemmRtChoice choice;
  show("chooseFor(bits 4)", gemmRtFunctionChooseFor(fn, 1, 1, 1, 1, 4, &choice));
  GemmRtPlan plan;
  show("plan(null args)", gemmRtFunctionPlan(fn, nullptr, 5, 0, &plan));
  show("plan(null result)", gemmRtFunctionPlan(fn, nullptr, 0, 0, nullptr));
  GemmRtArg args[5];
  int64_t sizes[2] = {8, 8}, strides[2] = {8, 1}, bias = 8, one = 1;
  for (int i = 0; i < 3; ++i)
    args[i] = gemmRtArgMemRef(GEMM_RT_DTYPE_F16,
                              reinterpret_cast<void *>(uintptr_t(0x1000)), 2,
                              sizes, strides);
  args[3] = gemmRtArgMemRef(GEMM_RT_DTYPE_F32,
                            reinterpret_cast<void *>(uintptr_t(0x2000)), 1,
                            &bias, &one);
  args[4] = gemmRtArgF32(1.0f);
  show("plan(valid)", gemmRtFunctionPlan(fn, args, 5, 0, &plan));
  show("plan(flags 2)", gemmRtFunctionPlan(fn, args, 5, 2, &plan));
  args[4].kind = 7;
  show("plan(kind 7)", gemmRtFunctionPlan(fn, args, 5, 0, &plan));
  show("launch(null function)",
       gemmRtFunctionLaunch(nullptr, args, 5, nullptr, 0, &plan));
  show("trim(null module)", gemmRtModuleTrimWorkspaces(nullptr));
  show("trim(parse-only module)", gemmRtModuleTrimWorkspaces(module));
  std::printf("status 99: %s\n", gemmRtStatusGetName(GemmRtStatus(99)));
  std::printf("abi version %d, on device %d\n", gemmRtGetAbiVersion(),
              gemmRtModuleIsOnDevice(module));
  std::printf("function(null) %s, kernel(99) %s, name(99) %s\n",
              gemmRtFunctionGetName(nullptr) ? "set" : "null",
              gemmRtFunctionGetKernelName(fn, 99) ? "set" : "null",
              gemmRtModuleGetFunctionName(module, 99) ? "set" : "null");
  for (int code = 0; code <= 14; ++code) {
    GemmRtDType dtype = GemmRtDType(code);
    const char *name = gemmRtDTypeGetName(dtype);
    std::printf("dtype %d: %s %zu bytes, round trip %s\n", code,
                name ? name : "(invalid)", gemmRtDTypeGetSize(dtype),
                gemmRtDTypeFromName(name) ==
                        (name ? dtype : GEMM_RT_DTYPE_INVALID)
                    ? "ok"
                    : "broken");
  }
  gemmRtModuleDestroy(module);
  gemmRtModuleDestroy(nullptr);
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  int i = 1;
  bool device = false;
  if (i < argc && std::strcmp(argv[i], "--device") == 0) {
    device = true;
    ++i;
  }
  if (i >= argc)
    return usage("expected a command");
  std::string command = argv[i++];
  if (command == "mgpu") {
    struct CUstream_st *stream = mgpuStreamCreate();
    void *memory = mgpuMemAlloc(256, stream, false);
    std::printf("mgpuStreamCreate: %s, mgpuMemAlloc: %s\n",
                stream ? "a stream" : "null", memory ? "memory" : "null");
    mgpuStreamDestroy(stream);
    return 0;
  }
  if (i >= argc)
    return usage("expected an artifact folder");
  if (command == "api-errors")
    return apiErrors(argv[i]);
  GemmRtModule module;
  if (GemmRtStatus s = gemmRtModuleLoad(
          argv[i++], device ? 0 : GEMM_RT_LOAD_PARSE_ONLY, &module))
    return report(s);
  int rc;
  if (command == "describe")
    rc = describe(module);
  else if (command == "choose")
    rc = choose(module);
  else if (command == "plan" || command == "launch")
    rc = planOrLaunch(module, command == "launch", argc - i, argv + i);
  else
    rc = usage(("unknown command '" + command + "'").c_str());
  gemmRtModuleDestroy(module);
  return rc;
}
