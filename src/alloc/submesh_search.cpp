// Free-submesh search on a 2D mesh: the busy list with Right-of-Busy-Submeshes candidates
// (Bani-Mohammad et al., busy-list allocation) and the bitmap reference used by the tests.
#include <algorithm>
#include <climits>

#include "allocsim/alloc/submesh.hpp"

namespace allocsim {

namespace {

int intersection_area(const Rect& a, const Rect& b) {
  const int w = std::min(a.x + a.w, b.x + b.w) - std::max(a.x, b.x);
  const int h = std::min(a.y + a.h, b.y + b.h) - std::max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/// Sorts `values` and drops repeats.
void sort_unique(std::vector<int>& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

}  // namespace

void Mesh2D::append_nodes(const Rect& rect, std::vector<NodeId>& out) const {
  for (int y = rect.y; y < rect.y + rect.h; ++y)
    for (int x = rect.x; x < rect.x + rect.w; ++x) out.push_back(id(x, y));
}

std::vector<NodeId> Mesh2D::nodes_of(const Rect& rect) const {
  std::vector<NodeId> out;
  out.reserve(rect.area());
  append_nodes(rect, out);
  return out;
}

std::vector<Rect> decompose_rects(const Mesh2D& mesh, std::span<const NodeId> nodes) {
  std::vector<NodeId> sorted(nodes.begin(), nodes.end());
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  const auto n = sorted.size();
  std::vector<char> covered(n, 0);
  auto index_of = [&](NodeId node) -> std::ptrdiff_t {
    auto it = std::lower_bound(sorted.begin(), sorted.end(), node);
    return it != sorted.end() && *it == node ? it - sorted.begin() : -1;
  };
  std::vector<Rect> rects;
  for (std::size_t i = 0; i < n; ++i) {
    if (covered[i]) continue;
    const NodeId start = sorted[i];
    const int x = mesh.x_of(start), y = mesh.y_of(start);
    int w = 1;
    while (i + w < n && sorted[i + w] == start + w && x + w < mesh.width && !covered[i + w]) ++w;
    int h = 1;
    for (; y + h < mesh.height; ++h) {
      const auto row = index_of(mesh.id(x, y + h));
      if (row < 0 || static_cast<std::size_t>(row + w) > n) break;
      bool whole = true;
      for (int k = 0; k < w && whole; ++k)
        whole = sorted[row + k] == mesh.id(x + k, y + h) && !covered[row + k];
      if (!whole) break;
      for (int k = 0; k < w; ++k) covered[row + k] = 1;
    }
    for (int k = 0; k < w; ++k) covered[i + k] = 1;
    rects.push_back(Rect{x, y, w, h});
  }
  return rects;
}

// ---------------------------------------------------------------- BusyList

BusyList BusyList::from_machine(const Mesh2D& mesh, const MachineView& machine) {
  std::vector<NodeId> busy;
  for (NodeId node = 0; node < mesh.nodes(); ++node)
    if (!machine.is_free(node)) busy.push_back(node);
  BusyList list(mesh);
  list.add_nodes(busy);
  return list;
}

void BusyList::add(const Rect& rect) {
  rects_.push_back(rect);
  area_ += rect.area();
}

void BusyList::subtract(const Rect& rect) {
  for (std::size_t i = 0; i < rects_.size(); ++i) {
    if (rects_[i] == rect) {
      rects_.erase(rects_.begin() + static_cast<std::ptrdiff_t>(i));
      area_ -= rect.area();
      return;
    }
  }
  std::vector<Rect> kept;
  kept.reserve(rects_.size() + 4);
  for (const Rect& r : rects_) {
    const int cut = intersection_area(r, rect);
    if (cut == 0) {
      kept.push_back(r);
      continue;
    }
    area_ -= cut;
    // r minus rect: the bands below and above rect, then left and right of it in between.
    const int lo = std::max(r.y, rect.y), hi = std::min(r.y + r.h, rect.y + rect.h);
    if (rect.y > r.y) kept.push_back(Rect{r.x, r.y, r.w, rect.y - r.y});
    if (r.y + r.h > hi) kept.push_back(Rect{r.x, hi, r.w, r.y + r.h - hi});
    if (rect.x > r.x) kept.push_back(Rect{r.x, lo, rect.x - r.x, hi - lo});
    if (r.x + r.w > rect.x + rect.w)
      kept.push_back(Rect{rect.x + rect.w, lo, r.x + r.w - rect.x - rect.w, hi - lo});
  }
  rects_ = std::move(kept);
}

void BusyList::add_nodes(std::span<const NodeId> nodes) {
  for (const Rect& rect : decompose_rects(mesh_, nodes)) add(rect);
}

void BusyList::subtract_nodes(std::span<const NodeId> nodes) {
  for (const Rect& rect : decompose_rects(mesh_, nodes)) subtract(rect);
}

int BusyList::blocker(const Rect& rect) const {
  for (std::size_t i = 0; i < rects_.size(); ++i)
    if (rects_[i].overlaps(rect)) return static_cast<int>(i);
  return -1;
}

bool BusyList::is_free(const Rect& rect) const {
  return rect.x >= 0 && rect.y >= 0 && rect.x + rect.w <= mesh_.width &&
         rect.y + rect.h <= mesh_.height && blocker(rect) < 0;
}

int BusyList::busy_in(const Rect& segment) const {
  int busy = 0;
  for (const Rect& r : rects_) busy += intersection_area(r, segment);
  return busy;
}

int BusyList::contact(const Rect& r) const {
  const int left = r.x == 0 ? r.h : busy_in(Rect{r.x - 1, r.y, 1, r.h});
  const int right = r.x + r.w == mesh_.width ? r.h : busy_in(Rect{r.x + r.w, r.y, 1, r.h});
  const int bottom = r.y == 0 ? r.w : busy_in(Rect{r.x, r.y - 1, r.w, 1});
  const int top = r.y + r.h == mesh_.height ? r.w : busy_in(Rect{r.x, r.y + r.h, r.w, 1});
  return left + right + bottom + top;
}

bool BusyList::in_corner(const Rect& r) const {
  return (r.x == 0 || busy_in(Rect{r.x - 1, r.y, 1, r.h}) > 0) &&
         (r.y == 0 || busy_in(Rect{r.x, r.y - 1, r.w, 1}) > 0);
}

std::optional<Rect> BusyList::find(int w, int h, Fit fit) const {
  if (w < 1 || h < 1 || w > mesh_.width || h > mesh_.height) return std::nullopt;
  // Right-of-Busy-Submeshes candidates: x at 0 or at a busy submesh's right edge, y at 0 or at
  // a busy submesh's top edge (every corner-pushed free submesh has such a base).
  std::vector<int> xs{0}, ys{0};
  for (const Rect& r : rects_) {
    if (r.x + r.w + w <= mesh_.width) xs.push_back(r.x + r.w);
    if (r.y + r.h + h <= mesh_.height) ys.push_back(r.y + r.h);
  }
  sort_unique(xs);
  sort_unique(ys);
  std::optional<Rect> best;
  int best_score = -1;
  for (const int y : ys) {
    std::size_t i = 0;
    while (i < xs.size()) {
      const Rect candidate{xs[i], y, w, h};
      const int b = blocker(candidate);
      if (b >= 0) {
        // Every candidate left of the blocker's right edge on this row overlaps it too.
        const int next = rects_[b].x + rects_[b].w;
        while (i < xs.size() && xs[i] < next) ++i;
        continue;
      }
      if (fit == Fit::first) return candidate;
      if (in_corner(candidate)) {
        const int score = contact(candidate);
        if (score > best_score) best_score = score, best = candidate;
      }
      ++i;
    }
  }
  return best;
}

std::optional<Rect> BusyList::largest(int max_w, int max_h, int max_area) const {
  const int width = mesh_.width, height = mesh_.height;
  max_w = std::min(max_w, width);
  max_h = std::min(max_h, height);
  // up[id] = free processors from (x, y) upwards in its column (raster of the busy list).
  std::vector<int> up(mesh_.nodes(), 1);
  for (const Rect& r : rects_)
    for (int y = r.y; y < r.y + r.h; ++y)
      for (int x = r.x; x < r.x + r.w; ++x) up[mesh_.id(x, y)] = 0;
  for (int y = height - 2; y >= 0; --y)
    for (int x = 0; x < width; ++x)
      if (up[mesh_.id(x, y)] != 0) up[mesh_.id(x, y)] = up[mesh_.id(x, y + 1)] + 1;
  std::optional<Rect> best;
  int best_area = 0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      int column_min = INT_MAX;
      for (int w = 1; w <= std::min(max_w, width - x); ++w) {
        column_min = std::min(column_min, up[mesh_.id(x + w - 1, y)]);
        const int h = std::min({column_min, max_h, max_area / w});
        if (h <= 0) break;
        if (w * h > best_area) best_area = w * h, best = Rect{x, y, w, h};
      }
    }
  }
  return best;
}

// ---------------------------------------------------------------- BusyGrid (reference)

void BusyGrid::mark(const Rect& rect, bool value) {
  for (int y = rect.y; y < rect.y + rect.h; ++y)
    for (int x = rect.x; x < rect.x + rect.w; ++x) set(x, y, value);
}

bool BusyGrid::is_free(const Rect& rect) const {
  if (rect.x < 0 || rect.y < 0 || rect.x + rect.w > mesh_.width || rect.y + rect.h > mesh_.height)
    return false;
  for (int y = rect.y; y < rect.y + rect.h; ++y)
    for (int x = rect.x; x < rect.x + rect.w; ++x)
      if (busy(x, y)) return false;
  return true;
}

int BusyGrid::contact(const Rect& r) const {
  int score = 0;
  for (int y = r.y; y < r.y + r.h; ++y) score += blocked(r.x - 1, y) + blocked(r.x + r.w, y);
  for (int x = r.x; x < r.x + r.w; ++x) score += blocked(x, r.y - 1) + blocked(x, r.y + r.h);
  return score;
}

bool BusyGrid::in_corner(const Rect& r) const {
  bool left = false, bottom = false;
  for (int y = r.y; y < r.y + r.h; ++y) left = left || blocked(r.x - 1, y);
  for (int x = r.x; x < r.x + r.w; ++x) bottom = bottom || blocked(x, r.y - 1);
  return left && bottom;
}

std::optional<Rect> BusyGrid::find(int w, int h, Fit fit) const {
  std::optional<Rect> best;
  int best_score = -1;
  for (int y = 0; y + h <= mesh_.height; ++y) {
    for (int x = 0; x + w <= mesh_.width; ++x) {
      const Rect candidate{x, y, w, h};
      if (!is_free(candidate)) continue;
      if (fit == Fit::first) return candidate;
      if (!in_corner(candidate)) continue;
      const int score = contact(candidate);
      if (score > best_score) best_score = score, best = candidate;
    }
  }
  return best;
}

std::optional<Rect> BusyGrid::largest(int max_w, int max_h, int max_area) const {
  std::optional<Rect> best;
  int best_area = 0;
  for (int y = 0; y < mesh_.height; ++y)
    for (int x = 0; x < mesh_.width; ++x)
      for (int w = 1; w <= max_w && x + w <= mesh_.width; ++w)
        for (int h = 1; h <= max_h && y + h <= mesh_.height && w * h <= max_area; ++h)
          if (w * h > best_area && is_free(Rect{x, y, w, h}))
            best_area = w * h, best = Rect{x, y, w, h};
  return best;
}

}  // namespace allocsim
