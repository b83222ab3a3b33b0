//===- TuningDB.cpp - The tuning database ---------------------------------===//

#include "gemm/Tuning/TuningDB.h"
#include "gemm/Tuning/Lattice.h"
#include "gemm/Utils/Files.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cmath>

using namespace mlir::gemm;
namespace json = llvm::json;

namespace {
llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Reads a list of `n` positive integers.
bool readShape(const json::Object &o, llvm::StringRef key, size_t n,
               llvm::SmallVectorImpl<int64_t> &out) {
  const json::Array *a = o.getArray(key);
  if (!a || a->size() != n)
    return false;
  for (const json::Value &v : *a) {
    std::optional<int64_t> i = v.getAsInteger();
    if (!i || *i <= 0)
      return false;
    out.push_back(*i);
  }
  return true;
}

/// Parses the "config" object of an entry; returns the name of the first bad
/// field, or "" on success.
std::string readConfig(const json::Object &o, TileConfig &c) {
  std::optional<llvm::StringRef> kind = o.getString("kind");
  if (!kind)
    return "kind";
  if (*kind == "simt")
    c.kind = InstrKind::simt;
  else if (*kind == "mma_sync")
    c.kind = InstrKind::mma_sync;
  else if (*kind == "wgmma")
    c.kind = InstrKind::wgmma;
  else if (*kind == "mfma")
    c.kind = InstrKind::mfma;
  else if (*kind == "gemv")
    c.kind = InstrKind::gemv;
  else
    return "kind";
  llvm::SmallVector<int64_t, 3> block, warps, instr;
  if (!readShape(o, "block", 3, block))
    return "block";
  if (!readShape(o, "warps", 2, warps))
    return "warps";
  if (!readShape(o, "instr", 3, instr))
    return "instr";
  c.bm = block[0], c.bn = block[1], c.bk = block[2];
  c.wm = warps[0], c.wn = warps[1];
  c.im = instr[0], c.in = instr[1], c.ik = instr[2];
  std::optional<int64_t> stages = o.getInteger("stages");
  if (!stages)
    return "stages";
  c.stages = *stages;
  // Optional fields, when present, must have their type: a wrongly typed
  // one is an error, not a default.
  for (llvm::StringRef key :
       {"smem", "raster", "reduction", "load", "schedule"})
    if (const json::Value *v = o.get(key); v && !v->getAsString())
      return key.str();
  for (llvm::StringRef key : {"group", "split_k", "multicast"})
    if (const json::Value *v = o.get(key); v && !v->getAsInteger())
      return key.str();
  std::optional<llvm::StringRef> smem = o.getString("smem");
  if (!smem)
    c.smem = SmemKind::swizzle;
  else if (*smem == "swizzle")
    c.smem = SmemKind::swizzle;
  else if (*smem == "pad")
    c.smem = SmemKind::pad;
  else if (*smem == "plain")
    c.smem = SmemKind::plain;
  else
    return "smem";
  std::optional<llvm::StringRef> raster = o.getString("raster");
  if (raster && *raster != "row" && *raster != "column")
    return "raster";
  c.rasterColumn = raster && *raster == "column";
  c.group = o.getInteger("group").value_or(1);
  c.splitK = o.getInteger("split_k").value_or(1);
  std::optional<llvm::StringRef> reduction = o.getString("reduction");
  if (reduction && *reduction != "workspace" && *reduction != "cluster" &&
      *reduction != "fixup")
    return "reduction";
  c.clusterReduce = reduction && *reduction == "cluster";
  c.fixupReduce = reduction && *reduction == "fixup";
  std::optional<llvm::StringRef> load = o.getString("load");
  if (load && *load != "cp_async" && *load != "tma" && *load != "tma_ws")
    return "load";
  c.tmaLoad = load && *load != "cp_async";
  c.producerWarp = load && *load == "tma_ws";
  std::optional<llvm::StringRef> schedule = o.getString("schedule");
  if (schedule && *schedule != "tile" && *schedule != "pingpong" &&
      *schedule != "persistent")
    return "schedule";
  c.pingpong = schedule && *schedule == "pingpong";
  c.persistent = schedule && *schedule != "tile";
  c.multicast = o.getInteger("multicast").value_or(1);
  return "";
}
} // namespace

