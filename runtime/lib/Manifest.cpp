//===- Manifest.cpp - manifest.json, validated ----------------------------===//
//
// Schema checks name the entry ("kernels[3] ('linear_gemm_2')") and the key
// ("grid.tile_m"); the families group entries by ("function", "gemm") in
// manifest order, as python/gemm_mlir/harness.py's load_kernels does
// (entries of manifests older than the families fall back to their kernel
// name, one entry per family).
//
//===----------------------------------------------------------------------===//

#include "Manifest.h"
#include "Json.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <sys/stat.h>

using namespace gemm::rt;
using json::Value;

namespace {

/// Why `path` (after symbolic links) is not a regular file, or "".
std::string whyNotRegularFile(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return std::strerror(errno);
  if (!S_ISREG(st.st_mode))
    return S_ISDIR(st.st_mode) ? "it is a directory" : "not a regular file";
  return "";
}

bool fileExists(const std::string &path) {
  return whyNotRegularFile(path).empty();
}

std::string joinPath(const std::string &dir, const std::string &file) {
  if (dir.empty() || dir.back() == '/')
    return dir + file;
  return dir + "/" + file;
}

std::string describe(const Value &v) {
  switch (v.kind) {
  case Value::Kind::Number:
    if (v.isInteger)
      return std::to_string(v.integer);
    {
      std::ostringstream os;
      os << v.number;
      return os.str();
    }
  case Value::Kind::String:
    return "'" + v.string + "'";
  case Value::Kind::Bool:
    return v.boolean ? "true" : "false";
  case Value::Kind::Array:
    if (v.array.size() <= 8) {
      std::string out = "[";
      for (const Value &e : v.array) {
        if (e.kind == Value::Kind::Array || e.kind == Value::Kind::Object)
          return v.kindName();
        out += (out.size() > 1 ? ", " : "") + describe(e);
      }
      return out + "]";
    }
    return v.kindName();
  default:
    return v.kindName();
  }
}

/// Whether `v` is an array of two integers in [1, max] (tile sizes), stored
/// in `out`.
bool readTileSizes(const Value &v, int64_t max, std::array<int64_t, 2> &out) {
  if (v.kind != Value::Kind::Array || v.array.size() != 2)
    return false;
  for (size_t d = 0; d < 2; ++d) {
    const Value &e = v.array[d];
    if (e.kind != Value::Kind::Number || !e.isInteger || e.integer < 1 ||
        e.integer > max)
      return false;
    out[d] = e.integer;
  }
  return true;
}

/// Reads keys of one JSON object, recording the first error as
/// "<file>: <where>: '<key>': <message>".
class Reader {
public:
  Reader(const std::string &file, std::string &error)
      : file(file), error(error) {}

  bool fail(const std::string &where, const std::string &key,
            const std::string &message) {
    error = file + ": " + where + ": ";
    if (!key.empty())
      error += "'" + key + "': ";
    error += message;
    return false;
  }

  const Value *require(const Value &obj, const std::string &where,
                       const std::string &prefix, const std::string &key) {
    const Value *v = obj.get(key);
    if (!v)
      fail(where, prefix + key, "missing");
    return v;
  }

  bool getString(const Value &obj, const std::string &where,
                 const std::string &prefix, const std::string &key,
                 std::string &out, bool required = true) {
    const Value *v = obj.get(key);
    if (!v) {
      if (required)
        return fail(where, prefix + key, "missing");
      return true;
    }
    if (v->kind != Value::Kind::String || v->string.empty())
      return fail(where, prefix + key,
                  "expected a non-empty string, got " + describe(*v));
    out = v->string;
    return true;
  }

  bool getInt(const Value &obj, const std::string &where,
              const std::string &prefix, const std::string &key, int64_t &out,
              int64_t min, bool required = true, bool *present = nullptr) {
    const Value *v = obj.get(key);
    if (present)
      *present = v != nullptr;
    if (!v) {
      if (required)
        return fail(where, prefix + key, "missing");
      return true;
    }
    if (v->kind != Value::Kind::Number || !v->isInteger || v->integer < min)
      return fail(where, prefix + key,
                  std::string("expected an integer") +
                      (min == 0   ? " >= 0"
                       : min == 1 ? " >= 1"
                                  : "") +
                      ", got " + describe(*v));
    out = v->integer;
    return true;
  }

  bool getBool(const Value &obj, const std::string &where,
               const std::string &prefix, const std::string &key, bool &out,
               bool required = true) {
    const Value *v = obj.get(key);
    if (!v) {
      if (required)
        return fail(where, prefix + key, "missing");
      return true;
    }
    if (v->kind != Value::Kind::Bool)
      return fail(where, prefix + key,
                  "expected a boolean, got " + describe(*v));
    out = v->boolean;
    return true;
  }

  /// A launch block: three integers in [1, 1024] (CUDA's per-dimension
  /// limits are 1024, 1024, 64, and 1024 threads in all).
  bool getBlock(const Value &obj, const std::string &where,
                const std::string &prefix, const std::string &key,
                std::array<uint32_t, 3> &out) {
    const Value *v = require(obj, where, prefix, key);
    if (!v)
      return false;
    bool ok = v->kind == Value::Kind::Array && v->array.size() == 3;
    int64_t threads = 1;
    for (size_t i = 0; ok && i < 3; ++i) {
      const Value &e = v->array[i];
      ok = e.kind == Value::Kind::Number && e.isInteger && e.integer >= 1 &&
           e.integer <= 1024;
      if (ok) {
        out[i] = uint32_t(e.integer);
        threads *= e.integer;
      }
    }
    if (!ok || threads > 1024)
      return fail(where, prefix + key,
                  "expected three positive integers with a product of at "
                  "most 1024, got " +
                      describe(*v));
    return true;
  }

