//===- gemm-tune-space.cpp - Print the config lattice and the model -------===//
//
// The C++ side of the tuner (python/gemm_mlir/tune.py never re-implements the
// lattice or the model): for a problem (chip, types, layout, epilogue class)
// and one or more shapes, prints as JSON the legal lattice, its Pareto
// frontier or the model's pick, each point with its predicted cost; or
// evaluates the model on given configs (model validation and calibration);
// or checks a tuning database.
//
//   gemm-tune-space --chip=sm_90 --dtype=f16 --layout=tn --shape=4096x4096x4096 \
//       --mode=frontier --top=16
//   gemm-tune-space --check-db=tuning/h200.json
//
//===----------------------------------------------------------------------===//

#include "gemm/Tuning/CostModel.h"
#include "gemm/Tuning/Dispatch.h"
#include "gemm/Tuning/Lattice.h"
#include "gemm/Tuning/TuningDB.h"
#include "gemm/Utils/Files.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::gemm;
namespace cl = llvm::cl;
namespace json = llvm::json;

// Only these options show in --help (not the LLVM libraries' own).
static cl::OptionCategory tuneSpaceCategory("gemm-tune-space options");

static cl::opt<std::string> chip("chip", cl::desc("Target chip"),
                                 cl::init("sm_90"), cl::cat(tuneSpaceCategory));
static cl::opt<std::string>
    dtype("dtype", cl::desc("Operand type: f16, bf16, f32, tf32, f64, i8"),
          cl::init("f16"), cl::cat(tuneSpaceCategory));
static cl::opt<std::string>
    acc("acc",
        cl::desc("Accumulator type (default: f32 for 16-bit floats and "
                 "f32/tf32, f64 for f64, i32 for i8)"),
        cl::init(""), cl::cat(tuneSpaceCategory));
static cl::opt<std::string> cType("c",
                                  cl::desc("C element type (default: "
                                           "the operand type, i32 for i8)"),
                                  cl::init(""), cl::cat(tuneSpaceCategory));
static cl::opt<std::string> layout("layout", cl::desc("nn, nt, tn or tt"),
                                   cl::init("tn"), cl::cat(tuneSpaceCategory));
static cl::opt<std::string> epilogue("epilogue",
                                     cl::desc("none, elementwise or reads_c"),
                                     cl::init("none"),
                                     cl::cat(tuneSpaceCategory));
static cl::list<std::string> shapes("shape", cl::desc("MxNxK (repeatable)"),
                                    cl::cat(tuneSpaceCategory));
static cl::opt<int64_t> batch("batch", cl::desc("Batch count"), cl::init(1),
                              cl::cat(tuneSpaceCategory));
static cl::opt<std::string>
    mode("mode",
         cl::desc("lattice, frontier, pick, eval (with --configs) or "
                  "dispatch (the kernel family and its choice)"),
         cl::init("frontier"), cl::cat(tuneSpaceCategory));
static cl::opt<unsigned> top("top",
                             cl::desc("At most this many points, "
                                      "fastest first (0: all)"),
                             cl::init(0), cl::cat(tuneSpaceCategory));
static cl::opt<std::string>
    configsFile("configs",
                cl::desc("JSON list of configs to evaluate "
                         "(--mode=eval)"),
                cl::init(""), cl::cat(tuneSpaceCategory));
static cl::list<std::string>
    paramOverrides("param",
                   cl::desc("Model parameter override NAME=VALUE "
                            "(calibration)"),
                   cl::cat(tuneSpaceCategory));
static cl::opt<std::string> aAlignedOpt(
    "a-aligned",
    cl::desc("--mode=dispatch: whether A allows 16-byte copies (auto: when "
             "its contiguous rows are whole 16 bytes, as the model assumes; "
             "true; false)"),
    cl::init("auto"), cl::cat(tuneSpaceCategory));
static cl::opt<std::string>
    bAlignedOpt("b-aligned", cl::desc("--mode=dispatch: the same for B"),
                cl::init("auto"), cl::cat(tuneSpaceCategory));
static cl::opt<std::string>
    checkDB("check-db", cl::desc("Check a tuning database and exit"),
            cl::init(""), cl::cat(tuneSpaceCategory));

static json::Value configToJSON(const TileConfig &c) {
  json::Object o{
      {"kind", stringifyInstrKind(c.kind)},
      {"block", json::Array{c.bm, c.bn, c.bk}},
      {"warps", json::Array{c.wm, c.wn}},
      {"instr", json::Array{c.im, c.in, c.ik}},
      {"stages", c.stages},
      {"smem", stringifySmemKind(c.smem)},
      {"raster", c.rasterColumn ? "column" : "row"},
      {"group", c.group},
  };
  if (c.splitK != 1)
    o["split_k"] = c.splitK;
  if (c.clusterReduce)
    o["reduction"] = "cluster";
  if (c.fixupReduce)
    o["reduction"] = "fixup";
  if (c.tmaLoad)
    o["load"] = c.producerWarp ? "tma_ws" : "tma";
  if (c.persistent)
    o["schedule"] = c.pingpong ? "pingpong" : "persistent";
  if (c.multicast != 1)
    o["multicast"] = c.multicast;
  return o;
}

