// Paging(i) with four page indexing schemes (Lo, Windisch, Liu & Nitzberg 1997, §3.2).
#include "allocsim/alloc/mesh2d_paging.hpp"

#include <algorithm>
#include <cstdint>

#include "allocsim/alloc/mesh2d_buddy.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

PageIndexing parse_page_indexing(const std::string& text) {
  if (text == "row") return PageIndexing::row;
  if (text == "shuffled-row") return PageIndexing::shuffled_row;
  if (text == "snake") return PageIndexing::snake;
  if (text == "shuffled-snake") return PageIndexing::shuffled_snake;
  throw InputError("unknown page indexing '" + text +
                   "'; valid: row shuffled-row snake shuffled-snake.");
}

namespace {

/// Shuffled snake key: base-4 digits, one per bit level, each the snake position of the
/// (x bit, y bit) quadrant: (0,0)->0, (1,0)->1, (1,1)->2, (0,1)->3.
std::uint64_t shuffled_snake_key(int x, int y) {
  std::uint64_t key = 0;
  for (int bit = 0; (x >> bit) != 0 || (y >> bit) != 0; ++bit) {
    const int bx = (x >> bit) & 1, by = (y >> bit) & 1;
    const std::uint64_t digit = by == 0 ? bx : 3 - bx;
    key |= digit << (2 * bit);
  }
  return key;
}

std::uint64_t page_key(int px, int py, int pages_wide, PageIndexing indexing) {
  switch (indexing) {
    case PageIndexing::row:
      return static_cast<std::uint64_t>(py) * pages_wide + px;
    case PageIndexing::snake:
      return static_cast<std::uint64_t>(py) * pages_wide + (py % 2 == 0 ? px : pages_wide - 1 - px);
    case PageIndexing::shuffled_row:
      return morton_index(px, py);
    case PageIndexing::shuffled_snake:
      return shuffled_snake_key(px, py);
  }
  return 0;
}

}  // namespace

std::vector<Rect> page_order(const Mesh2D& mesh, int page_side, PageIndexing indexing) {
  const int wide = mesh.width / page_side, high = mesh.height / page_side;
  std::vector<std::pair<std::uint64_t, Rect>> keyed;
  keyed.reserve(static_cast<std::size_t>(wide) * high);
  for (int py = 0; py < high; ++py)
    for (int px = 0; px < wide; ++px)
      keyed.emplace_back(page_key(px, py, wide, indexing),
                         Rect{px * page_side, py * page_side, page_side, page_side});
  std::sort(keyed.begin(), keyed.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Rect> pages;
  pages.reserve(keyed.size());
  for (const auto& entry : keyed) pages.push_back(entry.second);
  return pages;
}

PagingAllocator::PagingAllocator(Mesh2D mesh, int size_index, PageIndexing indexing)
    : mesh_(mesh), page_area_(0) {
  if (size_index < 0 || size_index > 15 || mesh.width % (1 << size_index) != 0 ||
      mesh.height % (1 << size_index) != 0)
    throw InputError("paging: size_index=" + std::to_string(size_index) +
                     " needs mesh sides that are multiples of 2^size_index; the mesh is " +
                     std::to_string(mesh.width) + "x" + std::to_string(mesh.height) + ".");
  const int side = 1 << size_index;
  page_area_ = side * side;
  pages_ = page_order(mesh, side, indexing);
}

int PagingAllocator::nodes_needed(const Job& job) const {
  const int p = job_processors(job);
  return (p + page_area_ - 1) / page_area_ * page_area_;
}

std::optional<Allocation> PagingAllocator::allocate(const Job& job,
                                                    const MachineView& machine) const {
  const int wanted = nodes_needed(job) / page_area_;
  if (machine.free_count() < wanted * page_area_) return std::nullopt;
  Allocation allocation;
  allocation.pieces = 0;
  allocation.nodes.reserve(static_cast<std::size_t>(wanted) * page_area_);
  for (const Rect& page : pages_) {
    if (allocation.pieces == wanted) break;
    bool free = true;
    for (int y = page.y; y < page.y + page.h && free; ++y)
      for (int x = page.x; x < page.x + page.w && free; ++x) free = machine.is_free(mesh_.id(x, y));
    if (!free) continue;
    mesh_.append_nodes(page, allocation.nodes);
    ++allocation.pieces;
  }
  if (allocation.pieces < wanted) return std::nullopt;
  return allocation;
}

}  // namespace allocsim