  bool getParams(const Value &obj, const std::string &where,
                 const std::string &prefix, const std::string &key,
                 std::vector<Param> &out) {
    const Value *v = require(obj, where, prefix, key);
    if (!v)
      return false;
    if (v->kind != Value::Kind::Array)
      return fail(where, prefix + key,
                  "expected an array, got " + describe(*v));
    for (size_t i = 0; i < v->array.size(); ++i) {
      const Value &p = v->array[i];
      std::string at = prefix + key + "[" + std::to_string(i) + "]";
      if (p.kind != Value::Kind::Object)
        return fail(where, at, "expected an object, got " + describe(p));
      Param param;
      std::string kind, type, broadcast;
      if (!getString(p, where, at + ".", "name", param.name) ||
          !getString(p, where, at + ".", "kind", kind) ||
          !getString(p, where, at + ".", "element_type", type) ||
          !getString(p, where, at + ".", "broadcast", broadcast,
                     /*required=*/false))
        return false;
      if (kind != "memref" && kind != "scalar")
        return fail(where, at + ".kind",
                    "expected 'memref' or 'scalar', got '" + kind + "'");
      param.isMemRef = kind == "memref";
      param.type = gemmRtDTypeFromName(type.c_str());
      if (param.type == GEMM_RT_DTYPE_INVALID)
        return fail(where, at + ".element_type",
                    "unknown element type '" + type + "'");
      if (!broadcast.empty()) {
        if (broadcast == "scalar")
          param.broadcast = Broadcast::Scalar;
        else if (broadcast == "row")
          param.broadcast = Broadcast::Row;
        else if (broadcast == "col")
          param.broadcast = Broadcast::Col;
        else if (broadcast == "full")
          param.broadcast = Broadcast::Full;
        else
          return fail(where, at + ".broadcast",
                      "expected 'scalar', 'row', 'col' or 'full', got '" +
                          broadcast + "'");
      }
      if (param.isMemRef) {
        int64_t rank;
        if (!getInt(p, where, at + ".", "rank", rank, 1))
          return false;
        if (rank > GEMM_RT_MAX_RANK)
          return fail(where, at + ".rank",
                      "rank " + std::to_string(rank) + " exceeds " +
                          std::to_string(GEMM_RT_MAX_RANK));
        param.rank = int32_t(rank);
        const Value *shape = p.get("shape");
        if (shape) {
          bool ok = shape->kind == Value::Kind::Array &&
                    int64_t(shape->array.size()) == rank;
          for (size_t d = 0; ok && d < shape->array.size(); ++d) {
            const Value &s = shape->array[d];
            ok =
                s.kind == Value::Kind::Number && s.isInteger && s.integer >= -1;
            if (ok)
              param.shape.push_back(s.integer);
          }
          if (!ok)
            return fail(where, at + ".shape",
                        "expected " + std::to_string(rank) +
                            " sizes (-1 for dynamic)");
        } else {
          param.shape.assign(size_t(rank), -1);
        }
      } else if (gemmRtDTypeGetSize(param.type) > 8 ||
                 param.type == GEMM_RT_DTYPE_F8E4M3FN ||
                 param.type == GEMM_RT_DTYPE_F8E5M2 ||
                 param.type == GEMM_RT_DTYPE_F8E4M3FNUZ ||
                 param.type == GEMM_RT_DTYPE_F8E5M2FNUZ) {
        return fail(where, at + ".element_type",
                    "unsupported scalar type '" + type + "'");
      }
      out.push_back(std::move(param));
    }
    return true;
  }

