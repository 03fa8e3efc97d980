#pragma once
// `paging:size_index=i,indexing=...`: non-contiguous Paging(i) of Lo, Windisch, Liu & Nitzberg
// 1997, §3.2. The mesh is cut into pages of 2^i × 2^i processors, numbered by an indexing
// scheme; a job takes the first ceil(p / 4^i) free pages in index order.
#include <string>
#include <vector>

#include "allocsim/alloc/submesh.hpp"

namespace allocsim {

/// Page numbering (Lo et al. Fig. 3): row-major; shuffled row-major (bits of the page's x and y
/// interleaved: Z order); snake (odd rows right to left); shuffled snake (Z order whose 2×2
/// quadrants at every level are visited bottom-left, bottom-right, top-right, top-left).
enum class PageIndexing { row, shuffled_row, snake, shuffled_snake };
PageIndexing parse_page_indexing(const std::string& text);

/// The pages of `mesh` (sides must be multiples of `page_side`) in index order.
std::vector<Rect> page_order(const Mesh2D& mesh, int page_side, PageIndexing indexing);

/// Paging(i). Stateless: a page is free when all of its processors are; allocations are whole
/// pages (internal fragmentation = pages·4^i − p). pieces = pages taken.
class PagingAllocator : public CloneableAllocator<PagingAllocator> {
 public:
  /// Throws InputError when the mesh sides are not multiples of 2^size_index.
  PagingAllocator(Mesh2D mesh, int size_index, PageIndexing indexing);

  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override;
  int nodes_needed(const Job& job) const override;

  const std::vector<Rect>& pages() const { return pages_; }

 private:
  Mesh2D mesh_;
  int page_area_;
  std::vector<Rect> pages_;
};

}  // namespace allocsim
