//===- CompilerModule.cpp - gemm_mlir._gemm_compiler ----------------------===//
//
// The Python module over the compiler C API (include/gemm-c/Compiler.h): one
// call per compilation, the GIL released while it runs (compilations in
// several threads run in parallel), and the result code and diagnostics
// handed back as they are. gemm_mlir/api.py turns them into exceptions.
//
//===----------------------------------------------------------------------===//

#include "gemm-c/Compiler.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>

namespace py = pybind11;

namespace {
/// Frees a string of the C API.
struct StringDeleter {
  void operator()(char *string) const { gemmFreeString(string); }
};
} // namespace

/// gemmCompile; returns (result code, diagnostics).
static py::tuple compile(const std::string &text, const std::string &pipeline,
                         const std::string &options,
                         const std::optional<std::string> &outputDir) {
  char *diagnostics = nullptr;
  int result;
  {
    py::gil_scoped_release release;
    result =
        gemmCompile(text.c_str(), pipeline.c_str(), options.c_str(),
                    outputDir ? outputDir->c_str() : nullptr, &diagnostics);
  }
  std::unique_ptr<char, StringDeleter> owned(diagnostics);
  return py::make_tuple(result, owned ? std::string(owned.get()) : "");
}

PYBIND11_MODULE(_gemm_compiler, m) {
  m.doc() = "The gemm-mlir compiler C API (gemm-c/Compiler.h); "
            "use gemm_mlir.compile instead";
  m.attr("SUCCESS") = static_cast<int>(GEMM_COMPILE_SUCCESS);
  m.attr("FAILURE") = static_cast<int>(GEMM_COMPILE_FAILURE);
  m.attr("INVALID_ARGUMENT") = static_cast<int>(GEMM_COMPILE_INVALID_ARGUMENT);
  m.def("compile", &compile, py::arg("text"), py::arg("pipeline"),
        py::arg("options"), py::arg("output_dir"),
        "Runs registered pipeline `pipeline` with `options` on MLIR text "
        "`text`, writing the artifacts into `output_dir` (None: nowhere). "
        "Returns (result code, diagnostics).");
  m.def("version", &gemmCompilerVersion,
        "The compiler library's name and versions.");
  m.def("api_version", &gemmCompilerApiVersion,
        "The C API version of the compiler library that is loaded.");
}