/// The offset at which `text` nests JSON arrays and objects deeper than
/// `limit`, if it does (strings skipped).
static std::optional<size_t> findDeepNesting(llvm::StringRef text,
                                             unsigned limit) {
  unsigned depth = 0;
  bool inString = false;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char ch = text[i];
    if (inString) {
      if (ch == '\\')
        ++i;
      else if (ch == '"')
        inString = false;
      continue;
    }
    if (ch == '"')
      inString = true;
    else if (ch == '[' || ch == '{') {
      if (++depth > limit)
        return i;
    } else if ((ch == ']' || ch == '}') && depth > 0)
      --depth;
  }
  return std::nullopt;
}

llvm::Expected<TuningDB> mlir::gemm::parseTuningDB(llvm::StringRef text) {
  // llvm::json::parse recurses once per nesting level: tens of thousands of
  // '[' overflowed the stack. A tuning database nests 4 deep.
  constexpr unsigned kMaxNesting = 64;
  if (std::optional<size_t> at = findDeepNesting(text, kMaxNesting))
    return fail("malformed tuning database: nested deeper than " +
                std::to_string(kMaxNesting) + " levels at offset " +
                std::to_string(*at));
  llvm::Expected<json::Value> root = json::parse(text);
  if (!root)
    return fail("malformed tuning database: " +
                llvm::toString(root.takeError()));
  const json::Object *top = root->getAsObject();
  if (!top)
    return fail("tuning database must be a JSON object");
  std::optional<llvm::StringRef> schema = top->getString("schema");
  if (!schema || *schema != kTuningDBSchema)
    return fail("tuning database schema is '" +
                (schema ? *schema : llvm::StringRef("<missing>")) +
                "', expected '" + kTuningDBSchema + "'");
  std::optional<int64_t> version = top->getInteger("version");
  if (!version || *version != kTuningDBVersion)
    return fail("tuning database version " +
                (version ? std::to_string(*version) : "<missing>") +
                " is not supported (expected " +
                std::to_string(kTuningDBVersion) + ")");
  const json::Array *entries = top->getArray("entries");
  if (!entries)
    return fail("tuning database has no 'entries' array");
  TuningDB db;
  for (auto [index, value] : llvm::enumerate(*entries)) {
    std::string where = "tuning database entry #" + std::to_string(index);
    const json::Object *o = value.getAsObject();
    if (!o)
      return fail(where + " is not an object");
    TuningEntry e;
    for (auto [key, field] :
         {std::pair<llvm::StringRef, std::string *>{"arch", &e.arch},
          {"dtype", &e.dtype},
          {"acc", &e.acc},
          {"layout", &e.layout}}) {
      std::optional<llvm::StringRef> s = o->getString(key);
      if (!s)
        return fail(where + ": missing or non-string '" + key + "'");
      *field = s->str();
    }
    const TargetInfo *target = lookupTarget(e.arch);
    if (!target)
      return fail(where + ": unknown chip '" + e.arch + "' (known: " +
                  knownTargetNames() + ")");
    GemmProblem types;
    if (e.dtype == "tf32") {
      types.a = ElemKind::f32;
      types.allowTf32 = true;
    } else if (std::optional<ElemKind> a = parseElemKind(e.dtype);
               a && *a != ElemKind::tf32 && *a != ElemKind::i32) {
      types.a = *a;
    } else {
      return fail(where + ": unknown dtype '" + e.dtype + "'");
    }
    std::optional<ElemKind> acc = parseElemKind(e.acc);
    if (!acc || *acc == ElemKind::tf32)
      return fail(where + ": unknown accumulator type '" + e.acc + "'");
    types.acc = *acc;
    if (!parseLayout(e.layout, types.transA, types.transB))
      return fail(where + ": unknown layout '" + e.layout + "'");
    std::optional<llvm::StringRef> epi = o->getString("epilogue");
    std::optional<EpilogueClass> epiClass =
        epi ? parseEpilogueClass(*epi) : std::nullopt;
    if (!epiClass)
      return fail(where + ": unknown epilogue class '" +
                  (epi ? *epi : llvm::StringRef("<missing>")) +
                  "' (expected none, elementwise or reads_c)");
    e.epilogue = *epiClass;
    for (auto [key, field] : {std::pair<llvm::StringRef, int64_t *>{"m", &e.m},
                              {"n", &e.n},
                              {"k", &e.k}}) {
      std::optional<int64_t> v = o->getInteger(key);
      if (!v || *v <= 0)
        return fail(where + ": '" + key + "' must be a positive integer");
      *field = *v;
    }
    const json::Object *config = o->getObject("config");
    if (!config)
      return fail(where + ": missing 'config' object");
    std::string bad = readConfig(*config, e.config);
    if (!bad.empty())
      return fail(where + ": invalid config field '" + bad + "'");
    std::string illegal = checkConfig(e.config, types, *target);
    if (!illegal.empty())
      return fail(where + ": config " + e.config.str() + " is illegal for " +
                  e.dtype + " " + e.layout + " on " + e.arch + ": " + illegal);
    if (const json::Value *t = o->get("tflops"); t && !t->getAsNumber())
      return fail(where + ": 'tflops' must be a number");
    e.tflops = o->getNumber("tflops").value_or(0.0);
    db.entries.push_back(std::move(e));
  }
  return db;
}

