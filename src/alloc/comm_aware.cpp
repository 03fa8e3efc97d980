// Communication-aware allocators (Bender et al., Algorithmica 2008): geom/ solvers applied to
// the free processors' coordinates. See comm_aware.hpp.
#include "allocsim/alloc/comm_aware.hpp"

#include <algorithm>
#include <span>

#include "allocsim/geom/exact.hpp"
#include "allocsim/geom/local_search.hpp"
#include "allocsim/geom/mc.hpp"
#include "allocsim/geom/mm.hpp"
#include "allocsim/geom/ptas.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

CommAwareAllocator::CommAwareAllocator(const Options& options, const Topology& topology)
    : options_(options) {
  if (!topology.has_coordinates())
    throw InputError("communication-aware allocators need a mesh or torus, not '" +
                     topology.spec() + "'");
  for (int axis = 0; axis < topology.dims(); ++axis) {
    sides_.push_back(topology.side(axis));
    rings_.push_back(topology.wraps(axis) ? topology.side(axis) : 0);
  }
  const int dims = topology.dims();
  node_coords_.resize(static_cast<std::size_t>(topology.node_count()) * dims);
  for (NodeId node = 0; node < topology.node_count(); ++node)
    topology.coords(node,
                    std::span<int>(node_coords_.data() + static_cast<std::size_t>(node) * dims,
                                   static_cast<std::size_t>(dims)));
  if (options_.method == Method::mc1x1 && options_.centres != Centres::intersections)
    free_grid_ = geom::FreeGrid(sides_, rings_);
}

std::vector<int> CommAwareAllocator::near_cube_shape(int k, int dims) {
  std::vector<int> shape(dims, 1);
  auto volume = [&] {
    long long v = 1;
    for (const int side : shape) v *= side;
    return v;
  };
  while (volume() < k) ++*std::min_element(shape.begin(), shape.end());
  return shape;
}

std::vector<std::vector<int>> CommAwareAllocator::all_positions() const {
  std::vector<std::vector<int>> values(sides_.size());
  for (std::size_t axis = 0; axis < sides_.size(); ++axis)
    for (int c = 0; c < sides_[axis]; ++c) values[axis].push_back(c);
  return values;
}

geom::Selection CommAwareAllocator::choose(const geom::PointSet& points, int k, const Job& job,
                                           const TimeLimit* time_limit, bool& fell_back) const {
  using geom::Selection;
  auto mm_variant = [&]() -> Selection {
    switch (options_.centres) {
      case Centres::free:
        return geom::gen_alg(points, k, time_limit, &nearest_memo_);
      case Centres::all:
        return geom::nearest_best_over_grid(points, k, all_positions(), options_.centre_order,
                                            time_limit, &nearest_memo_);
      case Centres::intersections:
        break;
    }
    return geom::manhattan_median(points, k, options_.centre_order, time_limit, &nearest_memo_);
  };
  geom::Budget budget = options_.budget;
  budget.time_limit = time_limit;
  switch (options_.method) {
    case Method::mm:
      return mm_variant();
    case Method::genalg:
      return geom::gen_alg(points, k, time_limit, &nearest_memo_);
    case Method::mm_inc:
      return geom::improve_by_swaps(points, mm_variant(), time_limit);
    case Method::mc1x1:
      if (options_.centres == Centres::all)
        return geom::mc1x1_over_grid(points, k, all_positions(), options_.shell_ties, time_limit);
      return geom::mc1x1(points, k, options_.shell_ties, time_limit);
    case Method::mc: {
      std::vector<int> shape;
      if (job.shape_a > 0 && job.shape_b > 0) {
        shape.assign(points.dims(), 1);
        shape[0] = job.shape_a;
        if (points.dims() > 1) shape[1] = job.shape_b;
      } else if (options_.square_fallback) {
        shape = near_cube_shape(k, points.dims());
      }
      return geom::mc_shaped(points, k, shape, time_limit);
    }
    case Method::greedy_optimal: {
      const Selection start = geom::mm_inc(points, k, time_limit);
      geom::ExactOptions exact;
      exact.budget = budget;
      exact.incumbent = &start;
      Selection best = geom::exact_optimum(points, k, exact);
      if (best.proven) return best;
      fell_back = true;
      return start;
    }
    case Method::ptas: {
      bool completed = false;
      Selection best = geom::ptas(points, k, options_.ptas_m, budget, &completed);
      if (completed) return best;
      fell_back = true;
      return geom::mm_inc(points, k, time_limit);
    }
  }
  return mm_variant();
}

const SelectionCache::Answer* SelectionCache::find(const std::vector<NodeId>& free,
                                                   const Key& key) {
  if (free != free_) {
    answers_.clear();
    last_ = -1;
    free_ = free;
    return nullptr;
  }
  for (std::size_t i = 0; i < answers_.size(); ++i)
    if (answers_[i].key == key) {
      last_ = static_cast<int>(i);
      return &answers_[i];
    }
  return nullptr;
}

