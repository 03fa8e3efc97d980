// GABL (Bani-Mohammad et al. 2007, Fig. 2) and ANCA (Chang & Mohapatra 1998) over the busy list.
#include "allocsim/alloc/mesh2d_gabl.hpp"

namespace allocsim {

namespace {

/// A free w×h (or, when `rotate`, h×w) submesh by First Fit.
std::optional<Rect> find_either(const BusyList& busy, int w, int h, bool rotate) {
  std::optional<Rect> found = busy.find(w, h, Fit::first);
  if (!found && rotate && w != h) found = busy.find(h, w, Fit::first);
  return found;
}

void take(BusyList& work, const Mesh2D& mesh, const Rect& piece, Allocation& allocation) {
  work.add(piece);
  mesh.append_nodes(piece, allocation.nodes);
  ++allocation.pieces;
}

/// What GABL and ANCA start from: the job's shape, a working copy of the busy list and an empty
/// allocation with room for the shape.
struct PieceSearch {
  Shape shape;
  BusyList work;
  Allocation allocation;
};

/// The start of a piece-wise search; nullopt when fewer processors are free than the shape has.
std::optional<PieceSearch> start_piece_search(const Job& job, const MachineView& machine,
                                              ShapeRule rule, const Mesh2D& mesh,
                                              const TrackedBusyList& busy) {
  const Shape shape = job_shape(job, rule, mesh);
  if (machine.free_count() < shape.area()) return std::nullopt;
  std::optional<BusyList> scratch;
  PieceSearch search{shape, busy.view(machine, scratch), Allocation{}};
  search.allocation.pieces = 0;
  search.allocation.nodes.reserve(shape.area());
  return search;
}

}  // namespace

std::optional<Allocation> GablAllocator::allocate(const Job& job,
                                                  const MachineView& machine) const {
  auto search = start_piece_search(job, machine, rule_, mesh_, busy_);
  if (!search) return std::nullopt;
  const Shape shape = search->shape;
  BusyList& work = search->work;
  Allocation& allocation = search->allocation;
  if (const auto whole = find_either(work, shape.w, shape.h, rotate_)) {
    take(work, mesh_, *whole, allocation);
    return std::move(allocation);
  }
  // Fig. 2: greedy pieces, each no larger in either side than the previous one.
  int max_w = shape.w, max_h = shape.h, missing = shape.area();
  while (missing > 0) {
    // Each piece scans a raster of the whole mesh: the clock read is nothing next to it.
    if (const TimeLimit* limit = machine.time_limit()) limit->check_time_limit();
    std::optional<Rect> piece = work.largest(max_w, max_h, missing);
    if (rotate_ && max_w != max_h) {
      const std::optional<Rect> turned = work.largest(max_h, max_w, missing);
      if (turned && (!piece || turned->area() > piece->area())) piece = turned;
    }
    if (!piece) return std::nullopt;  // only when the machine view disagrees with its count
    take(work, mesh_, *piece, allocation);
    missing -= piece->area();
    max_w = piece->w;
    max_h = piece->h;
  }
  return std::move(allocation);
}

bool AncaAllocator::place(BusyList& work, int w, int h, Allocation& allocation,
                          TimeLimitPoll& poll) const {
  const std::int64_t listed = static_cast<std::int64_t>(work.rects().size()) + 1;
  poll.add(listed * listed);
  if (const auto found = find_either(work, w, h, rotate_)) {
    take(work, mesh_, *found, allocation);
    return true;
  }
  if (w * h == 1) return false;
  if (w >= h)
    return place(work, (w + 1) / 2, h, allocation, poll) && place(work, w / 2, h, allocation, poll);
  return place(work, w, (h + 1) / 2, allocation, poll) && place(work, w, h / 2, allocation, poll);
}

std::optional<Allocation> AncaAllocator::allocate(const Job& job,
                                                  const MachineView& machine) const {
  auto search = start_piece_search(job, machine, rule_, mesh_, busy_);
  TimeLimitPoll poll(machine.time_limit());
  if (!search || !place(search->work, search->shape.w, search->shape.h, search->allocation, poll))
    return std::nullopt;
  return std::move(search->allocation);
}

}  // namespace allocsim
