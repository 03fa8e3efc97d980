#pragma once
// Internal: Boost.Serialization for the result value types (design sketch: "Results are plain
// value types ... sent over MPI unchanged"). Metric and config fields go through the column
// and field tables, so a metric added to records.hpp or a field added to config_fields()
// travels without touching this file.
#include <boost/serialization/map.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>
#include <boost/serialization/version.hpp>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sim/config_fields.hpp"
#include "allocsim/sweep/store/outcome.hpp"

namespace boost::serialization {

// clang-format would read `ar & x` as a reference declaration.
// clang-format off

template <class Archive>
void serialize(Archive& ar, allocsim::RunConfig& c, const unsigned /*version*/) {
  for (const auto& field : allocsim::config_fields())
    allocsim::visit_field(c, field, [&](auto& value) { ar & value; });
}

template <class Archive>
void serialize(Archive& ar, allocsim::RunSummary& s, const unsigned /*version*/) {
  for (const auto& column : allocsim::summary_columns()) ar & (s.*column.member);
}

template <class Archive>
void serialize(Archive& ar, allocsim::JobRecord& r, const unsigned /*version*/) {
  ar & r.job_id;
  for (const auto& column : allocsim::job_columns()) ar & (r.*column.member);
  ar & r.allocated_nodes;
}

template <class Archive>
void serialize(Archive& ar, allocsim::DecisionRow& d, const unsigned /*version*/) {
  ar & d.decision & d.mean_pairwise_sum & d.mean_avg_pairwise & d.jobs & d.refusals;
}

template <class Archive>
void serialize(Archive& ar, allocsim::Diagnostics::Entry& e, const unsigned /*version*/) {
  ar & e.count & e.first_lines;
}

template <class Archive>
void serialize(Archive& ar, allocsim::Diagnostics& d, const unsigned /*version*/) {
  ar & d.entries & d.notes;
}

template <class Archive>
void serialize(Archive& ar, allocsim::TimelineRow& t, const unsigned /*version*/) {
  ar & t.time & t.busy_nodes & t.utilization & t.queued_jobs & t.running_jobs;
}
template <class Archive>
void serialize(Archive& ar, allocsim::RunResult& r, const unsigned version) {
  ar & r.summary & r.jobs & r.decisions & r.diagnostics;
  if (version >= 1) ar & r.timeline;  // version 0: archives written before timelines
}

template <class Archive>
void serialize(Archive& ar, allocsim::sweep::ConfigOutcome& o, const unsigned /*version*/) {
  ar & o.config_id & o.index & o.status & o.error & o.wall_seconds & o.rank & o.result;
}

// clang-format on

}  // namespace boost::serialization

BOOST_CLASS_VERSION(allocsim::RunResult, 1)
