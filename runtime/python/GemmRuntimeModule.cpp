//===- GemmRuntimeModule.cpp - gemm_mlir._gemm_runtime --------------------===//
//
// The Python binding of gemm-c/Runtime.h (docs/runtime.md, "Python"):
//
//   Module(path, device=True)      .functions(), .function(name), .path,
//                                  .on_device, .trim_workspaces()
//   Function                       .name, .layout, .chip, .params, .kernels,
//                                  .choose(m, n, k, batch=1,
//                                          a_aligned=True, b_aligned=True),
//                                  .plan(args, pack=True),
//                                  .launch(args, stream=0, pack=True)
//
// A launch argument is (data_ptr, sizes, strides[, element_type]) for a
// memref or a Python float/int for a scalar. launch converts them straight
// into the C structs (no dict or object built per call) and releases the
// GIL around the enqueue. Runtime errors raise ValueError (bad arguments,
// unknown function) or RuntimeError (everything else) with the runtime's
// message.
//
//===----------------------------------------------------------------------===//

#include "gemm-c/Runtime.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {
[[noreturn]] void raise(GemmRtStatus status) {
  std::string message = gemmRtGetLastError();
  if (status == GEMM_RT_ERROR_INVALID_ARGUMENT ||
      status == GEMM_RT_ERROR_NOT_FOUND)
    throw py::value_error(message);
  throw std::runtime_error(message);
}

using ModuleHandle = std::shared_ptr<GemmRtModuleImpl>;

/// f32 -> f16 bits, rounding to nearest even (for f16 scalar parameters).
uint16_t toHalfBits(double value) {
  float f = float(value);
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t exponent = (x >> 23) & 0xFF;
  uint32_t mantissa = x & 0x7FFFFF;
  if (exponent == 0xFF) // inf, nan
    return uint16_t(sign | 0x7C00 | (mantissa ? 0x200 : 0));
  int32_t e = int32_t(exponent) - 127 + 15;
  if (e >= 0x1F)
    return uint16_t(sign | 0x7C00);
  if (e <= 0) {
    if (e < -10)
      return uint16_t(sign);
    mantissa |= 0x800000;
    uint32_t shift = uint32_t(14 - e);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1)))
      ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = (uint32_t(e) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // may carry into the exponent, up to inf: correct
  return uint16_t(sign | half);
}

/// f32 -> bf16 bits, rounding to nearest even.
uint16_t toBFloat16Bits(double value) {
  float f = float(value);
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if (std::isnan(f))
    return uint16_t((x >> 16) | 0x40);
  x += 0x7FFF + ((x >> 16) & 1);
  return uint16_t(x >> 16);
}

