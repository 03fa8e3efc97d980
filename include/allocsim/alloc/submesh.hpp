#pragma once
// Submesh geometry shared by the 2D mesh allocators (contiguous and non-contiguous):
// rectangles, the shape rule for jobs that carry only a processor count, the busy list with its
// free-submesh search (Right-of-Busy-Submeshes candidates, Bani-Mohammad et al.), a bitmap
// version of every search used as the reference in tests, and the `submesh` allocator.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "allocsim/alloc/allocator.hpp"

namespace allocsim {

/// An axis-aligned submesh of a 2D mesh: base (x, y) is its corner with the smallest
/// coordinates, w columns along axis 0 and h rows along axis 1.
struct Rect {
  int x = 0, y = 0, w = 0, h = 0;

  int area() const { return w * h; }
  bool overlaps(const Rect& o) const {
    return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h;
  }
  bool contains(int px, int py) const { return px >= x && px < x + w && py >= y && py < y + h; }
  friend bool operator==(const Rect&, const Rect&) = default;
};

/// Sides of a 2D mesh and the node-id arithmetic (ids number axis 0 fastest, as Topology).
struct Mesh2D {
  int width = 0, height = 0;

  int nodes() const { return width * height; }
  NodeId id(int x, int y) const { return x + width * y; }
  int x_of(NodeId node) const { return node % width; }
  int y_of(NodeId node) const { return node / width; }
  /// Appends the nodes of `rect` in row-major order (axis 0 fastest).
  void append_nodes(const Rect& rect, std::vector<NodeId>& out) const;
  std::vector<NodeId> nodes_of(const Rect& rect) const;
};

/// The mesh sides of `topology`; throws InputError naming `allocator` unless it is a 2D mesh
/// without wrap-around links.
Mesh2D require_mesh2d(const Topology& topology, const std::string& allocator);

/// How a job that carries only a processor count p gets a shape:
/// `square` = the most square a×b >= p (a = ceil(sqrt p), b = ceil(p / a)); `row` = 1 row of p
/// (rows of the mesh width when p exceeds it). Either is folded to the mesh width if needed.
enum class ShapeRule { square, row };
ShapeRule parse_shape_rule(const std::string& text);

/// Requested submesh sides (w along axis 0, h along axis 1).
struct Shape {
  int w = 1, h = 1;
  int area() const { return w * h; }
};

/// The shape a job asks for on `mesh`: its own a×b when it carries one (turned b×a when only
/// that orientation fits the mesh), otherwise the shape rule applied to its processor count.
Shape job_shape(const Job& job, ShapeRule rule, const Mesh2D& mesh);
/// Processors a job asks for: a·b when it carries a shape, else its count (at least 1).
int job_processors(const Job& job);

/// Splits a node set into disjoint rectangles, greedily: the lowest uncovered node starts a
/// rectangle as wide as the run of set nodes on its row, extended upwards while the whole run
/// is in the set. Deterministic, so commit and release of the same set give the same list.
std::vector<Rect> decompose_rects(const Mesh2D& mesh, std::span<const NodeId> nodes);

/// Contiguous placement rule. First Fit: the free submesh whose base comes first in row-major
/// order (lowest y, then lowest x). Best Fit: among free submeshes pushed into a corner (left
/// side and bottom side both touch a busy processor or the mesh boundary), the one with the most
/// busy or boundary processors along its perimeter, ties by First Fit order (Zhu 1992's "base
/// with the most busy neighbours", extended to the whole perimeter).
enum class Fit { first, best };

/// Busy list of a 2D mesh (Bani-Mohammad et al., busy-list allocation): the allocated submeshes
/// as disjoint rectangles. The free-submesh search visits Right-of-Busy-Submeshes candidates:
/// a free w×h submesh, slid left and down until blocked, has its base at x = 0 or at the right
/// edge of a busy submesh and at y = 0 or at the top edge of one, so only those (x, y) pairs are
/// tested, each against the list, skipping past the busy submesh that blocks it.
class BusyList {
 public:
  explicit BusyList(Mesh2D mesh) : mesh_(mesh) {}
  /// The busy list of a machine: its busy processors decomposed into rectangles.
  static BusyList from_machine(const Mesh2D& mesh, const MachineView& machine);

  const Mesh2D& mesh() const { return mesh_; }
  const std::vector<Rect>& rects() const { return rects_; }
  /// Busy processors covered by the list.
  int busy_area() const { return area_; }

