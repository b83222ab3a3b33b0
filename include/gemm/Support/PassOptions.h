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
#include "llvm/ADT/StringExtras.h"
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

/// MLIR's option parser reads a value that starts with '{' as a group and
/// strips the braces: `output-dir={x}` writes to `x`. For the options in
/// `pathKeys` (file and folder names), that is an error asking for quotes;
/// returns it, or "" when no such value is present.
inline std::string checkBracedPaths(StringRef options,
                                    ArrayRef<StringRef> pathKeys) {
  for (StringRef key : pathKeys) {
    std::string prefix = (key + "=").str();
    for (size_t at = options.find(prefix); at != StringRef::npos;
         at = options.find(prefix, at + 1)) {
      if (at != 0 && !llvm::isSpace(options[at - 1]))
        continue;
      StringRef value = options.substr(at + prefix.size());
      value = value.take_until([](char c) { return llvm::isSpace(c); });
      if (value.starts_with("{"))
        return (key + "=" + value +
                ": MLIR's option parser reads a value in braces as a group "
                "and drops the braces; quote the path (" +
                key + "=\"" + value + "\")")
            .str();
    }
  }
  return "";
}

/// Pass::initializeOptions, reporting errors through describeOptionError.
/// Our passes override initializeOptions with this.
inline LogicalResult
initializeOptionsWithErrors(Pass &pass, StringRef options,
                            function_ref<LogicalResult(const Twine &)> error,
                            ArrayRef<StringRef> pathKeys = {}) {
  if (std::string braced = checkBracedPaths(options, pathKeys);
      !braced.empty())
    return error(pass.getArgument() + ": " + braced);
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
                     function_ref<LogicalResult(const Twine &)> error,
                     ArrayRef<StringRef> pathKeys = {}) {
  if (std::string braced = checkBracedPaths(options, pathKeys);
      !braced.empty()) {
    (void)error(name + ": " + braced);
    return nullptr;
  }
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
