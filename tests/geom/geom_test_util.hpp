#pragma once
// Helpers shared by the geom/ tests: random instances from the project's Rng, grids.
#include <vector>

#include "allocsim/geom/point_set.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim::geom::testing {

/// n points with coordinates uniform in [0, side) per axis (duplicates possible).
inline PointSet random_points(Rng& rng, int dims, int n, int side, std::vector<int> rings = {}) {
  PointSet points(dims, std::move(rings));
  std::vector<int> p(dims);
  for (int i = 0; i < n; ++i) {
    for (auto& c : p) c = static_cast<int>(rng.uniform_int(0, side - 1));
    points.add(p);
  }
  return points;
}

/// n distinct points of a side^dims grid (a random subset of a mesh's processors);
/// n must not exceed side^dims.
inline PointSet random_free_grid(Rng& rng, int dims, int side, int n, std::vector<int> rings = {}) {
  std::vector<std::vector<int>> all;
  std::vector<int> p(dims, 0);
  while (true) {
    all.push_back(p);
    int axis = 0;
    while (axis < dims && ++p[axis] == side) p[axis++] = 0;
    if (axis == dims) break;
  }
  for (int i = 0; i < n; ++i) {
    const auto j = rng.uniform_int(i, static_cast<std::int64_t>(all.size()) - 1);
    std::swap(all[i], all[j]);
  }
  all.resize(n);
  return PointSet::from_rows(all, std::move(rings));
}

/// Every point of a width x height grid, x fastest.
inline PointSet full_grid(int width, int height) {
  PointSet points(2);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const int p[2] = {x, y};
      points.add(p);
    }
  return points;
}

}  // namespace allocsim::geom::testing
