#pragma once
// Task-graph files. Malformed input raises InputError naming `file:line`, like the trace readers.
// Files are plain or gzip-compressed text of at most 1 GiB (binary data, /dev/zero and endless
// FIFOs are refused), and the counts they declare pass the size guards (task_graph.hpp) before
// any memory is taken.
#include <string>
#include <string_view>

#include "allocsim/mapping/task_graph.hpp"

namespace allocsim::mapping {

/// METIS `.graph` format: `%` comment lines; header `n m [fmt [ncon]]` where fmt's digits
/// are (vertex sizes, vertex weights, edge weights); then one line per vertex: [size]
/// [ncon weights] then neighbours (1-based), each followed by its weight when fmt says so.
/// The first vertex weight is the load; vertex sizes are read and ignored. The METIS manual's
/// rules are enforced, each a `file:line` error: every edge listed once at each of its two ends
/// (a neighbour listed twice on one line, or an edge missing at one end, is an error), equal
/// weights at both ends, no self loops, neighbours in 1..n, edge weights positive integers,
/// vertex weights and sizes >= 0, exactly n vertex lines and m edges.
TaskGraph read_metis_graph(const std::string& path);
/// The METIS reader on text already in memory; `source` names it in messages.
TaskGraph parse_metis_graph(std::string_view text, const std::string& source);

/// Matrix Market coordinate files (`%%MatrixMarket matrix coordinate real|integer|pattern
/// general|symmetric`), square. Off-diagonal entry (i, j, v) adds |v| bytes (1 for pattern)
/// between tasks i and j; in a general matrix (i, j) and (j, i) both add. Diagonal entries are
/// ignored; loads are 1.
TaskGraph read_matrix_market(const std::string& path);
/// The Matrix Market reader on text already in memory; `source` names it in messages.
TaskGraph parse_matrix_market(std::string_view text, const std::string& source);

/// Text of a task-graph file's bytes (gzip decompressed), with the readers' limits: at most
/// 1 GiB, no NUL byte. InputError naming `source` otherwise.
std::string decode_task_graph_bytes(std::string_view bytes, const std::string& source);

/// Picks the reader by extension: `.mtx` -> Matrix Market, anything else -> METIS.
TaskGraph read_task_graph(const std::string& path);

/// Writes `graph` in METIS format (fmt 011, loads and bytes rounded to integers ≥ 1).
void write_metis_graph(const TaskGraph& graph, const std::string& path);

}  // namespace allocsim::mapping
