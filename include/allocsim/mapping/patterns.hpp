#pragma once
// Communication patterns (task-graph generators), one explicit registry table. Written
// `name:size,key=value`, the first value without a key being `size`: `mesh2d:16x16`,
// `mesh3d:8x8x8,wrap=1`, `ring:64`, `alltoall:32`, `random:256,degree=6,seed=3`,
// `leanmd:cells=6x6x6,procs=512`. Task ids number the first dimension fastest.
#include <functional>
#include <string>

#include "allocsim/mapping/task_graph.hpp"
#include "allocsim/util/registry.hpp"

namespace allocsim::mapping {

using PatternFactory = std::function<TaskGraph(const Params&)>;
using PatternRegistry = Registry<PatternFactory>;
const PatternRegistry& pattern_registry();

/// Rewrites a leading positional value as `size=...` (`mesh2d:8x8,bytes=2` ->
/// `mesh2d:size=8x8,bytes=2`); other specs are returned unchanged.
std::string normalize_pattern_spec(const std::string& spec);
/// Builds the task graph of a pattern spec; throws InputError on a bad spec.
TaskGraph make_pattern(const std::string& spec);

/// LeanMD-like molecular dynamics pattern (§5.2.3): one object per cell of a periodic
/// a×b×c box, one compute per interacting cell pair (each cell with itself and its 13
/// "forward" neighbours of 26; pairs repeated on tiny boxes are kept once), one proxy per
/// processor. Edges, each `bytes` per iteration (atom coordinates out, forces back):
/// compute (A,B) -- cell A and -- cell B (a self compute has one edge), and cell i --
/// proxy(i mod procs), the proxy that multicasts the cell's atoms. Cell data thus reaches a
/// compute once per compute, not once per processor as through LeanMD's per-processor proxies;
/// an upper bound on that traffic that keeps the graph local (hub-shaped proxy graphs defeat
/// METIS's balance). Loads: pair compute 10, self compute 5, cell 2, proxy 1 (proxies beyond
/// the cell count have no edges). Objects are numbered cells, computes, proxies.
/// 6×6×6: 216 cells + 3,024 computes = 3,240 objects, plus `procs` proxies.
///
/// `proxies=computes` (LeanMDProxies::on_computes) models per-processor proxies as NAMD-style
/// codes use them instead: compute i starts on processor i mod procs; that processor's proxy
/// receives each cell it needs once (cell -- proxy, `bytes`) and serves its computes (compute --
/// proxy, `bytes` per cell read); computes have no direct cell edges. The coalesced graph's
/// average degree depends strongly on this choice (experiments/agarwal-mapping.md).
enum class LeanMDProxies { on_cells, on_computes };
TaskGraph leanmd_pattern(int a, int b, int c, int procs, double bytes,
                         LeanMDProxies proxies = LeanMDProxies::on_cells);

}  // namespace allocsim::mapping