/// Reads an int; false (with the Python error cleared) if `o` is none.
bool toInt64(PyObject *o, int64_t &out) {
  long long v = PyLong_AsLongLong(o);
  if (v == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  out = v;
  return true;
}

class Function {
public:
  Function(ModuleHandle module, GemmRtFunction fn)
      : module(std::move(module)), fn(fn) {
    for (size_t i = 0; i < gemmRtFunctionGetNumParams(fn); ++i) {
      GemmRtParamInfo info;
      if (GemmRtStatus s = gemmRtFunctionGetParam(fn, i, &info))
        raise(s);
      infos.push_back(info);
    }
    for (size_t i = 0; i < gemmRtFunctionGetNumKernels(fn); ++i)
      kernelNames.append(py::str(gemmRtFunctionGetKernelName(fn, i)));
  }

  std::string name() const { return gemmRtFunctionGetName(fn); }
  std::string layout() const { return gemmRtFunctionGetLayout(fn); }
  std::string chip() const { return gemmRtFunctionGetChip(fn); }
  py::list params() const {
    py::list out;
    for (const GemmRtParamInfo &info : infos) {
      py::dict d;
      d["name"] = info.name;
      d["kind"] = info.kind == GEMM_RT_PARAM_MEMREF ? "memref" : "scalar";
      d["rank"] = info.rank;
      d["element_type"] = gemmRtDTypeGetName(GemmRtDType(info.elementType));
      d["shape"] = std::vector<int64_t>(info.shape, info.shape + info.rank);
      out.append(d);
    }
    return out;
  }
  py::list kernels() const {
    return py::reinterpret_steal<py::list>(PySequence_List(kernelNames.ptr()));
  }

  py::tuple choose(int64_t m, int64_t n, int64_t k, int64_t batch,
                   bool aAligned, bool bAligned) const {
    GemmRtChoice choice;
    unsigned aligned =
        (aAligned ? GEMM_RT_ALIGNED_A : 0) | (bAligned ? GEMM_RT_ALIGNED_B : 0);
    if (GemmRtStatus s =
            gemmRtFunctionChooseFor(fn, m, n, k, batch, aligned, &choice))
      raise(s);
    return py::make_tuple(kernelNames[choice.kernelIndex], choice.slices);
  }

  py::dict plan(const py::sequence &args, bool pack) const {
    std::vector<GemmRtArg> converted = convert(args);
    GemmRtPlan p;
    if (GemmRtStatus s =
            gemmRtFunctionPlan(fn, converted.data(), converted.size(),
                               pack ? 0 : GEMM_RT_LAUNCH_NO_PACK, &p))
      raise(s);
    py::dict d;
    d["kernel"] = kernelNames[p.kernelIndex];
    d["kernel_index"] = p.kernelIndex;
    d["m"] = p.m;
    d["n"] = p.n;
    d["k"] = p.k;
    d["batch"] = p.batch;
    d["slices"] = p.slices;
    d["pack_a"] = bool(p.packA);
    d["pack_b"] = bool(p.packB);
    d["workspace_bytes"] = p.workspaceBytes;
    d["launches"] = p.launches;
    return d;
  }

  py::object launch(const py::sequence &args, const py::object &stream,
                    bool pack) const {
    GemmRtArg buffer[16];
    std::vector<GemmRtArg> heap;
    size_t n = py::len(args);
    GemmRtArg *converted = buffer;
    if (n > 16) {
      heap.resize(n);
      converted = heap.data();
    }
    convertInto(args, converted, n);
    uintptr_t handle = 0;
    if (!stream.is_none())
      handle = stream.cast<uintptr_t>();
    GemmRtPlan p;
    GemmRtStatus s;
    {
      py::gil_scoped_release release;
      s = gemmRtFunctionLaunch(fn, converted, n,
                               reinterpret_cast<GemmRtStream>(handle),
                               pack ? 0 : GEMM_RT_LAUNCH_NO_PACK, &p);
    }
    if (s)
      raise(s);
    return kernelNames[p.kernelIndex];
  }

private:
  std::vector<GemmRtArg> convert(const py::sequence &args) const {
    std::vector<GemmRtArg> out(py::len(args));
    convertInto(args, out.data(), out.size());
    return out;
  }

  py::value_error argError(size_t i, const std::string &message) const {
    return py::value_error("function '" + name() + "': argument " +
                           std::to_string(i) + " ('" + infos[i].name +
                           "'): " + message);
  }

  /// Python operands -> GemmRtArg, typed by the parameters (the runtime
  /// checks counts, ranks and sizes; this checks what Python can get wrong).
  void convertInto(const py::sequence &args, GemmRtArg *out, size_t n) const {
    if (n != infos.size()) {
      std::string names;
      for (size_t i = 0; i < infos.size(); ++i)
        names += (i ? ", " : "") + std::string(infos[i].name);
      throw py::value_error("function '" + name() + "' takes " +
                            std::to_string(infos.size()) + " arguments (" +
                            names + "), got " + std::to_string(n));
    }
    for (size_t i = 0; i < n; ++i) {
      const GemmRtParamInfo &info = infos[i];
      py::handle a = args[i];
      GemmRtArg &arg = out[i];
      std::memset(&arg, 0, sizeof(arg));
      arg.dtype = info.elementType;
      if (info.kind == GEMM_RT_PARAM_SCALAR) {
        arg.kind = GEMM_RT_PARAM_SCALAR;
        PyObject *o = a.ptr();
        bool isInt = PyLong_Check(o) && !PyBool_Check(o);
        if (!isInt && !PyFloat_Check(o))
          throw argError(i, "expected a Python float or "
                            "int for a scalar");
        switch (GemmRtDType(info.elementType)) {
        case GEMM_RT_DTYPE_F32:
          arg.scalar.f32 = float(PyFloat_AsDouble(o));
          break;
        case GEMM_RT_DTYPE_F64:
          arg.scalar.f64 = PyFloat_AsDouble(o);
          break;
        case GEMM_RT_DTYPE_F16:
          arg.scalar.bits16 = toHalfBits(PyFloat_AsDouble(o));
          break;
        case GEMM_RT_DTYPE_BF16:
          arg.scalar.bits16 = toBFloat16Bits(PyFloat_AsDouble(o));
          break;
        default: {
          if (!isInt)
            throw argError(
                i, std::string("expected an int for a scalar of "
                               "type ") +
                       gemmRtDTypeGetName(GemmRtDType(info.elementType)));
          int64_t v = 0;
          if (!toInt64(o, v))
            throw argError(i, "the scalar does not fit in 64 bits");
          // No silent wrap: the value must fit the parameter's type.
          int bits = info.elementType == GEMM_RT_DTYPE_I8    ? 8
                     : info.elementType == GEMM_RT_DTYPE_I16 ? 16
                     : info.elementType == GEMM_RT_DTYPE_I32 ? 32
                                                             : 64;
          if (bits < 64) {
            int64_t hi = (int64_t(1) << (bits - 1)) - 1, lo = -hi - 1;
            if (v < lo || v > hi)
              throw argError(
                  i, std::to_string(v) +
                         " is out of range for a scalar of "
                         "type " +
                         gemmRtDTypeGetName(GemmRtDType(info.elementType)) +
                         " [" + std::to_string(lo) + ", " + std::to_string(hi) +
                         "]");
          }
          if (bits == 8)
            arg.scalar.i8 = int8_t(v);
          else if (bits == 16)
            arg.scalar.i16 = int16_t(v);
          else if (bits == 32)
            arg.scalar.i32 = int32_t(v);
          else
            arg.scalar.i64 = v;
        }
        }
        if (PyErr_Occurred()) {
          PyErr_Clear();
          throw argError(i, "not a number");
        }
        continue;
      }
      arg.kind = GEMM_RT_PARAM_MEMREF;
      if (!PyTuple_Check(a.ptr()) && !PyList_Check(a.ptr()))
        throw argError(i, "expected a memref as a tuple (data_ptr, "
                          "sizes, strides[, element_type])");
      py::sequence t = py::reinterpret_borrow<py::sequence>(a);
      size_t len = py::len(t);
      if (len != 3 && len != 4)
        throw argError(i, "expected (data_ptr, sizes, strides[, "
                          "element_type]), got a sequence of " +
                              std::to_string(len));
      unsigned long long ptr = PyLong_AsUnsignedLongLong(t[0].ptr());
      if (PyErr_Occurred()) {
        PyErr_Clear();
        throw argError(i, "data_ptr must be a non-negative int");
      }
      arg.memref.data = reinterpret_cast<void *>(uintptr_t(ptr));
      py::sequence sizes = py::reinterpret_borrow<py::sequence>(t[1]);
      py::sequence strides = py::reinterpret_borrow<py::sequence>(t[2]);
      if (!PySequence_Check(sizes.ptr()) || !PySequence_Check(strides.ptr()))
        throw argError(i, "sizes and strides must be sequences");
      size_t rank = py::len(sizes);
      if (py::len(strides) != rank)
        throw argError(i, "" + std::to_string(rank) + " sizes but " +
                              std::to_string(py::len(strides)) + " strides");
      if (rank > GEMM_RT_MAX_RANK)
        throw argError(i, "rank " + std::to_string(rank) + " exceeds " +
                              std::to_string(GEMM_RT_MAX_RANK));
      arg.memref.rank = int64_t(rank);
      for (size_t d = 0; d < rank; ++d) {
        if (!toInt64(sizes[d].ptr(), arg.memref.sizes[d]) ||
            !toInt64(strides[d].ptr(), arg.memref.strides[d]))
          throw argError(i, "sizes and strides must be ints");
      }
      if (len == 4) {
        std::string type = py::str(t[3]);
        arg.dtype = gemmRtDTypeFromName(type.c_str());
        if (arg.dtype == GEMM_RT_DTYPE_INVALID)
          throw argError(i, "unknown element type '" + type + "'");
      }
    }
  }

  ModuleHandle module;
  GemmRtFunction fn;
  std::vector<GemmRtParamInfo> infos;
  py::list kernelNames;
};

class Module {
public:
  Module(const std::string &path, bool device) : path(path) {
    GemmRtModule m = nullptr;
    GemmRtStatus s;
    {
      py::gil_scoped_release release;
      s = gemmRtModuleLoad(path.c_str(), device ? 0 : GEMM_RT_LOAD_PARSE_ONLY,
                           &m);
    }
    if (s)
      raise(s);
    handle = ModuleHandle(m, gemmRtModuleDestroy);
  }

  std::vector<std::string> functions() const {
    std::vector<std::string> names;
    for (size_t i = 0; i < gemmRtModuleGetNumFunctions(handle.get()); ++i)
      names.push_back(gemmRtModuleGetFunctionName(handle.get(), i));
    return names;
  }

  Function function(const std::string &name) const {
    GemmRtFunction fn;
    if (GemmRtStatus s =
            gemmRtModuleGetFunction(handle.get(), name.c_str(), &fn))
      raise(s);
    return Function(handle, fn);
  }

  bool onDevice() const { return gemmRtModuleIsOnDevice(handle.get()); }

  void trimWorkspaces() const {
    if (GemmRtStatus s = gemmRtModuleTrimWorkspaces(handle.get()))
      raise(s);
  }

  std::string path;

private:
  ModuleHandle handle;
};
} // namespace

