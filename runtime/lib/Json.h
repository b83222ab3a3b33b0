//===- Json.h - A small JSON reader for manifests ---------------*- C++ -*-===//
//
// The runtime reads manifest.json with no third-party dependency (it builds
// where LLVM is absent, so llvm::json is not available): a strict RFC 8259
// reader producing a tree, with integers kept exact, object keys in order,
// duplicate keys rejected and errors located by line and column.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_JSON_H
#define GEMM_RUNTIME_JSON_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gemm::rt::json {

class Value {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind = Kind::Null;
  bool boolean = false;
  /// Numbers: `number` always; `integer` too when the literal has no
  /// fraction or exponent and fits in 64 bits (isInteger).
  double number = 0;
  int64_t integer = 0;
  bool isInteger = false;
  std::string string;
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object;

  /// The member `key` of an object, nullptr if absent (or not an object).
  const Value *get(const std::string &key) const;
  /// "null", "a boolean", "a number", "a string", "an array", "an object".
  const char *kindName() const;
};

/// Parses `text` into `out`. On failure returns false with `error` set to
/// "line L, column C: <what was expected>".
bool parse(const std::string &text, Value &out, std::string &error);

} // namespace gemm::rt::json

#endif // GEMM_RUNTIME_JSON_H