const SelectionCache::Answer* SelectionCache::find(const Key& key) {
  for (std::size_t i = 0; i < answers_.size(); ++i)
    if (answers_[i].key == key) {
      last_ = static_cast<int>(i);
      return &answers_[i];
    }
  return nullptr;
}

void SelectionCache::forget() {
  answers_.clear();
  free_.clear();
  last_ = -1;
}

const SelectionCache::Answer& SelectionCache::store(const Key& key, bool fell_back,
                                                    geom::Selection selection,
                                                    std::vector<NodeId> nodes) {
  if (answers_.size() >= kCapacity) answers_.clear();
  answers_.push_back({key, fell_back, std::move(selection), std::move(nodes)});
  last_ = static_cast<int>(answers_.size()) - 1;
  return answers_.back();
}

const geom::Selection& CommAwareAllocator::last_selection() const {
  static const geom::Selection none;
  const SelectionCache::Answer* last = cache_.last();
  return last ? last->selection : none;
}

std::optional<Allocation> CommAwareAllocator::allocate(const Job& job,
                                                       const MachineView& machine) const {
  const int k = job.procs;
  if (machine.free_count() < k) return std::nullopt;
  Allocation allocation;
  if (k <= 0) return allocation;
  if (free_grid_.usable()) return allocate_on_grid(k, machine);
  const Topology& topology = machine.topology();
  const std::vector<NodeId> free = machine.free_nodes();
  const bool shaped = options_.method == Method::mc;
  const SelectionCache::Key key{k, shaped ? job.shape_a : 0, shaped ? job.shape_b : 0};
  const SelectionCache::Answer* answer = cache_.find(free, key);
  if (!answer) {
    geom::PointSet points(topology.dims(), rings_);
    points.add_gathered(node_coords_, free);
    bool fell_back = false;
    geom::Selection selection = choose(points, k, job, machine.time_limit(), fell_back);
    answer = &cache_.store(key, fell_back, std::move(selection));
  }
  allocation.used_fallback = answer->fell_back;
  allocation.nodes.reserve(k);
  for (const int index : answer->selection.indices) allocation.nodes.push_back(free[index]);
  return allocation;
}

std::optional<Allocation> CommAwareAllocator::allocate_on_grid(int k,
                                                               const MachineView& machine) const {
  if (free_grid_.sync(machine.busy())) cache_.forget();
  const SelectionCache::Key key{k, 0, 0};
  const SelectionCache::Answer* answer = cache_.find(key);
  if (!answer) {
    geom::Selection selection = geom::mc1x1_on_grid(
        free_grid_, k, options_.shell_ties, machine.time_limit(), options_.centres == Centres::all);
    // The solver answers with node ids; the Selection keeps positions in the free list, as
    // the other solvers' (a node's position = free nodes before it, by lines of bits).
    std::vector<NodeId> nodes(selection.indices.begin(), selection.indices.end());
    const int x_side = free_grid_.side(0);
    int row = 0, before = 0;
    for (int& index : selection.indices) {
      for (; row < index / x_side; ++row) before += free_grid_.line_free(row);
      index = before + (index % x_side == 0 ? 0 : free_grid_.count_in(row, 0, index % x_side - 1));
    }
    answer = &cache_.store(key, false, std::move(selection), std::move(nodes));
  }
  Allocation allocation;
  allocation.nodes = answer->nodes;
  return allocation;
}