PYBIND11_MODULE(_gemm_runtime, m) {
  m.doc() = "gemm-mlir's kernel runtime (gemm-c/Runtime.h): load an artifact "
            "folder, choose and launch kernel families";
  m.attr("ABI_VERSION") = gemmRtGetAbiVersion();

  py::class_<Function>(m, "Function")
      .def_property_readonly("name", &Function::name)
      .def_property_readonly("layout", &Function::layout)
      .def_property_readonly("chip", &Function::chip)
      .def_property_readonly("params", &Function::params)
      .def_property_readonly("kernels", &Function::kernels)
      .def("choose", &Function::choose, py::arg("m"), py::arg("n"),
           py::arg("k"), py::arg("batch") = 1, py::arg("a_aligned") = true,
           py::arg("b_aligned") = true,
           "(kernel name, K slices) that run for these sizes and operands "
           "that allow 16-byte copies or not (CPU only)")
      .def("plan", &Function::plan, py::arg("args"), py::arg("pack") = true,
           "what launch(args) would do, as a dict (CPU only)")
      .def("launch", &Function::launch, py::arg("args"), py::arg("stream") = 0,
           py::arg("pack") = true,
           "enqueue the family on a CUDA stream handle (int, 0 = legacy "
           "default); returns the kernel name that ran");

  py::class_<Module>(m, "Module")
      .def(py::init<const std::string &, bool>(), py::arg("path"),
           py::arg("device") = true)
      .def_readonly("path", &Module::path)
      .def_property_readonly("on_device", &Module::onDevice)
      .def("functions", &Module::functions)
      .def("function", &Module::function, py::arg("name"))
      .def("trim_workspaces", &Module::trimWorkspaces);
}
