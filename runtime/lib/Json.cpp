//===- Json.cpp - A small JSON reader for manifests -----------------------===//
//
// Recursive descent over the RFC 8259 grammar. Nesting is limited (a
// manifest nests a few levels; the limit keeps a hostile file from
// exhausting the stack).
//
//===----------------------------------------------------------------------===//

#include "Json.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

using namespace gemm::rt::json;

const Value *Value::get(const std::string &key) const {
  if (kind != Kind::Object)
    return nullptr;
  for (const auto &member : object)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

const char *Value::kindName() const {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "a boolean";
  case Kind::Number:
    return "a number";
  case Kind::String:
    return "a string";
  case Kind::Array:
    return "an array";
  case Kind::Object:
    return "an object";
  }
  return "a value";
}

namespace {
constexpr int kMaxDepth = 128;

class Parser {
public:
  explicit Parser(const std::string &text) : text(text) {}

  bool parseDocument(Value &out) {
    skipSpace();
    if (!parseValue(out, 0))
      return false;
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the top-level value");
    return true;
  }

  std::string error;

private:
  const std::string &text;
  size_t pos = 0;

  bool fail(const std::string &message) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    error = "line " + std::to_string(line) + ", column " +
            std::to_string(column) + ": " + message;
    return false;
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool literal(const char *word) {
    size_t n = std::strlen(word);
    if (text.compare(pos, n, word) != 0)
      return false;
    pos += n;
    return true;
  }

  bool parseValue(Value &out, int depth) {
    if (depth > kMaxDepth)
      return fail("nesting deeper than " + std::to_string(kMaxDepth) +
                  " levels");
    if (pos >= text.size())
      return fail("expected a value, got the end of the text");
    char c = text[pos];
    if (c == '{')
      return parseObject(out, depth);
    if (c == '[')
      return parseArray(out, depth);
    if (c == '"') {
      out.kind = Value::Kind::String;
      return parseString(out.string);
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(out);
    if (literal("true")) {
      out.kind = Value::Kind::Bool;
      out.boolean = true;
      return true;
    }
    if (literal("false")) {
      out.kind = Value::Kind::Bool;
      out.boolean = false;
      return true;
    }
    if (literal("null")) {
      out.kind = Value::Kind::Null;
      return true;
    }
    return fail(std::string("expected a value, got '") + c + "'");
  }

  bool parseObject(Value &out, int depth) {
    out.kind = Value::Kind::Object;
    ++pos; // '{'
    skipSpace();
    if (pos < text.size() && text[pos] == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      if (pos >= text.size() || text[pos] != '"')
        return fail("expected a string key in an object");
      std::string key;
      if (!parseString(key))
        return false;
      if (out.get(key))
        return fail("duplicate key '" + key + "'");
      skipSpace();
      if (pos >= text.size() || text[pos] != ':')
        return fail("expected ':' after the key '" + key + "'");
      ++pos;
      skipSpace();
      out.object.emplace_back(key, Value());
      if (!parseValue(out.object.back().second, depth + 1))
        return false;
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == '}') {
        ++pos;
        return true;
      }
      return fail("expected ',' or '}' in an object");
    }
  }

