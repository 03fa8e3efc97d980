#pragma once
// Task-graph files. Malformed input raises InputError naming `file:line`, like the trace readers.
#include <string>

#include "allocsim/mapping/task_graph.hpp"

namespace allocsim::mapping {

/// METIS `.graph` format: `%` comment lines; header `n m [fmt [ncon]]` where fmt's digits
/// are (vertex sizes, vertex weights, edge weights); then one line per vertex: [size]
/// [ncon weights] then neighbours (1-based), each followed by its weight when fmt says so.
/// The first vertex weight is the load; vertex sizes are read and ignored. Each edge must be
/// listed from both ends with the same weight and m must match.
TaskGraph read_metis_graph(const std::string& path);

/// Matrix Market coordinate files (`%%MatrixMarket matrix coordinate real|integer|pattern
/// general|symmetric`), square. Off-diagonal entry (i, j, v) adds |v| bytes (1 for pattern)
/// between tasks i and j; in a general matrix (i, j) and (j, i) both add. Diagonal entries are
/// ignored; loads are 1.
TaskGraph read_matrix_market(const std::string& path);

/// Picks the reader by extension: `.mtx` -> Matrix Market, anything else -> METIS.
TaskGraph read_task_graph(const std::string& path);

/// Writes `graph` in METIS format (fmt 011, loads and bytes rounded to integers ≥ 1).
void write_metis_graph(const TaskGraph& graph, const std::string& path);

}  // namespace allocsim::mapping