  const std::string &file;
  std::string &error;
};

const char *kBoundNames[kNumBoundSizes] = {"m", "n", "k", "batch", "blocks"};

bool readWhen(Reader &r, const Value &entry, const std::string &where,
              When &when) {
  const Value *v = entry.get("when");
  if (!v)
    return true;
  if (v->kind != Value::Kind::Object)
    return r.fail(where, "when", "expected an object, got " + describe(*v));
  for (const auto &member : v->object) {
    bool known = false;
    if (member.first == "wave_fit") {
      const Value &f = member.second;
      if (f.kind != Value::Kind::Object)
        return r.fail(where, "when.wave_fit",
                      "expected an object, got " + describe(f));
      for (const auto &key : f.object)
        if (key.first != "wave" && key.first != "versus" &&
            key.first != "weight" && key.first != "versus_weight")
          return r.fail(where, "when.wave_fit." + key.first, "unknown key");
      When::WaveFit fit;
      if (!r.getInt(f, where, "when.wave_fit.", "wave", fit.wave, 1) ||
          !r.getInt(f, where, "when.wave_fit.", "weight", fit.weight, 1) ||
          !r.getInt(f, where, "when.wave_fit.", "versus_weight",
                    fit.versusWeight, 1))
        return false;
      const Value *tile = r.require(f, where, "when.wave_fit.", "versus");
      if (!tile)
        return false;
      if (!readTileSizes(*tile, std::numeric_limits<int64_t>::max(),
                         fit.versus))
        return r.fail(where, "when.wave_fit.versus",
                      "expected two positive tile sizes, got " +
                          describe(*tile));
      when.waveFit = fit;
      continue;
    }
    std::optional<bool> *flag = member.first == "a_aligned"   ? &when.aligned[0]
                                : member.first == "b_aligned" ? &when.aligned[1]
                                : member.first == "whole_tiles"
                                    ? &when.wholeTiles
                                    : nullptr;
    if (flag) {
      if (member.second.kind != Value::Kind::Bool)
        return r.fail(where, "when." + member.first,
                      "expected a boolean, got " + describe(member.second));
      *flag = member.second.boolean;
      continue;
    }
    for (int s = 0; s < kNumBoundSizes && !known; ++s) {
      for (int isMax = 0; isMax < 2 && !known; ++isMax) {
        if (member.first !=
            std::string(kBoundNames[s]) + (isMax ? "_max" : "_min"))
          continue;
        known = true;
        const Value &b = member.second;
        if (b.kind != Value::Kind::Number || !b.isInteger)
          return r.fail(where, "when." + member.first,
                        "expected an integer, got " + describe(b));
        (isMax ? when.max : when.min)[s] = b.integer;
      }
    }
    if (!known)
      return r.fail(where, "when." + member.first, "unknown bound");
  }
  return true;
}

bool readSplit(Reader &r, const Value &entry, const std::string &where,
               std::optional<SplitK> &out) {
  const Value *v = entry.get("split_k");
  if (!v)
    return true;
  if (v->kind != Value::Kind::Object)
    return r.fail(where, "split_k", "expected an object, got " + describe(*v));
  SplitK s;
  std::string wsType;
  if (!r.getInt(*v, where, "split_k.", "max", s.max, 1) ||
      !r.getInt(*v, where, "split_k.", "fill_blocks", s.fillBlocks, 0) ||
      !r.getInt(*v, where, "split_k.", "min_k_per_slice", s.minKPerSlice, 0))
    return false;
  if (const Value *capacity = v->get("cluster_capacity")) {
    // Positive and non-increasing: clusters of s + 1 blocks never fit more
    // often than clusters of s.
    bool ok = capacity->kind == Value::Kind::Array && !capacity->array.empty();
    for (size_t i = 0; ok && i < capacity->array.size(); ++i) {
      const Value &c = capacity->array[i];
      ok = c.kind == Value::Kind::Number && c.isInteger && c.integer >= 1 &&
           (i == 0 || c.integer <= s.clusterCapacity.back());
      if (ok)
        s.clusterCapacity.push_back(c.integer);
    }
    if (!ok)
      return r.fail(where, "split_k.cluster_capacity",
                    "expected a non-empty list of positive, non-increasing "
                    "integers, got " +
                        describe(*capacity));
  }
  if (s.max > 65535)
    return r.fail(where, "split_k.max",
                  "at most 65535 slices (grid.y), got " +
                      std::to_string(s.max));
  if (const Value *reduction = v->get("reduction")) {
    if (reduction->kind != Value::Kind::String ||
        (reduction->string != "cluster" && reduction->string != "workspace" &&
         reduction->string != "fixup"))
      return r.fail(where, "split_k.reduction",
                    "expected \"workspace\", \"cluster\" or \"fixup\", got " +
                        describe(*reduction));
    s.cluster = reduction->string == "cluster";
    s.fixup = reduction->string == "fixup";
  }
  if (s.cluster) {
    // The slices of a tile form one cluster, at most 8 blocks (portable).
    if (s.max > 8)
      return r.fail(where, "split_k.max",
                    "at most 8 slices with \"reduction\": \"cluster\", got " +
                        std::to_string(s.max));
    out = std::move(s);
    return true;
  }
  if (!r.getString(*v, where, "split_k.", "workspace_type", wsType))
    return false;
  s.workspaceType = gemmRtDTypeFromName(wsType.c_str());
  if (s.workspaceType == GEMM_RT_DTYPE_INVALID)
    return r.fail(where, "split_k.workspace_type",
                  "unknown element type '" + wsType + "'");
  if (s.fixup) {
    if (!r.getInt(*v, where, "split_k.", "blocks_per_sm", s.blocksPerSM, 1) ||
        !r.getInt(*v, where, "split_k.", "sms", s.sms, 1))
      return false;
    // kMaxFixupSlices (include/gemm/Target/Legality.h).
    if (s.max > 16)
      return r.fail(where, "split_k.max",
                    "at most 16 slices with \"reduction\": \"fixup\", got " +
                        std::to_string(s.max));
    out = std::move(s);
    return true;
  }
  const Value *reduce = r.require(*v, where, "split_k.", "reduce");
  if (!reduce)
    return false;
  if (reduce->kind != Value::Kind::Object)
    return r.fail(where, "split_k.reduce",
                  "expected an object, got " + describe(*reduce));
  if (!r.getString(*reduce, where, "split_k.reduce.", "name", s.reduceName) ||
      !r.getBlock(*reduce, where, "split_k.reduce.", "block", s.reduceBlock) ||
      !r.getInt(*reduce, where, "split_k.reduce.", "group_outputs",
                s.reduceGroupOutputs, 1, /*required=*/false) ||
      !r.getParams(*reduce, where, "split_k.reduce.", "params", s.reduceParams))
    return false;
  // Multiplied by the slices (at most 65535) at launch.
  if (s.reduceGroupOutputs > (int64_t(1) << 31))
    return r.fail(where, "split_k.reduce.group_outputs",
                  "at most 2^31, got " + std::to_string(s.reduceGroupOutputs));
  out = std::move(s);
  return true;
}

/// "tensor_maps": [{"operand": "A", "box": [...], "swizzle": 128}, {B}]
/// (the box checked against the operand's rank by the caller).
bool readTensorMaps(Reader &r, const Value &entry, const std::string &where,
                    std::vector<TensorMap> &out) {
  const Value *v = entry.get("tensor_maps");
  if (!v)
    return true;
  if (v->kind != Value::Kind::Array || v->array.size() != 2)
    return r.fail(where, "tensor_maps",
                  "expected an array of two maps (A, B), got " + describe(*v));
  for (size_t i = 0; i < 2; ++i) {
    const Value &m = v->array[i];
    std::string at = "tensor_maps[" + std::to_string(i) + "].";
    if (m.kind != Value::Kind::Object)
      return r.fail(where, at.substr(0, at.size() - 1),
                    "expected an object, got " + describe(m));
    std::string operand;
    int64_t swizzle = 0;
    if (!r.getString(m, where, at, "operand", operand) ||
        !r.getInt(m, where, at, "swizzle", swizzle, 1))
      return false;
    if (operand != (i == 0 ? "A" : "B"))
      return r.fail(where, at + "operand",
                    std::string("expected '") + (i == 0 ? "A" : "B") +
                        "', got '" + operand + "'");
    if (swizzle != 128)
      return r.fail(where, at + "swizzle",
                    "expected 128 (the only swizzle TMA kernels use), got " +
                        std::to_string(swizzle));
    TensorMap map;
    map.operand = int(i);
    const Value *box = r.require(m, where, at, "box");
    if (!box)
      return false;
    bool ok = box->kind == Value::Kind::Array;
    for (const Value &d : ok ? box->array : std::vector<Value>()) {
      ok = d.kind == Value::Kind::Number && d.isInteger && d.integer >= 1 &&
           d.integer <= 256;
      if (!ok)
        break;
      map.box.push_back(d.integer);
    }
    if (!ok)
      return r.fail(where, at + "box",
                    "expected box sizes in [1, 256], got " + describe(*box));
    out.push_back(std::move(map));
  }
  return true;
}

bool readPack(Reader &r, const Value &entry, const std::string &where,
              std::optional<Pack> &out) {
  const Value *v = entry.get("pack");
  if (!v)
    return true;
  if (v->kind != Value::Kind::Object)
    return r.fail(where, "pack", "expected an object, got " + describe(*v));
  Pack p;
  std::string when;
  bool hasRoundTo = false, hasMinWork = false, hasMaxDirectK = false,
       hasMaxDirectOutputs = false, hasMinGemmWork = false;
  int64_t minWork = 0, maxDirectK = 0, maxDirectOutputs = 0, minGemmWork = 0;
  if (!r.getString(*v, where, "pack.", "when", when) ||
      !r.getInt(*v, where, "pack.", "multiple", p.multiple, 1) ||
      !r.getInt(*v, where, "pack.", "round_to", p.roundTo, 1,
                /*required=*/false, &hasRoundTo) ||
      !r.getInt(*v, where, "pack.", "min_work", minWork, 0,
                /*required=*/false, &hasMinWork) ||
      !r.getInt(*v, where, "pack.", "max_direct_k", maxDirectK, 0,
                /*required=*/false, &hasMaxDirectK) ||
      !r.getInt(*v, where, "pack.", "max_direct_outputs", maxDirectOutputs, 0,
                /*required=*/false, &hasMaxDirectOutputs) ||
      !r.getInt(*v, where, "pack.", "min_gemm_work", minGemmWork, 0,
                /*required=*/false, &hasMinGemmWork) ||
      !r.getBlock(*v, where, "pack.", "block", p.block) ||
      !r.getInt(*v, where, "pack.", "warp_elements", p.warpElements, 1))
    return false;
  bool hasMaxBlocks = false;
  int64_t maxBlocks = 0;
  if (!r.getInt(*v, where, "pack.", "max_blocks", maxBlocks, 1,
                /*required=*/false, &hasMaxBlocks))
    return false;
  if (hasMaxBlocks)
    p.maxBlocks = maxBlocks;
  if (!r.getBool(*v, where, "pack.", "each_operand", p.eachOperand,
                 /*required=*/false))
    return false;
  if (when != "always" && when != "unaligned")
    return r.fail(where, "pack.when",
                  "expected 'always' or 'unaligned', got '" + when + "'");
  p.always = when == "always";
  if (!hasRoundTo)
    p.roundTo = p.multiple;
  // Fields that come in pairs: the missing one named beside the one given.
  auto paired = [&](bool hasA, const char *a, bool hasB, const char *b) {
    if (hasA == hasB)
      return true;
    return r.fail(where, std::string("pack.") + (hasA ? b : a),
                  std::string("missing (required with '") + (hasA ? a : b) +
                      "')");
  };
  // Upper bounds of integer fields (getInt checks the lower ones).
  auto atMost = [&](const char *key, int64_t value, int64_t log2Max) {
    if (value <= (int64_t(1) << log2Max))
      return true;
    return r.fail(where, std::string("pack.") + key,
                  "expected at most 2^" + std::to_string(log2Max) + ", got " +
                      std::to_string(value));
  };
  if (!paired(hasMinWork, "min_work", hasMaxDirectK, "max_direct_k"))
    return false;
  if ((hasMaxDirectOutputs || hasMinGemmWork) && !hasMinWork)
    return r.fail(
        where, "pack.min_work",
        std::string("missing (required with '") +
            (hasMaxDirectOutputs ? "max_direct_outputs" : "min_gemm_work") +
            "')");
  if (hasMinWork) {
    p.minWork = minWork;
    p.maxDirectK = maxDirectK;
  }
  bool hasSectorMultiple = false, hasSectorIntensity = false;
  if (!r.getInt(*v, where, "pack.", "sector_multiple", p.sectorMultiple, 1,
                /*required=*/false, &hasSectorMultiple) ||
      !r.getInt(*v, where, "pack.", "sector_min_intensity",
                p.sectorMinIntensity, 0, /*required=*/false,
                &hasSectorIntensity))
    return false;
  if (!paired(hasSectorMultiple, "sector_multiple", hasSectorIntensity,
              "sector_min_intensity") ||
      !atMost("sector_multiple", p.sectorMultiple, 20) ||
      !atMost("sector_min_intensity", p.sectorMinIntensity, 29))
    return false;
  if (hasMaxDirectOutputs)
    p.maxDirectOutputs = maxDirectOutputs;
  if (hasMinGemmWork)
    p.minGemmWork = minGemmWork;
  const Value *ops = r.require(*v, where, "pack.", "operands");
  if (!ops)
    return false;
  size_t count = ops->kind == Value::Kind::Array ? ops->array.size() : 0;
  if (count != 2 && !(p.eachOperand && count == 1))
    return r.fail(where, "pack.operands",
                  p.eachOperand
                      ? "expected an array of one or two operands (A, B)"
                      : "expected an array of two operands (A, B)");
  for (size_t i = 0; i < count; ++i) {
    const Value &o = ops->array[i];
    std::string at = "pack.operands[" + std::to_string(i) + "].";
    if (o.kind != Value::Kind::Object)
      return r.fail(where, at.substr(0, at.size() - 1),
                    "expected an object, got " + describe(o));
    PackOperand op;
    std::string name;
    if (!r.getString(o, where, at, "kernel", op.kernel) ||
        !r.getString(o, where, at, "name", name))
      return false;
    // A before B: the first may be either, the second is B.
    if (name == "A" && i == 0)
      op.operand = 0;
    else if (name == "B" && (i == 1 || count == 1))
      op.operand = 1;
    else
      return r.fail(where, at + "name",
                    std::string("expected ") + (i == 0 ? "'A' or 'B'" : "'B'") +
                        ", got '" + name + "'");
    std::string opWhen = when;
    if (!r.getString(o, where, at, "when", opWhen, /*required=*/false))
      return false;
    if (opWhen != "always" && opWhen != "unaligned")
      return r.fail(where, at + "when",
                    "expected 'always' or 'unaligned', got '" + opWhen + "'");
    op.always = opWhen == "always";
    if (!r.getBool(o, where, at, "transpose", op.transpose,
                   /*required=*/false))
      return false;
    if (op.transpose) {
      if (!op.always)
        return r.fail(where, at + "when",
                      "a transposed operand is packed 'always', got '" +
                          opWhen + "'");
      if (!p.eachOperand)
        return r.fail(where, "pack.each_operand",
                      "must be true when an operand is transposed");
      if (!p.maxBlocks)
        return r.fail(where, "pack.max_blocks",
                      "missing (required when an operand is transposed)");
      const Value *tile = r.require(o, where, at, "tile");
      if (!tile)
        return false;
      if (!readTileSizes(*tile, int64_t(1) << 20, op.tile))
        return r.fail(where, at + "tile",
                      "expected two positive tile sizes (workspace rows, "
                      "columns)");
    }
    const Value *dims = r.require(o, where, at, "round_up_dims");
    if (!dims)
      return false;
    bool ok = dims->kind == Value::Kind::Array;
    for (size_t d = 0; ok && d < dims->array.size(); ++d) {
      const Value &e = dims->array[d];
      ok = e.kind == Value::Kind::Number && e.isInteger && e.integer >= 0 &&
           e.integer < GEMM_RT_MAX_RANK;
      if (ok)
        op.roundUpDims.push_back(int32_t(e.integer));
    }
    if (!ok)
      return r.fail(where, at + "round_up_dims",
                    "expected an array of dimension indices");
    p.operands.push_back(std::move(op));
  }
  out = std::move(p);
  return true;
}

bool readKernel(Reader &r, const Value &e, size_t index, KernelEntry &k) {
  std::string where = "kernels[" + std::to_string(index) + "]";
  if (e.kind != Value::Kind::Object)
    return r.fail(where, "", "expected an object, got " + describe(e));
  k.index = index;
  if (!r.getString(e, where, "", "name", k.name))
    return false;
  where += " ('" + k.name + "')";
  int64_t smem = 0;
  if (!r.getString(e, where, "", "module", k.module) ||
      !r.getString(e, where, "", "chip", k.chip) ||
      !r.getString(e, where, "", "layout", k.layout) ||
      !r.getString(e, where, "", "function", k.function,
                   /*required=*/false) ||
      !r.getString(e, where, "", "rule", k.rule, /*required=*/false) ||
      !r.getString(e, where, "", "config", k.config, /*required=*/false) ||
      !r.getInt(e, where, "", "gemm", k.gemm, 0, /*required=*/false) ||
      !r.getBlock(e, where, "", "block", k.block) ||
      !r.getInt(e, where, "", "dynamic_shared_memory", smem, 0) ||
      !r.getBool(e, where, "", "programmatic_launch", k.programmaticLaunch,
                 /*required=*/false))
    return false;
  if (smem > std::numeric_limits<int32_t>::max())
    return r.fail(where, "dynamic_shared_memory",
                  "too large: " + std::to_string(smem));
  k.dynamicSharedMemory = smem;
  if (k.layout != "nn" && k.layout != "nt" && k.layout != "tn" &&
      k.layout != "tt")
    return r.fail(where, "layout",
                  "expected 'nn', 'nt', 'tn' or 'tt', got '" + k.layout + "'");
  const Value *grid = r.require(e, where, "", "grid");
  if (!grid)
    return false;
  if (grid->kind != Value::Kind::Object)
    return r.fail(where, "grid", "expected an object, got " + describe(*grid));
  if (!r.getInt(*grid, where, "grid.", "tile_m", k.tileM, 1) ||
      !r.getInt(*grid, where, "grid.", "tile_n", k.tileN, 1) ||
      !r.getBool(*grid, where, "grid.", "batched", k.batched,
                 /*required=*/false) ||
      !r.getBool(*grid, where, "grid.", "persistent", k.persistent,
                 /*required=*/false) ||
      !r.getInt(*grid, where, "grid.", "cluster_x", k.clusterX, 1,
                /*required=*/false))
    return false;
  // Entries written before kernel families name no function: one family per
  // kernel, named as the harness names it.
  if (k.function.empty()) {
    size_t at = k.name.rfind("_gemm");
    k.function = at == std::string::npos ? k.name : k.name.substr(0, at);
  }
  if (!r.getParams(e, where, "", "params", k.params) ||
      !readWhen(r, e, where, k.when) || !readSplit(r, e, where, k.split) ||
      !readPack(r, e, where, k.pack) ||
      !readTensorMaps(r, e, where, k.tensorMaps))
    return false;

  // The operands the launch derives its sizes from.
  if (k.params.size() < 3)
    return r.fail(where, "params",
                  "expected at least A, B and C, got " +
                      std::to_string(k.params.size()) + " parameters");
  size_t numOperands = k.params.size() - k.internalParams();
  if (numOperands < 3)
    return r.fail(where, "params", "expected A, B and C before the workspace");
  for (size_t i = 0; i < 3; ++i) {
    const Param &p = k.params[i];
    const char *expected[] = {"A", "B", "C"};
    std::string at = "params[" + std::to_string(i) + "]";
    if (p.name != expected[i])
      return r.fail(where, at + ".name",
                    std::string("expected '") + expected[i] + "', got '" +
                        p.name + "'");
    if (!p.isMemRef || (p.rank != 2 && p.rank != 3))
      return r.fail(where, at,
                    std::string("expected ") + expected[i] +
                        " to be a memref of rank 2 or 3");
  }
  if (k.batched != (k.params[2].rank == 3) && e.get("grid")->get("batched"))
    return r.fail(where, "grid.batched",
                  std::string("is ") + (k.batched ? "true" : "false") +
                      " but C has rank " + std::to_string(k.params[2].rank));
  k.batched = k.params[2].rank == 3;
  for (const TensorMap &map : k.tensorMaps)
    if (int64_t(map.box.size()) != k.params[map.operand].rank)
      return r.fail(where,
                    "tensor_maps[" + std::to_string(map.operand) + "].box",
                    "expected " + std::to_string(k.params[map.operand].rank) +
                        " sizes (the operand's rank), got " +
                        std::to_string(map.box.size()));
  if (k.hasReduceKernel()) {
    const Param &ws = k.params.back();
    if (ws.name != "workspace" || !ws.isMemRef || ws.rank != 4 ||
        ws.type != k.split->workspaceType)
      return r.fail(where, "params",
                    "a split_k entry's last parameter must be the rank-4 "
                    "memref 'workspace' of the workspace type");
    // The reduction takes C, the extras and the workspace.
    std::vector<Param> expected(k.params.begin() + 2, k.params.end());
    if (k.split->reduceParams != expected)
      return r.fail(where, "split_k.reduce.params",
                    "expected the kernel's parameters from C on (C, the "
                    "extras, the workspace)");
  } else if (k.fixesUp()) {
    const Param &ws = k.params[k.params.size() - 2];
    const Param &flags = k.params.back();
    if (ws.name != "workspace" || !ws.isMemRef || ws.rank != 4 ||
        ws.type != k.split->workspaceType || flags.name != "flags" ||
        !flags.isMemRef || flags.rank != 1 || flags.type != GEMM_RT_DTYPE_I32)
      return r.fail(where, "params",
                    "a fix-up entry's last parameters must be the rank-4 "
                    "memref 'workspace' of the workspace type and the rank-1 "
                    "i32 memref 'flags'");
  } else if (!k.params.empty() && (k.params.back().name == "workspace" ||
                                   k.params.back().name == "flags")) {
    return r.fail(where, "params",
                  "has a 'workspace' parameter but no 'split_k' record "
                  "with a workspace");
  }
  if (k.pack) {
    for (size_t i = 0; i < k.pack->operands.size(); ++i) {
      const PackOperand &op = k.pack->operands[i];
      int64_t rank = k.params[size_t(op.operand)].rank;
      for (int32_t d : op.roundUpDims)
        if (d >= rank)
          return r.fail(
              where, "pack.operands[" + std::to_string(i) + "].round_up_dims",
              "dimension " + std::to_string(d) +
                  " is out of the operand's rank");
      if (op.transpose && rank < 2)
        return r.fail(where,
                      "pack.operands[" + std::to_string(i) + "].transpose",
                      "the operand has rank " + std::to_string(rank) +
                          ", at least 2 is needed to transpose it");
    }
  }
  return true;
}

} // namespace

