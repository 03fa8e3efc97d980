// Shape rule, 2D mesh checks and the contiguous `submesh` allocator (First Fit / Best Fit over
// the busy list; Zhu 1992, Bani-Mohammad et al. 2007 §2).
#include "allocsim/alloc/submesh.hpp"

#include <algorithm>

#include "allocsim/util/error.hpp"

namespace allocsim {

Mesh2D require_mesh2d(const Topology& topology, const std::string& allocator) {
  if (topology.graph()) topology.require_grid("allocator '" + allocator + "'");
  const bool mesh2d = topology.has_coordinates() && topology.dims() == 2 && !topology.wraps(0) &&
                      !topology.wraps(1);
  if (!mesh2d)
    throw InputError("allocator '" + allocator + "' needs a 2D mesh such as mesh:16x16, not " +
                     topology.spec() + ".");
  return Mesh2D{topology.side(0), topology.side(1)};
}

ShapeRule parse_shape_rule(const std::string& text) {
  if (text == "square") return ShapeRule::square;
  if (text == "row") return ShapeRule::row;
  throw InputError("unknown shape rule '" + text + "'; valid rules: square row.");
}

Shape job_shape(const Job& job, ShapeRule rule, const Mesh2D& mesh) {
  if (job.shape_a > 0 && job.shape_b > 0) {
    Shape shape{job.shape_a, job.shape_b};
    const bool fits = shape.w <= mesh.width && shape.h <= mesh.height;
    const bool turned_fits = shape.h <= mesh.width && shape.w <= mesh.height;
    if (!fits && turned_fits) std::swap(shape.w, shape.h);
    return shape;
  }
  const int p = std::max(1, job.procs);
  int w = p;
  if (rule == ShapeRule::square) {
    w = 1;
    while (w * w < p) ++w;  // ceil(sqrt(p)), exact on integers
  }
  w = std::min(w, mesh.width);
  return Shape{w, (p + w - 1) / w};
}

int job_processors(const Job& job) {
  if (job.shape_a > 0 && job.shape_b > 0) return job.shape_a * job.shape_b;
  return std::max(1, job.procs);
}

const BusyList& TrackedBusyList::view(const MachineView& machine,
                                      std::optional<BusyList>& scratch) const {
  if (list_.busy_area() == machine.node_count() - machine.free_count()) return list_;
  scratch = BusyList::from_machine(list_.mesh(), machine);
  return *scratch;
}

std::optional<Allocation> SubmeshAllocator::allocate(const Job& job,
                                                     const MachineView& machine) const {
  const Shape shape = job_shape(job, rule_, mesh_);
  if (machine.free_count() < shape.area()) return std::nullopt;
  std::optional<BusyList> scratch;
  const BusyList& busy = busy_.view(machine, scratch);
  std::optional<Rect> found = busy.find(shape.w, shape.h, fit_);
  if (!found && rotate_ && shape.w != shape.h) found = busy.find(shape.h, shape.w, fit_);
  if (!found) return std::nullopt;
  Allocation allocation;
  allocation.nodes = mesh_.nodes_of(*found);
  allocation.pieces = 1;
  return allocation;
}

}  // namespace allocsim
