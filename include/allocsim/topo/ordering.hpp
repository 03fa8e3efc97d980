#pragma once
// Processor orderings for one-dimensional allocation (Leung et al., "Processor Allocation on
// Cplant: Achieving General Processor Locality Using One-Dimensional Allocation Strategies",
// CLUSTER 2002, curve orderings): number the processors along a curve so that processors close on
// the curve are close in the network, then allocate in one dimension (alloc/curve.hpp).
//
// An ordering is a permutation `rank -> node id` of all nodes of a Topology. Orderings are built
// on the box only: wrap links are ignored (a torus is ordered like the mesh of the same sides);
// only span measured on a ring (alloc/curve.hpp) treats the ordering as a cycle.
//
// Machine kinds: `row` and `file` use node ids only and work on every machine (on a graph
// machine, row is the builder's or the topology file's node order). `snake`, `hilbert` and
// `ghilbert` walk coordinates: on grids they are curves, on flat (no coordinates, every node
// one hop from every other) they are row order, and graph machines (dragonfly, fat tree, ...)
// they refuse with an InputError naming the ordering (Topology::require_grid).
#include <functional>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "allocsim/topo/topology.hpp"
#include "allocsim/util/registry.hpp"

namespace allocsim {

/// Builds the ordering (rank -> node id) of a machine; throws InputError when unsupported.
using OrderingFactory = std::function<std::vector<NodeId>(const Params&, const Topology&)>;
using OrderingRegistry = Registry<OrderingFactory>;

/// The table of orderings: row, snake, hilbert, ghilbert, file:path=... (src/topo/ordering.cpp).
const OrderingRegistry& ordering_registry();
/// Resolves `name:key=value,...` against the ordering table and builds it for `topology`.
/// Returns rank -> node id (a permutation of all node ids).
std::vector<NodeId> make_ordering(const std::string& spec, const Topology& topology);

/// Row-major order: ranks equal node ids (first dimension fastest).
std::vector<NodeId> row_order(const Topology& topology);

/// Classic Hilbert curve (Hilbert 1891; n-dimensional form of Skilling, "Programming the Hilbert
/// curve", AIP Conf. Proc. 707, 2004) on the smallest power-of-two cube holding the box, with the
/// nodes outside the box skipped. Unit steps on 2^k x 2^k and 2^k x 2^k x 2^k boxes (any
/// dimension count, axes of side 1 ignored); larger jumps on other boxes, which is how the
/// published curve allocators behaved on non-square meshes. Throws InputError when the cube needs
/// more than 62 index bits.
std::vector<NodeId> hilbert_order(const Topology& topology);
/// Boustrophedon (snake) order in every dimension: an axis runs backwards when the higher
/// coordinates sum to an odd number, so consecutive nodes are always neighbours.
std::vector<NodeId> snake_order(const Topology& topology);

/// Generalized Hilbert curve for boxes of any side lengths (Červený and Zzyzek, "A Generalized
/// 2D and 3D Hilbert Curve", 2025, Algorithms 1-3: the "Gilbert++" recursions for 2D and 3D).
/// Equal to the Hilbert curve on 2^k squares; in 2D every step has L1 length <= 2 (a
/// diagonal step only where parity forces one, never with an even first side); in 3D the tests
/// find steps <= 2 on every box up to 9x9x9 (and larger samples) and unit steps when all sides
/// are even. Axes of side 1 are ignored; with more than three axes of side > 1 the first three
/// form an inner curve traversed forwards and backwards along a snake over the remaining axes.
std::vector<NodeId> generalized_hilbert_order(const Topology& topology);

/// Reads an ordering from text: one node id per line, blank lines and `#` comments ignored.
/// Throws InputError (naming `source` and the line) unless the ids are a permutation of all
/// nodes of `topology`.
std::vector<NodeId> parse_ordering(std::istream& in, const Topology& topology,
                                   const std::string& source);
/// parse_ordering() on the file at `path`.
std::vector<NodeId> read_ordering_file(const std::string& path, const Topology& topology);

/// True when `order` holds every id 0..node_count-1 exactly once.
bool is_node_permutation(std::span<const NodeId> order, int node_count);
/// Inverse of an ordering: node id -> rank.
std::vector<int> ranks_of_nodes(std::span<const NodeId> order);

/// Offsets k summed by weighted_locality_sum: k = 1..kLocalityMaxOffset. With weight 2^-k and
/// dist(i, i+k) <= k * max step, the omitted tail is below 2^-17 of the total per node.
inline constexpr int kLocalityMaxOffset = 20;

/// Largest hop distance (the machine's distance, wrap-aware on a torus) between consecutive
/// nodes of `order`.
int max_consecutive_distance(const Topology& topology, std::span<const NodeId> order);
/// Weighted locality sum  Σ_{k=1..max_offset} 2^-k · Σ_i dist(order[i], order[i+k])
/// (the ordering quality measure; lower is better).
double weighted_locality_sum(const Topology& topology, std::span<const NodeId> order,
                             int max_offset = kLocalityMaxOffset);

/// Quality figures of one ordering on one machine.
struct OrderingQuality {
  int max_step = 0;              ///< max_consecutive_distance
  double mean_step = 0;          ///< mean hop distance between consecutive nodes
  double locality = 0;           ///< weighted_locality_sum with kLocalityMaxOffset
  double locality_per_node = 0;  ///< locality / node count
};
OrderingQuality ordering_quality(const Topology& topology, std::span<const NodeId> order);

/// Text table of every ordering's quality figures on `machine`, for `allocsim list orderings
/// --machine ...` (defined in src/cli/orderings.cpp).
std::string describe_orderings(const Topology& machine);

}  // namespace allocsim
