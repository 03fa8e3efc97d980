#pragma once
// Random grid machines for property tests.
#include <random>
#include <vector>

#include "allocsim/topo/topology.hpp"

namespace allocsim::testing {

/// A random mesh, torus or semitorus of 1 to `max_dims` dimensions with sides 1 to 7 (each axis
/// wraps or not at random).
inline Topology random_grid(std::mt19937& rng, int max_dims = 4) {
  std::uniform_int_distribution<int> dims_dist(1, max_dims), side_dist(1, 7), coin(0, 1);
  const int dims = dims_dist(rng);
  std::vector<int> sides(dims);
  std::vector<bool> wrap(dims);
  for (int axis = 0; axis < dims; ++axis) {
    sides[axis] = side_dist(rng);
    wrap[axis] = coin(rng) == 1;
  }
  return Topology(sides, wrap);
}

}  // namespace allocsim::testing