bool gemm::rt::readRegularFile(const std::string &path, std::string &bytes,
                               std::string &why) {
  why = whyNotRegularFile(path);
  if (!why.empty())
    return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = "cannot open it";
    return false;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (!in && !in.eof()) {
    why = "a read failed";
    return false;
  }
  bytes = buffer.str();
  return true;
}

bool gemm::rt::loadManifest(const std::string &directory, Manifest &manifest,
                            std::string &error) {
  manifest = Manifest();
  manifest.directory = directory;
  manifest.path = joinPath(directory, "manifest.json");
  std::string text, why;
  if (!readRegularFile(manifest.path, text, why)) {
    error = "cannot read '" + manifest.path + "': " + why;
    return false;
  }
  Value root;
  std::string parseError;
  if (!json::parse(text, root, parseError)) {
    error = manifest.path + ": " + parseError;
    return false;
  }
  Reader r(manifest.path, error);
  if (root.kind != Value::Kind::Object)
    return r.fail("top level", "", "expected an object, got " + describe(root));
  int64_t version = 1;
  if (!r.getInt(root, "top level", "", "version", version, 0,
                /*required=*/false))
    return false;
  if (version != 1)
    return r.fail("top level", "version",
                  "unsupported version " + std::to_string(version) +
                      " (this runtime reads version 1)");

  const Value *objects = r.require(root, "top level", "", "objects");
  if (!objects)
    return false;
  if (objects->kind != Value::Kind::Array)
    return r.fail("top level", "objects",
                  "expected an array, got " + describe(*objects));
  for (size_t i = 0; i < objects->array.size(); ++i) {
    const Value &o = objects->array[i];
    std::string where = "objects[" + std::to_string(i) + "]";
    if (o.kind != Value::Kind::Object)
      return r.fail(where, "", "expected an object, got " + describe(o));
    ObjectEntry obj;
    std::string file;
    if (!r.getString(o, where, "", "module", obj.module) ||
        !r.getString(o, where, "", "chip", obj.chip) ||
        !r.getString(o, where, "", "format", obj.format) ||
        !r.getString(o, where, "", "file", file))
      return false;
    if (file.find('/') != std::string::npos)
      return r.fail(where, "file",
                    "expected a file name in the manifest's folder, got '" +
                        file + "'");
    for (const ObjectEntry &other : manifest.objects)
      if (other.module == obj.module && other.chip == obj.chip)
        return r.fail(where, "",
                      "a second object for module '" + obj.module +
                          "' and chip '" + obj.chip + "'");
    obj.path = joinPath(directory, file);
    obj.isBinary = obj.format != "assembly" && obj.format != "isa";
    // As the harness does: a cubin assembled from the PTX (scripts/
    // gpu_run.sh runs ptxas beside it) is loaded instead of the PTX.
    size_t dot = file.rfind('.');
    if (!obj.isBinary && dot != std::string::npos &&
        file.substr(dot) == ".ptx") {
      std::string cubin = joinPath(directory, file.substr(0, dot) + ".cubin");
      if (fileExists(cubin)) {
        obj.path = cubin;
        obj.isBinary = true;
      }
    }
    if (!fileExists(obj.path))
      return r.fail(where, "file", "'" + obj.path + "' does not exist");
    manifest.objects.push_back(std::move(obj));
  }

  const Value *kernels = r.require(root, "top level", "", "kernels");
  if (!kernels)
    return false;
  if (kernels->kind != Value::Kind::Array)
    return r.fail("top level", "kernels",
                  "expected an array, got " + describe(*kernels));
  for (size_t i = 0; i < kernels->array.size(); ++i) {
    KernelEntry k;
    if (!readKernel(r, kernels->array[i], i, k))
      return false;
    std::string where = "kernels[" + std::to_string(i) + "] ('" + k.name + "')";
    bool found = false;
    for (const ObjectEntry &o : manifest.objects)
      found |= o.module == k.module && o.chip == k.chip;
    if (!found)
      return r.fail(where, "module",
                    "no object for module '" + k.module + "' and chip '" +
                        k.chip + "'");
    // A name repeats only where one family launches one kernel under
    // several rules (docs/runtime.md): the same function, GEMM, module,
    // chip, config, block and shared memory.
    for (const KernelEntry &other : manifest.kernels)
      if (other.name == k.name &&
          (other.function.empty() || other.function != k.function ||
           other.gemm != k.gemm || other.module != k.module ||
           other.chip != k.chip || other.config != k.config ||
           other.block != k.block ||
           other.dynamicSharedMemory != k.dynamicSharedMemory))
        return r.fail(where, "name",
                      "a second entry named '" + k.name +
                          "' that is not the same kernel of the same "
                          "function (function, gemm, module, chip, config, "
                          "block and dynamic_shared_memory must match)");
    manifest.kernels.push_back(std::move(k));
  }

  // Families: (function, gemm) in order of first appearance.
  for (size_t i = 0; i < manifest.kernels.size(); ++i) {
    const KernelEntry &k = manifest.kernels[i];
    Family *family = nullptr;
    for (Family &f : manifest.families)
      if (f.function == k.function && f.gemm == k.gemm)
        family = &f;
    if (!family) {
      manifest.families.emplace_back();
      family = &manifest.families.back();
      family->function = k.function;
      family->gemm = k.gemm;
      family->layout = k.layout;
      family->chip = k.chip;
      family->params.assign(k.params.begin(),
                            k.params.end() - k.internalParams());
    }
    std::string where = "kernels[" + std::to_string(i) + "] ('" + k.name + "')";
    std::vector<Param> params(k.params.begin(),
                              k.params.end() - k.internalParams());
    if (!family->members.empty()) {
      const KernelEntry &first = manifest.kernels[family->members.front()];
      if (params != family->params)
        return r.fail(where, "params",
                      "differ from those of '" + first.name +
                          "', the first kernel of its family");
      if (k.layout != family->layout)
        return r.fail(where, "layout",
                      "'" + k.layout + "' differs from '" + family->layout +
                          "' of '" + first.name +
                          "', the first kernel of its family");
      if (k.chip != family->chip)
        return r.fail(where, "chip",
                      "'" + k.chip + "' differs from '" + family->chip +
                          "' of '" + first.name +
                          "', the first kernel of its family");
    }
    family->members.push_back(i);
  }
  for (Family &f : manifest.families) {
    size_t sameFunction = 0;
    for (const Family &g : manifest.families)
      sameFunction += g.function == f.function;
    f.name = sameFunction > 1 ? f.function + "#" + std::to_string(f.gemm)
                              : f.function;
  }
  return true;
}

