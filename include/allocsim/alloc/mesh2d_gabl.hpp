#pragma once
// Non-contiguous allocators over the busy list that split a request into submeshes:
// GABL (Bani-Mohammad, Ould-Khaoua, Ababneh & Mackenzie 2007, §3 and Fig. 2) and ANCA
// (Adaptive Non-Contiguous Allocation, Chang & Mohapatra 1998).
#include <optional>

#include "allocsim/alloc/submesh.hpp"

namespace allocsim {

/// What GABL and ANCA share: a 2D mesh, the shape rule, whether requests may be turned, and the
/// busy list they search, kept up to date by commit() and release().
template <class Derived>
class BusyListPieceAllocator : public CloneableAllocator<Derived> {
 public:
  BusyListPieceAllocator(Mesh2D mesh, bool rotate, ShapeRule rule)
      : mesh_(mesh), rotate_(rotate), rule_(rule), busy_(mesh) {}

  void commit(const Allocation& allocation) override { busy_.commit(allocation); }
  void release(const Allocation& allocation) override { busy_.release(allocation); }
  int nodes_needed(const Job& job) const override { return job_shape(job, rule_, mesh_).area(); }

  const BusyList& busy_list() const { return busy_.list(); }

 protected:
  Mesh2D mesh_;
  bool rotate_;
  ShapeRule rule_;
  TrackedBusyList busy_;
};

/// `gabl:rotate=0|1,shape=square|row`: Greedy-Available-Busy-List. If a free a×b submesh
/// exists (or b×a with rotate=1) it is taken whole (First Fit over the busy list). Otherwise
/// the job is built greedily: repeatedly the largest free submesh whose sides do not exceed the
/// previous piece's sides (starting from a×b; with rotate=1 also turned) and whose area does not
/// exceed the processors still missing, until a·b are allocated. Always succeeds when a·b
/// processors are free (1×1 pieces are always allowed). pieces = submeshes taken.
class GablAllocator : public BusyListPieceAllocator<GablAllocator> {
 public:
  using BusyListPieceAllocator::BusyListPieceAllocator;
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override;
};

/// `anca:rotate=0|1,shape=square|row`: try the request a×b contiguously (First Fit, turned when
/// rotate=1); on failure split it into two halves across its longer side (ceil and floor of
/// half; the first half is placed completely before the second) and place each the same way,
/// recursively down to 1×1. Always succeeds when a·b processors are free.
class AncaAllocator : public BusyListPieceAllocator<AncaAllocator> {
 public:
  using BusyListPieceAllocator::BusyListPieceAllocator;
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override;

 private:
  /// Places a w×h request or its halves; polls the run's time limit once per search (a search
  /// costs about the square of the busy list's length, and there may be as many as w·h).
  bool place(BusyList& work, int w, int h, Allocation& allocation, TimeLimitPoll& poll) const;
};

}  // namespace allocsim