  /// Adds a busy submesh (must not overlap the list).
  void add(const Rect& rect);
  /// Frees the processors of `rect`: removes it, or cuts it out of the rectangles it overlaps
  /// (when the list was built with another decomposition).
  void subtract(const Rect& rect);
  void add_nodes(std::span<const NodeId> nodes);
  void subtract_nodes(std::span<const NodeId> nodes);

  bool is_free(const Rect& rect) const;
  /// A free w×h submesh chosen by `fit`, or nullopt when none exists.
  std::optional<Rect> find(int w, int h, Fit fit) const;
  /// Busy or out-of-mesh processors adjacent to the four sides of `rect` (Best Fit's score).
  int contact(const Rect& rect) const;
  /// True when the left and the bottom side of `rect` both touch busy processors or the boundary.
  bool in_corner(const Rect& rect) const;
  /// The largest free submesh with w <= max_w, h <= max_h and w·h <= max_area (GABL, Fig. 2),
  /// ties by base in row-major order, then the narrower. Scans a raster of the list, O(W·H·max_w).
  std::optional<Rect> largest(int max_w, int max_h, int max_area) const;

 private:
  /// Index of a listed rectangle overlapping `rect`, or -1.
  int blocker(const Rect& rect) const;
  /// Busy processors inside `segment` (rectangles of the list are disjoint).
  int busy_in(const Rect& segment) const;

  Mesh2D mesh_;
  std::vector<Rect> rects_;
  int area_ = 0;
};

/// Busy bitmap of a 2D mesh: the reference implementation of every search above (tests).
class BusyGrid {
 public:
  explicit BusyGrid(Mesh2D mesh) : mesh_(mesh), busy_(mesh.nodes(), 0) {}
  const Mesh2D& mesh() const { return mesh_; }
  bool busy(int x, int y) const { return busy_[mesh_.id(x, y)] != 0; }
  /// Outside the mesh counts as busy.
  bool blocked(int x, int y) const {
    return x < 0 || y < 0 || x >= mesh_.width || y >= mesh_.height || busy(x, y);
  }
  void set(int x, int y, bool value) { busy_[mesh_.id(x, y)] = value ? 1 : 0; }
  void mark(const Rect& rect, bool value);

  bool is_free(const Rect& rect) const;
  std::optional<Rect> find(int w, int h, Fit fit) const;
  int contact(const Rect& rect) const;
  bool in_corner(const Rect& rect) const;
  std::optional<Rect> largest(int max_w, int max_h, int max_area) const;

 private:
  Mesh2D mesh_;
  std::vector<char> busy_;
};

/// Busy list kept in step through commit()/release(); allocate() checks it against the machine
/// (busy count) and works on a list rebuilt from the machine when they disagree, so a decision
/// experiment that never commits still gets correct answers.
class TrackedBusyList {
 public:
  explicit TrackedBusyList(Mesh2D mesh) : list_(mesh) {}
  /// The list to search for `machine`: the tracked one, or a rebuilt copy in `scratch`.
  const BusyList& view(const MachineView& machine, std::optional<BusyList>& scratch) const;
  void commit(const Allocation& allocation) { list_.add_nodes(allocation.nodes); }
  void release(const Allocation& allocation) { list_.subtract_nodes(allocation.nodes); }
  const BusyList& list() const { return list_; }

 private:
  BusyList list_;
};

/// `submesh:fit=first|best,rotate=0|1,shape=square|row`: contiguous First Fit / Best Fit over
/// the busy list (Zhu 1992; Bani-Mohammad et al.'s contiguous baseline). With rotate=1 the
/// request is turned b×a when no a×b submesh is free (Turning Busy List).
class SubmeshAllocator : public CloneableAllocator<SubmeshAllocator> {
 public:
  SubmeshAllocator(Mesh2D mesh, Fit fit, bool rotate, ShapeRule rule)
      : mesh_(mesh), fit_(fit), rotate_(rotate), rule_(rule), busy_(mesh) {}

  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override;
  void commit(const Allocation& allocation) override { busy_.commit(allocation); }
  void release(const Allocation& allocation) override { busy_.release(allocation); }
  int nodes_needed(const Job& job) const override { return job_shape(job, rule_, mesh_).area(); }
  bool contiguous_only() const override { return true; }

  const BusyList& busy_list() const { return busy_.list(); }

 private:
  Mesh2D mesh_;
  Fit fit_;
  bool rotate_;
  ShapeRule rule_;
  TrackedBusyList busy_;
};

}  // namespace allocsim