int64_t gemm::rt::countBlocks(int64_t m, int64_t n, int64_t batch,
                              int64_t tileM, int64_t tileN) {
  auto ceilDiv = [](uint64_t a, uint64_t b) { return (a + b - 1) / b; };
  uint64_t tm = ceilDiv(uint64_t(std::max<int64_t>(m, 0)), uint64_t(tileM));
  uint64_t tn = ceilDiv(uint64_t(std::max<int64_t>(n, 0)), uint64_t(tileN));
  uint64_t b = uint64_t(std::max<int64_t>(batch, 0));
  const uint64_t cap = uint64_t(std::numeric_limits<int64_t>::max());
  auto mul = [&](uint64_t x, uint64_t y) {
    if (x != 0 && y > cap / x)
      return cap;
    return std::min(x * y, cap);
  };
  return int64_t(mul(mul(tm, tn), b));
}

bool gemm::rt::whenHolds(const KernelEntry &entry, int64_t m, int64_t n,
                         int64_t k, int64_t batch, Alignment align) {
  const When &w = entry.when;
  if ((w.aligned[0] && *w.aligned[0] != align.a) ||
      (w.aligned[1] && *w.aligned[1] != align.b))
    return false;
  int64_t sizes[kNumBoundSizes] = {m, n, k, batch, 0};
  if (w.min[kBlocks] || w.max[kBlocks] || w.waveFit)
    sizes[kBlocks] = countBlocks(m, n, batch, entry.tileM, entry.tileN);
  for (int s = 0; s < kNumBoundSizes; ++s) {
    if (w.min[s] && sizes[s] < *w.min[s])
      return false;
    if (w.max[s] && sizes[s] > *w.max[s])
      return false;
  }
  if (w.wholeTiles &&
      *w.wholeTiles != (m % entry.tileM == 0 && n % entry.tileN == 0))
    return false;
  if (const std::optional<When::WaveFit> &fit = w.waveFit) {
    // weight * ceil(blocks / wave), saturating at INT64_MAX.
    auto weigh = [&](int64_t blocks, int64_t weight) {
      uint64_t waves =
          (uint64_t(blocks) + uint64_t(fit->wave) - 1) / uint64_t(fit->wave);
      const uint64_t cap = uint64_t(std::numeric_limits<int64_t>::max());
      return waves > cap / uint64_t(weight) ? cap : waves * uint64_t(weight);
    };
    int64_t versus = countBlocks(m, n, batch, fit->versus[0], fit->versus[1]);
    if (weigh(sizes[kBlocks], fit->weight) > weigh(versus, fit->versusWeight))
      return false;
  }
  return true;
}