  bool parseArray(Value &out, int depth) {
    out.kind = Value::Kind::Array;
    ++pos; // '['
    skipSpace();
    if (pos < text.size() && text[pos] == ']') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      out.array.emplace_back();
      if (!parseValue(out.array.back(), depth + 1))
        return false;
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        return true;
      }
      return fail("expected ',' or ']' in an array");
    }
  }

  static void appendUtf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  bool parseHex4(uint32_t &value) {
    if (pos + 4 > text.size())
      return fail("expected four hex digits after '\\u'");
    value = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[pos + i];
      value <<= 4;
      if (c >= '0' && c <= '9')
        value |= uint32_t(c - '0');
      else if (c >= 'a' && c <= 'f')
        value |= uint32_t(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        value |= uint32_t(c - 'A' + 10);
      else
        return fail("expected four hex digits after '\\u'");
    }
    pos += 4;
    return true;
  }

  /// The length of the well-formed UTF-8 sequence at `at` (a lead byte of
  /// 0x80 or above), 0 if it is not one: no overlong forms, surrogates or
  /// code points past U+10FFFF.
  size_t utf8Length(size_t at) const {
    auto byte = [&](size_t i) -> unsigned {
      return at + i < text.size() ? (unsigned char)text[at + i] : 0;
    };
    unsigned c = byte(0);
    size_t length;
    unsigned lo = 0x80, hi = 0xBF; // the second byte's range
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0)
        lo = 0xA0;
      else if (c == 0xED)
        hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0)
        lo = 0x90;
      else if (c == 0xF4)
        hi = 0x8F;
    } else {
      return 0;
    }
    if (byte(1) < lo || byte(1) > hi)
      return 0;
    for (size_t i = 2; i < length; ++i)
      if (byte(i) < 0x80 || byte(i) > 0xBF)
        return 0;
    return length;
  }

  bool parseString(std::string &out) {
    ++pos; // '"'
    while (true) {
      if (pos >= text.size())
        return fail("unterminated string");
      unsigned char c = text[pos];
      if (c == '"') {
        ++pos;
        return true;
      }
      if (c < 0x20)
        return fail("control character in a string");
      if (c >= 0x80) {
        // RFC 8259 text is UTF-8; names reach C and Python callers.
        size_t length = utf8Length(pos);
        if (!length)
          return fail("invalid UTF-8 in a string");
        out.append(text, pos, length);
        pos += length;
        continue;
      }
      if (c != '\\') {
        out += char(c);
        ++pos;
        continue;
      }
      ++pos;
      if (pos >= text.size())
        return fail("unterminated string");
      char e = text[pos++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t cp = 0;
        if (!parseHex4(cp))
          return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          uint32_t low = 0;
          if (text.compare(pos, 2, "\\u") != 0)
            return fail("unpaired surrogate in a string");
          pos += 2;
          if (!parseHex4(low))
            return false;
          if (low < 0xDC00 || low > 0xDFFF)
            return fail("unpaired surrogate in a string");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return fail("unpaired surrogate in a string");
        }
        // The C API's strings end at the first NUL: a name holding one
        // could not be asked for, and messages quoting it would be cut.
        if (cp == 0)
          return fail("'\\u0000' in a string (the C API's strings end at a "
                      "NUL)");
        appendUtf8(out, cp);
        break;
      }
      default:
        --pos;
        return fail(std::string("invalid escape '\\") + e + "'");
      }
    }
  }

  bool parseNumber(Value &out) {
    size_t start = pos;
    bool integral = true;
    if (text[pos] == '-')
      ++pos;
    if (pos >= text.size() || !(text[pos] >= '0' && text[pos] <= '9'))
      return fail("expected a digit");
    if (text[pos] == '0') {
      ++pos;
    } else {
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
        ++pos;
    }
    if (pos < text.size() && text[pos] == '.') {
      integral = false;
      ++pos;
      if (pos >= text.size() || !(text[pos] >= '0' && text[pos] <= '9'))
        return fail("expected a digit after '.'");
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
        ++pos;
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      integral = false;
      ++pos;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (pos >= text.size() || !(text[pos] >= '0' && text[pos] <= '9'))
        return fail("expected a digit in the exponent");
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
        ++pos;
    }
    std::string literalText = text.substr(start, pos - start);
    out.kind = Value::Kind::Number;
    out.number = std::strtod(literalText.c_str(), nullptr);
    if (integral) {
      errno = 0;
      long long v = std::strtoll(literalText.c_str(), nullptr, 10);
      if (errno == 0) {
        out.integer = v;
        out.isInteger = true;
      }
    }
    return true;
  }
};
} // namespace

bool gemm::rt::json::parse(const std::string &text, Value &out,
                           std::string &error) {
  Parser parser(text);
  out = Value();
  if (parser.parseDocument(out))
    return true;
  error = parser.error;
  return false;
}
