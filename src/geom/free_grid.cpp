// The free nodes of a grid machine as one bit word per axis-0 line (see free_grid.hpp).
#include "allocsim/geom/free_grid.hpp"

#include <cstring>
#include <stdexcept>
#include <utility>

#include "allocsim/util/error.hpp"

namespace allocsim::geom {

FreeGrid::FreeGrid(std::vector<int> sides, std::vector<int> rings)
    : sides_(std::move(sides)), rings_(std::move(rings)) {
  if (rings_.empty()) rings_.assign(sides_.size(), 0);
  if (rings_.size() != sides_.size()) throw InputError("a free grid needs one ring per axis");
  if (sides_.empty() || sides_.size() > 8 || sides_[0] < 1 || sides_[0] > 64) return;
  line_stride_.assign(sides_.size(), 1);
  std::int64_t lines = 1;
  for (std::size_t axis = 1; axis < sides_.size(); ++axis) {
    if (sides_[axis] < 1) return;
    line_stride_[axis] = static_cast<int>(lines);
    lines *= sides_[axis];
    if (lines * sides_[0] > (std::int64_t{1} << 30)) return;
  }
  lines_.assign(static_cast<std::size_t>(lines), 0);
  running_.assign(static_cast<std::size_t>(lines) * (sides_[0] + 1), 0);
  node_count_ = static_cast<int>(lines * sides_[0]);
  busy_.assign(static_cast<std::size_t>(node_count_), 1);
  usable_ = true;
}

bool FreeGrid::sync(std::span<const char> busy) {
  if (!usable_ || static_cast<int>(busy.size()) != node_count_)
    throw std::invalid_argument("FreeGrid::sync: busy map of another machine");
  const std::size_t n = busy.size();
  const int x_side = sides_[0];
  bool changed = false;
  auto update = [&](std::size_t node) {
    const bool now_busy = busy[node] != 0;
    if (now_busy == (busy_[node] != 0)) return;
    busy_[node] = now_busy ? 1 : 0;
    if (dirty_.empty() || dirty_.back() != static_cast<int>(node / x_side))
      dirty_.push_back(static_cast<int>(node / x_side));
    const std::uint64_t bit = std::uint64_t{1} << (node % x_side);
    if (now_busy) {
      lines_[node / x_side] &= ~bit;
      --free_count_;
    } else {
      lines_[node / x_side] |= bit;
      ++free_count_;
    }
    changed = true;
  };
  std::size_t at = 0;
  for (; at + 8 <= n; at += 8) {  // 8 flags per comparison; most chunks are unchanged
    std::uint64_t now = 0, before = 0;
    std::memcpy(&now, busy.data() + at, 8);
    std::memcpy(&before, busy_.data() + at, 8);
    if (now == before) continue;
    for (std::size_t node = at; node < at + 8; ++node) update(node);
  }
  for (; at < n; ++at) update(at);
  for (const int row : dirty_) {  // a line may be listed twice (harmless)
    std::uint8_t* running = running_.data() + static_cast<std::size_t>(row) * (x_side + 1);
    const std::uint64_t line = lines_[row];
    for (int x = 0; x < x_side; ++x)
      running[x + 1] = static_cast<std::uint8_t>(running[x] + ((line >> x) & 1u));
  }
  dirty_.clear();
  return changed;
}

}  // namespace allocsim::geom