llvm::Expected<TuningDB> mlir::gemm::loadTuningDB(llvm::StringRef path) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      readRegularFile(path, /*isText=*/true);
  if (!buffer)
    return fail("cannot read tuning database '" + path +
                "': " + llvm::toString(buffer.takeError()));
  return parseTuningDB((*buffer)->getBuffer());
}

std::optional<TuningMatch> mlir::gemm::lookupTuningDB(
    const TuningDB &db, llvm::StringRef arch, const GemmProblem &problem,
    std::optional<bool> aAligned, std::optional<bool> bAligned) {
  std::string dtype = problem.dtypeKey();
  llvm::StringRef acc = stringifyElemKind(problem.acc);
  llvm::StringRef layout = problem.layoutName();
  auto sameTypes = [&](const TuningEntry &e) {
    return e.arch == arch && e.dtype == dtype && e.acc == acc &&
           e.layout == layout;
  };
  // The problem's epilogue class if the database has it, else `none`.
  EpilogueClass epi = EpilogueClass::none;
  for (const TuningEntry &e : db.entries)
    if (sameTypes(e) && e.epilogue == problem.epilogue)
      epi = problem.epilogue;
  // The problem's operand alignment, and each entry's (its shape's, with
  // the problem's types and layout, which the entry shares).
  std::pair<bool, bool> want = {
      aAligned.value_or(problem.rowsAllowVectorCopies(/*operandB=*/false)),
      bAligned.value_or(problem.rowsAllowVectorCopies(/*operandB=*/true))};
  auto alignmentOf = [&](const TuningEntry &e) {
    GemmProblem measured = problem;
    measured.m = e.m, measured.n = e.n, measured.k = e.k;
    return std::make_pair(measured.rowsAllowVectorCopies(false),
                          measured.rowsAllowVectorCopies(true));
  };
  // The nearest entry of the problem's alignment, and the nearest of all
  // (which stands in when there is none of it).
  auto logBucket = [](int64_t d) { return std::log2(double(shapeBucket(d))); };
  std::optional<TuningMatch> nearestSame, nearestAny;
  for (const TuningEntry &e : db.entries) {
    if (!sameTypes(e) || e.epilogue != epi)
      continue;
    double distance = std::fabs(logBucket(problem.m) - logBucket(e.m)) +
                      std::fabs(logBucket(problem.n) - logBucket(e.n)) +
                      std::fabs(logBucket(problem.k) - logBucket(e.k));
    TuningMatch match{&e, distance == 0, distance, alignmentOf(e) == want};
    if (match.sameAlignment &&
        (!nearestSame || distance < nearestSame->distance))
      nearestSame = match;
    if (!nearestAny || distance < nearestAny->distance)
      nearestAny = match;
  }
  return nearestSame ? nearestSame : nearestAny;
}
