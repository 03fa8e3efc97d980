// The golden case list (see golden_cases.hpp and tests/golden/README.md). Every case is a small
// synthetic run, loaded enough that a queue forms, so backfilling and the allocators' choices on
// a fragmented machine both shape the result.
#include "golden_cases.hpp"

#include <algorithm>
#include <map>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/mapping/mapper.hpp"
#include "allocsim/mapping/patterns.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/runtime_model.hpp"
#include "allocsim/topo/ordering.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/workload/transform.hpp"

namespace allocsim::golden {

namespace {

constexpr std::uint64_t kRunSeed = 5;
constexpr std::uint64_t kWorkloadSeed = 11;

/// Jobs with requested a x b shapes (sides uniform in [1,5]), offered load about 1.8 on 64
/// nodes: for allocators, whose placement depends on shape and fragmentation.
const char* const kShapedTrace =
    "synthetic:jobs=60,arrival=exp:5,runtime=exp:100,size=sides:5,estimate=1.5";
/// Processor counts uniform in [1,32], estimates 1.5 x runtime, offered load about 1.3 on
/// 64 nodes: wide jobs block the queue head, so the schedulers' backfilling differs.
const char* const kMixedTrace =
    "synthetic:jobs=60,arrival=exp:20,runtime=exp:100,size=uniform:1,32,estimate=1.5";

/// Allocator candidates: square power-of-two 2D mesh first (buddy systems, paging, submeshes),
/// then a power-of-two torus (subtorus), a 3D mesh, and a complete graph; then, for allocators
/// that need a switch tree or a Slurm topology file (alloc/slurm_select.hpp), a three-level fat
/// tree of 64 hosts (16 leaves of 4) and a block topology of 64 nodes (inputs/, kBlockFile).
const std::vector<std::string> kAllocatorMachines{"mesh:8x8", "torus:4x4x4", "mesh:4x4x4",
                                                  "flat:64", "fattree:down=4x4x4,up=1x2x2"};
const char* const kBlockFile = "/inputs/topology-block.conf";

/// Allocators for machines with routers and groups (alloc/graph_alloc.hpp): their case runs on a
/// dragonfly under the flow model (as the dragonfly topology case), so that placement shapes
/// the result; `simple` (the same choice as `flat`) too, to show it on the machine it is for.
const std::vector<std::string> kGraphAllocatorMachines{"dragonfly:p=2,a=4,h=2"};
const char* const kGraphAllocatorModel = "flow:comm=0.5";
const std::vector<std::string> kGraphAllocators{"simple",       "dfly-rdr",  "dfly-rdg",
                                                "dfly-rrn",     "dfly-rrr",  "dfly-spread",
                                                "level-spread", "jokanovic", "nearest"};

/// Parameters that keep an entry's case small or meaningful (identity transforms are not).
const std::map<std::string, std::string> kAllocatorSpecs{
    {"greedy-optimal", "greedy-optimal:nodes=2000"},  // budget in search nodes: deterministic
    {"ptas", "ptas:nodes=20000"},
};
const std::map<std::string, std::vector<std::string>> kTransformSpecs{
    {"runtime_scale", {"runtime_scale:factor=1.5"}},
    {"estimate", {"estimate:factor=1"}},
    {"arrival_scale", {"arrival_scale:factor=0.8"}},
    {"target_load", {"target_load:load=0.9"}},
    {"replicate", {"replicate:copies=2,jitter=50", "truncate:max_jobs=60"}},
    {"size_scale", {"size_scale:factor=1.5"}},
    {"truncate", {"truncate:max_jobs=40,skip=10"}},
    {"window", {"window:jobs=25,index=1,skip=5"}},
    {"random_window", {"random_window:jobs=40"}},
    {"jitter", {"jitter:sd=200"}},
    {"runtime_noise", {"runtime_noise:cv=0.3"}},
    {"comm_classes", {"comm_classes:heavy=0.4,pattern=mixed"}},  // under flow (see below)
};

/// Parameter variants beyond each entry's defaults: "<entry>.<label>" -> spec.
const std::vector<std::pair<std::string, std::string>> kAllocatorVariants{
    {"mm.centers-free", "mm:centers=free"},
    {"mc.fallback-1x1", "mc:fallback=1x1"},
    {"curve.fit-first", "curve:fit=first"},
    {"curve.fit-sumsq", "curve:fit=sumsq"},
    {"curve.fit-none", "curve:fit=none,order=snake"},
    {"curve.span-ring", "curve:span=ring,order=row"},
    {"subtorus.ep-collapse", "subtorus:scheme=ep,convert=collapse"},
    {"submesh.best-rotate", "submesh:fit=best,rotate=1,shape=row"},
    {"paging.shuffled-snake", "paging:size_index=1,indexing=shuffled-snake"},
    {"sortedfreelist.hilbert", "sortedfreelist:order=hilbert"},
    {"slurm-tree.switches-1", "slurm-tree:switches=1,max_wait=200"},
    {"slurm-block.segment-4", "slurm-block:segment=4"},
};
const std::vector<std::pair<std::string, std::string>> kSchedulerVariants{
    {"fcfs.largefirst", "fcfs:order=largefirst"},
    {"easy.smallfirst", "easy:order=smallfirst"},
    {"conservative.shortfirst", "conservative:order=shortfirst"},
    // The re-planning scheduler kept as conservative:replan=full: its files equal the
    // conservative files of before compression became the default, but for the config line.
    {"conservative.replan-full", "conservative:replan=full"},
    {"conservative.shortfirst-replan-full", "conservative:order=shortfirst,replan=full"},
    // Slurm's multifactor priorities with every factor weighted (the trace has no users: one
    // share), priorities recomputed every minute, a short backfill window.
    {"slurm.multifactor",
     "slurm:PriorityType=priority/multifactor,PriorityWeightAge=1000,PriorityWeightJobSize=500,"
     "PriorityWeightFairshare=2000,PriorityMaxAge=30,PriorityDecayHalfLife=60,"
     "PriorityCalcPeriod=1,bf_interval=60,bf_window=30"},
};

/// One run per topology kind and dimension: case name, machine, allocator (distance-driven MM
/// where it applies; the communication-aware allocators need a mesh or torus) and runtime model
/// (graph machines run `flow`, so that their routing shapes the result). `${GOLDEN_DIR}` in the
/// machine is the golden folder (a Slurm topology file in inputs/).
struct TopologyCase {
  const char* name;
  const char* machine;
  const char* alloc;
  const char* runtime_model = "fixed";
};
const std::vector<TopologyCase> kTopologies{
    {"mesh-8x8", "mesh:8x8", "mm"},
    {"mesh-4x4x4", "mesh:4x4x4", "mm"},
    {"mesh-64", "mesh:64", "mm"},
    {"torus-8x8", "torus:8x8", "mm"},
    {"torus-4x4x4", "torus:4x4x4", "mm"},
    {"flat-64", "flat:64", "random"},
    {"flat-64.curve", "flat:64", "curve"},
    {"semitorus-4x4x2", "semitorus:4x4x2:wrap=110", "mm"},
    {"dragonfly-p2a4h2", "dragonfly:p=2,a=4,h=2", "random", "flow:comm=0.5"},
    {"dragonfly-p2a4h2.valiant-relative",
     "dragonfly:p=2,a=4,h=2,routing=valiant,arrangement=relative", "random", "flow:comm=0.5"},
    {"dragonfly-p2a4h2.ugal-circulant", "dragonfly:p=2,a=4,h=2,routing=ugal,arrangement=circulant",
     "random", "flow:comm=0.5"},
    {"fattree-k4", "fattree:k=4", "random", "flow:comm=0.5"},
    {"fattree-k4.ecmp", "fattree:k=4,routing=ecmp", "random", "flow:comm=0.5"},
    {"fattree-xgft-2to1", "fattree:down=4x4,up=1x2", "random", "flow:comm=0.5"},
    {"torus-4x4.per-router-2", "torus:4x4:per_router=2", "random", "flow:comm=0.5"},
    {"slurm-topology", "slurm-topology:${GOLDEN_DIR}/inputs/topology.conf", "random",
     "flow:comm=0.5"},
};

RunConfig base_config(const std::string& trace) {
  RunConfig config;
  config.machine = "mesh:8x8";
  config.trace = trace;
  config.sched = "easy";
  config.alloc = "sortedfreelist:order=snake";
  config.seed = kRunSeed;
  config.workload_seed = kWorkloadSeed;
  config.keep_jobs = true;
  return config;
}

std::string lookup(const std::map<std::string, std::string>& specs, const std::string& name) {
  const auto found = specs.find(name);
  return found == specs.end() ? name : found->second;
}

void add_allocator_cases(std::vector<GoldenCase>& cases, const std::string& golden_dir) {
  std::vector<std::string> machines = kAllocatorMachines;
  machines.push_back("slurm-topology:" + golden_dir + kBlockFile);
  auto add = [&](const std::string& entry, const std::string& name, const std::string& spec) {
    GoldenCase c{"allocator", entry, name, base_config(kShapedTrace), machines};
    c.config.machine.clear();
    c.config.alloc = spec;
    if (std::find(kGraphAllocators.begin(), kGraphAllocators.end(), entry) !=
        kGraphAllocators.end()) {
      c.machines = kGraphAllocatorMachines;
      c.config.runtime_model = kGraphAllocatorModel;
    }
    cases.push_back(std::move(c));
  };
  for (const auto& entry : allocator_registry().entries())
    add(entry.name, entry.name, lookup(kAllocatorSpecs, entry.name));
  for (const auto& [name, spec] : kAllocatorVariants)
    add(name.substr(0, name.find('.')), name, spec);
  // The situation/decision experiment (Bender et al., Section 5) on top of an MM run.
  add("mm", "mm.decisions", "mm");
  cases.back().config.decisions = {"genalg", "mc1x1", "mm-inc", "curve:order=hilbert", "random"};
}

void add_scheduler_cases(std::vector<GoldenCase>& cases) {
  auto add = [&](const std::string& entry, const std::string& name, const std::string& spec) {
    GoldenCase c{"scheduler", entry, name, base_config(kMixedTrace), {}};
    c.config.sched = spec;
    cases.push_back(std::move(c));
  };
  for (const auto& entry : scheduler_registry().entries()) add(entry.name, entry.name, entry.name);
  for (const auto& [name, spec] : kSchedulerVariants)
    add(name.substr(0, name.find('.')), name, spec);
  // A contiguous allocator: refusals with enough free nodes (external fragmentation) interact
  // with the reservations.
  add("easy", "easy.submesh", "easy");
  cases.back().config.alloc = "submesh";
  add("conservative", "conservative.submesh", "conservative");
  cases.back().config.alloc = "submesh";
  add("conservative", "conservative.submesh-replan-full", "conservative:replan=full");
  cases.back().config.alloc = "submesh";
  add("slurm", "slurm.submesh", "slurm");
  cases.back().config.alloc = "submesh";
  // Estimates below the runtimes: Slurm ends the jobs at their limits (counted as killed).
  add("slurm", "slurm.killed", "slurm");
  cases.back().config.transforms = {"estimate:factor=0.8"};
}

void add_ordering_cases(std::vector<GoldenCase>& cases, const std::string& golden_dir) {
  for (const auto& entry : ordering_registry().entries()) {
    // A 10 x 6 mesh is not a power-of-two box: Hilbert is clipped, Gilbert is not.
    GoldenCase c{"ordering", entry.name, entry.name, base_config(kMixedTrace), {}};
    c.config.machine = "mesh:10x6";
    const std::string order = entry.name == "file"
                                  ? "file:path=" + golden_dir + "/inputs/column-major-10x6.order"
                                  : entry.name;
    c.config.alloc = "curve:order=" + order + ",fit=best";
    cases.push_back(std::move(c));
  }
}

void add_runtime_model_cases(std::vector<GoldenCase>& cases) {
  for (const auto& entry : runtime_model_registry().entries()) {
    // Random placement scatters jobs, so a distance-dependent model has something to stretch.
    GoldenCase c{"runtime_model", entry.name, entry.name, base_config(kMixedTrace), {}};
    c.config.alloc = "random";
    c.config.runtime_model = entry.name;
    cases.push_back(std::move(c));
  }
  GoldenCase c{"runtime_model", "dispersal", "dispersal.mm", base_config(kMixedTrace), {}};
  c.config.alloc = "mm";
  c.config.runtime_model = "dispersal:alpha=0.5";
  cases.push_back(std::move(c));
}

void add_transform_cases(std::vector<GoldenCase>& cases) {
  for (const auto& entry : transform_registry().entries()) {
    GoldenCase c{"transform", entry.name, entry.name, base_config(kMixedTrace), {}};
    const auto found = kTransformSpecs.find(entry.name);
    c.config.transforms =
        found == kTransformSpecs.end() ? std::vector<std::string>{entry.name} : found->second;
    // Communication classes matter to the flow model only: shares, patterns and interference.
    if (entry.name == "comm_classes") c.config.runtime_model = "flow:comm=0.5";
    cases.push_back(std::move(c));
  }
}

void add_topology_cases(std::vector<GoldenCase>& cases, const std::string& golden_dir) {
  for (const auto& topology : kTopologies) {
    // The entry's name: the machine spec's kind (slurm-topology's file is in inputs/).
    std::string machine = topology.machine;
    if (const auto at = machine.find("${GOLDEN_DIR}"); at != std::string::npos)
      machine.replace(at, std::string("${GOLDEN_DIR}").size(), golden_dir);
    GoldenCase c{"topology",
                 machine.substr(0, machine.find(':')),
                 topology.name,
                 base_config(kShapedTrace),
                 {}};
    c.config.machine = machine;
    c.config.alloc = topology.alloc;
    c.config.runtime_model = topology.runtime_model;
    cases.push_back(std::move(c));
  }
}

/// Task mapping inside runs (sim/job_mapping.hpp): random placement on a 3D torus scatters
/// jobs, so mappers have something to improve. One case per mapper (2D stencil pattern) and
/// one per pattern that a job's size can shape (TopoLB); `leanmd` is sized by cells, not by a
/// job, and is rejected as a job pattern.
void add_mapping_cases(std::vector<GoldenCase>& cases) {
  auto mapped = [](const std::string& pattern, const std::string& mapper) {
    RunConfig config = base_config(kShapedTrace);
    config.machine = "torus:4x4x4";
    config.alloc = "random";
    config.pattern = pattern;
    config.mapper = mapper;
    return config;
  };
  for (const auto& entry : mapping::mapper_registry().entries())
    cases.push_back({"mapper", entry.name, entry.name, mapped("mesh2d:auto", entry.name), {}});
  for (const auto& entry : mapping::pattern_registry().entries())
    if (entry.name != "leanmd")
      cases.push_back({"pattern", entry.name, entry.name, mapped(entry.name, "topolb"), {}});
}

}  // namespace

const std::vector<std::string>& golden_families() {
  static const std::vector<std::string> families{"allocator",     "scheduler", "ordering",
                                                 "runtime_model", "transform", "topology",
                                                 "mapper",        "pattern"};
  return families;
}

std::vector<GoldenCase> golden_cases(const std::string& golden_dir) {
  std::vector<GoldenCase> cases;
  add_allocator_cases(cases, golden_dir);
  add_scheduler_cases(cases);
  add_ordering_cases(cases, golden_dir);
  add_runtime_model_cases(cases);
  add_transform_cases(cases);
  add_topology_cases(cases, golden_dir);
  add_mapping_cases(cases);
  return cases;
}

void PrintTo(const GoldenCase& golden_case, std::ostream* out) {
  *out << golden_case.family << "/" << golden_case.name;
}

std::string choose_machine(const GoldenCase& golden_case) {
  if (!golden_case.config.machine.empty()) return golden_case.config.machine;
  std::string tried;
  for (const auto& machine : golden_case.machines) {
    try {
      make_allocator(golden_case.config.alloc, Topology::parse(machine));
      return machine;
    } catch (const InputError& error) {
      tried += "\n  " + machine + ": " + error.what();
    }
  }
  throw InputError("allocator '" + golden_case.config.alloc +
                   "' supports none of the candidate machines (add one to the candidate list "
                   "in tests/golden/golden_cases.cpp):" +
                   tried);
}

}  // namespace allocsim::golden