namespace {

/// MM / MM+Inc: the order of the grid centres (geom/mm.hpp), which decides among equal sums.
ParamSpec centre_order_param() {
  return {"ties",
          ParamKind::choice,
          "sorted",
          "equal sums: first centre wins, centres ascending with x fastest (sorted) or in order "
          "of first appearance with x slowest (premas, as PReMAS); points by index in both",
          {"sorted", "premas"},
          {},
          true,
          false};  // added later: left out of config ids at its default
}

/// MC1x1: the tie rules of geom/mc.hpp.
ParamSpec shell_ties_param() {
  return {"ties",
          ParamKind::choice,
          "first",
          "equal shell cost: first centre wins and the partial shell is taken by index (first, "
          "the paper's PReMAS), or least pairwise sum wins and the partial shell by L1 (sum)",
          {"first", "sum"},
          {},
          true,
          false};  // added later: left out of config ids at its default
}

ParamSpec centres_param(const std::string& fallback, std::vector<std::string> choices) {
  const std::string help =
      choices.size() == 3
          ? "candidate centres: MM's intersections, the free processors, or every position"
          : "candidate centres: the free processors, or every position";
  return {"centers", ParamKind::choice, fallback, help, std::move(choices)};
}

std::vector<ParamSpec> budget_params(const std::string& nodes) {
  return {{"nodes",
           ParamKind::integer,
           nodes,
           "search nodes per allocation (0 = unlimited)",
           {},
           integer_rule(0, 1e15)},
          {"budget_ms",
           ParamKind::real,
           "0",
           "wall-clock budget per allocation in ms (0 = none; makes runs machine-dependent)",
           {}}};
}

CommAwareAllocator::Centres parse_centres(const Params& params) {
  const std::string& text = params.text("centers");
  if (text == "free") return CommAwareAllocator::Centres::free;
  if (text == "all") return CommAwareAllocator::Centres::all;
  return CommAwareAllocator::Centres::intersections;
}

geom::Budget parse_budget(const Params& params) {
  geom::Budget budget;
  budget.nodes = params.integer("nodes");
  budget.seconds = params.real("budget_ms") / 1000.0;
  if (budget.nodes < 0 || budget.seconds < 0) throw InputError("budgets must not be negative");
  return budget;
}

/// The factory of the registry row `name`: on a graph machine it refuses with that name (the
/// geom/ solvers work on coordinates).
AllocatorFactory make_factory(CommAwareAllocator::Method method, std::string name) {
  return
      [method, name](const Params& params, const Topology& topology) -> std::unique_ptr<Allocator> {
        if (topology.graph()) topology.require_grid("allocator '" + name + "'");
        CommAwareAllocator::Options options;
        options.method = method;
        if (params.has("centers")) options.centres = parse_centres(params);
        if (method == CommAwareAllocator::Method::mc1x1 && !params.has("centers"))
          options.centres = CommAwareAllocator::Centres::free;
        if (params.has("nodes")) options.budget = parse_budget(params);
        if (params.has("m")) {
          options.ptas_m = static_cast<int>(params.integer("m"));
          if (options.ptas_m < 1) throw InputError("ptas needs m >= 1");
        }
        if (params.has("fallback")) options.square_fallback = params.text("fallback") == "square";
        if (method == CommAwareAllocator::Method::mc1x1 && params.has("ties"))
          options.shell_ties =
              params.text("ties") == "sum" ? geom::ShellTies::sum : geom::ShellTies::first;
        if (method != CommAwareAllocator::Method::mc1x1 && params.has("ties"))
          options.centre_order = params.text("ties") == "premas" ? geom::CentreOrder::premas
                                                                 : geom::CentreOrder::sorted;
        return std::make_unique<CommAwareAllocator>(options, topology);
      };
}

}  // namespace

void append_comm_aware_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries) {
  using Method = CommAwareAllocator::Method;
  entries.push_back(
      {"mm",
       "Manhattan Median (Bender et al.): k nearest free processors in L1 around "
       "the best grid-line intersection",
       {centres_param("intersections", {"intersections", "free", "all"}), centre_order_param()},
       make_factory(Method::mm, "mm")});
  entries.push_back({"genalg",
                     "Gen-Alg (Krumke et al.): k nearest free processors in L1 around the best "
                     "free processor",
                     {},
                     make_factory(Method::genalg, "genalg")});
  entries.push_back({"mc1x1",
                     "MC1x1 (Mache-Lo-Windisch shells around a processor, Bender et al.): least "
                     "sum of L-inf shell numbers",
                     {centres_param("free", {"free", "all"}), shell_ties_param()},
                     make_factory(Method::mc1x1, "mc1x1")});
  entries.push_back({"mc",
                     "MC (Mache-Lo-Windisch): shells around a submesh of the job's requested "
                     "shape",
                     {{"fallback",
                       ParamKind::choice,
                       "square",
                       "shell 0 for jobs without a shape: near-square box or 1x1",
                       {"square", "1x1"}}},
                     make_factory(Method::mc, "mc")});
  entries.push_back(
      {"mm-inc",
       "MM followed by swaps that strictly lower the sum of pairwise distances "
       "(Bender et al.)",
       {centres_param("intersections", {"intersections", "free", "all"}), centre_order_param()},
       make_factory(Method::mm_inc, "mm-inc")});
  entries.push_back({"greedy-optimal",
                     "exact minimum sum of pairwise distances at every step (branch and bound, "
                     "budgeted; falls back to mm-inc)",
                     budget_params("100000"),
                     make_factory(Method::greedy_optimal, "greedy-optimal")});
  auto ptas_params = budget_params("1000000");
  ptas_params.insert(ptas_params.begin(), {"m",
                                           ParamKind::integer,
                                           "3",
                                           "slabs per axis (guarantee needs m >= 5)",
                                           {},
                                           integer_rule(1, 64)});
  entries.push_back({"ptas",
                     "Bender et al.'s PTAS with m slabs per axis (budgeted; falls back to mm-inc)",
                     std::move(ptas_params), make_factory(Method::ptas, "ptas")});
}

}  // namespace allocsim