size_t gemm::rt::chooseEntry(const Manifest &manifest, const Family &family,
                             int64_t m, int64_t n, int64_t k, int64_t batch,
                             Alignment align) {
  for (size_t i = 0; i < family.members.size(); ++i)
    if (whenHolds(manifest.kernels[family.members[i]], m, n, k, batch, align))
      return i;
  return family.members.size() - 1;
}

namespace {
/// SplitK's slice rule for `blocks` blocks filling up to `fillBlocks` (0:
/// no bound): max; floor(fillBlocks / blocks); ceil(K / min_k_per_slice);
/// the cluster sizes whose capacity holds the blocks; at least 1.
int64_t policySlices(const SplitK &s, int64_t k, int64_t blocks,
                     int64_t fillBlocks) {
  int64_t slices = s.max;
  if (fillBlocks > 0)
    slices =
        std::min<int64_t>(slices, fillBlocks / std::max<int64_t>(blocks, 1));
  uint64_t kk = uint64_t(std::max<int64_t>(k, 0));
  uint64_t per = uint64_t(std::max<int64_t>(s.minKPerSlice, 1));
  slices = std::min<int64_t>(slices, int64_t((kk + per - 1) / per));
  if (!s.clusterCapacity.empty()) {
    int64_t fits = 0;
    for (int64_t capacity : s.clusterCapacity)
      fits += blocks <= capacity;
    slices = std::min(slices, fits);
  }
  return std::max<int64_t>(slices, 1);
}
} // namespace