static json::Value costToJSON(const Cost &c) {
  return json::Object{
      {"time_us", c.timeUs},
      {"tflops", c.tflops},
      {"global_bytes_per_flop", c.globalBytesPerFlop},
      {"shared_bytes_per_flop", c.sharedBytesPerFlop},
      {"occupancy", c.occupancy},
      {"wave_efficiency", c.waveEfficiency},
      {"pipeline_cover", c.pipelineCover},
      {"issue_efficiency", c.issueEfficiency},
      {"padded_fraction", c.paddedFraction},
      {"epilogue_us", c.epilogueUs},
      {"tiles", c.tiles},
      {"blocks_per_sm", c.blocksPerSM},
      {"rounds", c.rounds},
      {"bound", c.bound},
  };
}

static int error(const llvm::Twine &message) {
  llvm::errs() << "gemm-tune-space: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(tuneSpaceCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "gemm-mlir config lattice and cost model\n");
  if (!checkDB.empty()) {
    llvm::Expected<TuningDB> db = loadTuningDB(checkDB);
    if (!db)
      return error(llvm::toString(db.takeError()));
    llvm::outs() << db->entries.size() << " entries\n";
    return 0;
  }
  const TargetInfo *target = lookupTarget(chip);
  if (!target)
    return error("unknown chip '" + chip + "' (known: " + knownTargetNames() +
                 ")");
  GemmProblem problem;
  if (dtype == "tf32") {
    problem.a = ElemKind::f32;
    problem.allowTf32 = true;
  } else if (std::optional<ElemKind> a = parseElemKind(dtype);
             a && *a != ElemKind::tf32 && *a != ElemKind::i32) {
    problem.a = *a;
  } else {
    return error("unknown dtype '" + dtype + "'");
  }
  ElemKind defaultAcc = problem.a == ElemKind::i8    ? ElemKind::i32
                        : problem.a == ElemKind::f64 ? ElemKind::f64
                                                     : ElemKind::f32;
  std::optional<ElemKind> accKind =
      acc.empty() ? defaultAcc : parseElemKind(acc);
  if (!accKind || *accKind == ElemKind::tf32)
    return error("unknown accumulator type '" + acc + "'");
  problem.acc = *accKind;
  std::optional<ElemKind> c =
      cType.empty() ? (problem.a == ElemKind::i8 ? ElemKind::i32 : problem.a)
                    : parseElemKind(cType);
  if (!c)
    return error("unknown C type '" + cType + "'");
  problem.c = *c;
  if (!parseLayout(layout, problem.transA, problem.transB))
    return error("unknown layout '" + layout + "'");
  std::optional<EpilogueClass> epi = parseEpilogueClass(epilogue);
  if (!epi)
    return error("unknown epilogue class '" + epilogue + "'");
  problem.epilogue = *epi;
  if (batch < 1)
    return error("batch must be positive");
  problem.batch = batch;
  ModelParams params;
  for (llvm::StringRef kv : paramOverrides) {
    auto [name, value] = kv.split('=');
    double v;
    if (value.getAsDouble(v))
      return error("bad model parameter '" + kv + "': expected NAME=NUMBER");
    if (std::string why = params.set(name, v); !why.empty())
      return error(why);
  }
  for (const std::string *v :
       {&aAlignedOpt.getValue(), &bAlignedOpt.getValue()})
    if (*v != "auto" && *v != "true" && *v != "false")
      return error("bad alignment '" + *v + "' (expected auto, true or false)");
  if (mode != "lattice" && mode != "frontier" && mode != "pick" &&
      mode != "eval" && mode != "dispatch")
    return error("unknown mode '" + mode + "'");
  std::vector<TileConfig> given;
  if (mode == "eval") {
    auto buffer = readRegularFile(configsFile, /*isText=*/true);
    if (!buffer)
      return error("cannot read '" + configsFile +
                   "': " + llvm::toString(buffer.takeError()));
    // The configs are read through the database's parser: wrap them as
    // entries of the problem's key.
    llvm::Expected<json::Value> list = json::parse((*buffer)->getBuffer());
    if (!list)
      return error("malformed configs: " + llvm::toString(list.takeError()));
    const json::Array *array = list->getAsArray();
    if (!array)
      return error("--configs must hold a JSON array of configs");
    json::Array entries;
    for (const json::Value &v : *array)
      entries.push_back(json::Object{
          {"arch", chip},
          {"dtype", problem.dtypeKey()},
          {"acc", stringifyElemKind(problem.acc)},
          {"layout", problem.layoutName()},
          {"epilogue", "none"},
          {"m", 1},
          {"n", 1},
          {"k", 1},
          {"config", v}});
    std::string text;
    llvm::raw_string_ostream os(text);
    os << json::Value(json::Object{{"schema", kTuningDBSchema},
                                   {"version", kTuningDBVersion},
                                   {"entries", std::move(entries)}});
    llvm::Expected<TuningDB> db = parseTuningDB(text);
    if (!db)
      return error(llvm::toString(db.takeError()));
    for (const TuningEntry &e : db->entries)
      given.push_back(e.config);
  }
  if (shapes.empty())
    shapes.push_back("4096x4096x4096");
  json::Array out;
  for (llvm::StringRef shape : shapes) {
    llvm::SmallVector<llvm::StringRef, 3> dims;
    shape.split(dims, 'x');
    int64_t mnk[3];
    if (dims.size() != 3 || dims[0].getAsInteger(10, mnk[0]) ||
        dims[1].getAsInteger(10, mnk[1]) || dims[2].getAsInteger(10, mnk[2]) ||
        mnk[0] < 1 || mnk[1] < 1 || mnk[2] < 1)
      return error("bad shape '" + shape + "' (expected MxNxK)");
    problem.m = mnk[0], problem.n = mnk[1], problem.k = mnk[2];
    auto alignment = [&](const std::string &option, bool operandB) {
      return option == "auto" ? problem.rowsAllowVectorCopies(operandB)
                              : option == "true";
    };
    bool aAligned = alignment(aAlignedOpt, false);
    bool bAligned = alignment(bAlignedOpt, true);
    json::Array points;
    size_t latticeSize = 0;
    if (mode == "dispatch") {
      // The dispatch family (gemm/Tuning/Dispatch.h): every member with its
      // bounds and split policy, the model's estimate of it on this shape
      // (split members with the slices their policy runs), and which member
      // the rules choose.
      std::vector<DispatchRule> rules =
          getDispatchRules(problem, *target, problem.allowTf32);
      size_t chosen = chooseRule(rules, problem.m, problem.n, problem.k,
                                 problem.batch, aAligned, bAligned);
      for (size_t i = 0; i < rules.size(); ++i) {
        const DispatchRule &r = rules[i];
        TileConfig cfg = r.config;
        int64_t blocks = countBlocks(problem.m, problem.n, problem.batch,
                                     cfg.bm, cfg.bn);
        int64_t slices = cfg.splitK > 1 ? r.split.slices(problem.k, blocks) : 1;
        cfg.splitK = slices;
        if (slices == 1)
          cfg.clusterReduce = false;
        json::Object point{
            {"rule", r.name},
            {"config", configToJSON(r.config)},
            {"config_str", r.config.str()},
            {"holds",
             r.when.holds(problem.m, problem.n, problem.k, problem.batch,
                          r.config.bm, r.config.bn, aAligned, bAligned)},
            {"chosen", i == chosen},
            {"slices", slices}};
        if (std::optional<Cost> cost =
                estimateCost(cfg, problem, *target, params))
          point["cost"] = costToJSON(*cost);
        points.push_back(std::move(point));
      }
    } else if (mode == "eval") {
      for (const TileConfig &cfg : given) {
        std::optional<Cost> cost = estimateCost(cfg, problem, *target, params);
        if (!cost)
          return error("no cost model for " + chip);
        points.push_back(json::Object{{"config", configToJSON(cfg)},
                                      {"config_str", cfg.str()},
                                      {"cost", costToJSON(*cost)}});
      }
    } else {
      std::vector<RankedConfig> ranked =
          rankLattice(problem, *target, params);
      latticeSize = ranked.size();
      std::vector<size_t> frontier = paretoFrontier(ranked);
      std::vector<bool> onFrontier(ranked.size());
      for (size_t i : frontier)
        onFrontier[i] = true;
      for (size_t i = 0; i < ranked.size(); ++i) {
        if (mode == "frontier" && !onFrontier[i])
          continue;
        if (mode == "pick" && i != 0)
          break;
        if (top && points.size() >= top)
          break;
        points.push_back(json::Object{
            {"rank", int64_t(i)},
            {"frontier", bool(onFrontier[i])},
            {"config", configToJSON(ranked[i].config)},
            {"config_str", ranked[i].config.str()},
            {"cost", costToJSON(ranked[i].cost)}});
      }
    }
    json::Object result{{"m", problem.m},
                        {"n", problem.n},
                        {"k", problem.k},
                        {"lattice_size", int64_t(latticeSize)},
                        {"points", std::move(points)}};
    if (mode == "dispatch") {
      result["a_aligned"] = aAligned;
      result["b_aligned"] = bAligned;
    }
    out.push_back(std::move(result));
  }
  llvm::outs() << llvm::formatv(
      "{0:2}\n", json::Value(json::Object{{"chip", chip},
                                          {"dtype", problem.dtypeKey()},
                                          {"acc", stringifyElemKind(problem.acc)},
                                          {"layout", problem.layoutName()},
                                          {"epilogue", epilogue},
                                          {"mode", mode},
                                          {"problems", std::move(out)}}));
  return 0;
}
