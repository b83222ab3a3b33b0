//===- PassOptions.h - option errors that say something ---------*- C++ -*-===//
//
// MLIR's pass option parser writes the message of a bad value (say
// `ptx-version=abc`) to stderr and reports an empty error, which gemm-opt
// prints as `<unknown>:0: error:` with nothing after it. Our passes and
// pipelines report errors that name the pass and its options instead.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_SUPPORT_PASSOPTIONS_H
#define GEMM_SUPPORT_PASSOPTIONS_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace mlir::gemm {

/// The error for options `options` of pass or pipeline `name` that the
/// parser rejected with `message` (possibly empty).
inline std::string describeOptionError(StringRef name, StringRef options,
                                       StringRef message) {
  std::string text = message.trim().str();
  if (text.empty())
    text = "invalid option value";
  return (name + ": " + text + " (options '" + options + "')").str();
}

/// Pass::initializeOptions, reporting errors through describeOptionError.
/// Our passes override initializeOptions with this.
inline LogicalResult
initializeOptionsWithErrors(Pass &pass, StringRef options,
                            function_ref<LogicalResult(const Twine &)> error) {
  auto describe = [&](const Twine &message) {
    return error(
        describeOptionError(pass.getArgument(), options, message.str()));
  };
  return pass.Pass::initializeOptions(options, describe);
}

/// Parses pipeline options `T` from `options`, reporting errors through
/// describeOptionError; null on failure.
template <typename T>
std::unique_ptr<T>
parsePipelineOptions(StringRef name, StringRef options,
                     function_ref<LogicalResult(const Twine &)> error) {
  auto result = std::make_unique<T>();
  std::string message;
  llvm::raw_string_ostream os(message);
  if (failed(result->parseFromString(options, os))) {
    (void)error(describeOptionError(name, options, message));
    return nullptr;
  }
  return result;
}

} // namespace mlir::gemm

#endif // GEMM_SUPPORT_PASSOPTIONS_H