FixupSplit gemm::rt::fixupSplit(const KernelEntry &entry, int64_t m, int64_t n,
                                int64_t k, int64_t batch,
                                int64_t multiprocessors) {
  FixupSplit f;
  if (!entry.fixesUp())
    return f;
  const SplitK &s = *entry.split;
  int64_t sms = multiprocessors > 0 ? multiprocessors : s.sms;
  int64_t wave = std::max<int64_t>(sms * s.blocksPerSM, 1);
  f.tail = countBlocks(m, n, batch, entry.tileM, entry.tileN) % wave;
  if (f.tail == 0)
    return f;
  // The tail's tiles fill the wave's blocks.
  f.slices = policySlices(s, k, f.tail, wave);
  if (f.slices == 1)
    f.tail = 0; // one slice splits nothing
  return f;
}

int64_t gemm::rt::splitSlices(const KernelEntry &entry, int64_t m, int64_t n,
                              int64_t k, int64_t batch,
                              int64_t multiprocessors) {
  if (!entry.split)
    return 1;
  if (entry.fixesUp())
    return fixupSplit(entry, m, n, k, batch, multiprocessors).slices;
  return policySlices(*entry.split, k,
                      countBlocks(m, n, batch, entry.tileM, entry.tileN),
                      entry.split->fillBlocks);
}

bool gemm::rt::parseSmChip(const std::string &chip, int &major, int &minor,
                           bool &archSpecific) {
  // sm_<major><minor>[a], the minor one digit (chipguard.py's _sm).
  if (chip.compare(0, 3, "sm_") != 0)
    return false;
  std::string digits = chip.substr(3);
  archSpecific = !digits.empty() && digits.back() == 'a';
  if (archSpecific)
    digits.pop_back();
  if (digits.size() < 2 ||
      !std::all_of(digits.begin(), digits.end(),
                   [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  major = std::stoi(digits.substr(0, digits.size() - 1));
  minor = digits.back() - '0';
  return true;
}
