// Per-job output on a machine that names its nodes (issue 26 item 4): `--jobs-out` adds the
// nodes' names as a Slurm hostlist expression next to their ids.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <sstream>

#include "allocsim/metrics/records.hpp"
#include "allocsim/output/csv.hpp"
#include "allocsim/topo/hostlist.hpp"
#include "allocsim/util/error.hpp"
#include "testing/tiny_graph.hpp"

namespace allocsim {
namespace {

/// Four nodes on one switch, named tux0, tux1, tux2 and login1 (as a Slurm topology file would).
class NamedStar final : public GraphMachine {
 public:
  NamedStar() {
    node_count_ = 4;
    router_names_ = {"s0"};
    router_of_ = {4, 4, 4, 4};
    group_of_ = {0, 0, 0, 0};
    for (NodeId node = 0; node < 4; ++node) {
      links_.push_back({node, 4, 1, LinkClass::injection});
      links_.push_back({4, node, 1, LinkClass::ejection});
    }
    finish();
  }
  std::string spec() const override { return "namedstar"; }
  std::string kind_name() const override { return "namedstar"; }
  std::string node_name(NodeId node) const override {
    return node == 3 ? "login1" : "tux" + std::to_string(node);
  }
  bool names_its_nodes() const override { return true; }
  int distance(NodeId a, NodeId b) const override { return a == b ? 0 : 2; }
  void for_each_path(NodeId a, NodeId b, PathVisitor visit, LinkLoadView) const override {
    if (a == b) return;
    const std::array<LinkId, 2> path{2 * a, 2 * b + 1};
    visit(path, 1.0);
  }
  std::string routing_description() const override { return "through the switch"; }
};

std::vector<JobRecord> two_jobs() {
  std::vector<JobRecord> jobs(2);
  jobs[0].job_id = 1;
  jobs[0].allocated_nodes = "0-2";
  jobs[1].job_id = 2;
  jobs[1].allocated_nodes = "1 3";
  return jobs;
}

std::string last_field(const std::string& line) {
  return line.substr(line.rfind(',') + 1);
}

TEST(JobNames, HostlistFoldsNumberedNamesOfOnePrefix) {
  EXPECT_EQ(compress_hostlist({"tux0", "tux1", "tux2", "tux5"}), "tux[0-2,5]");
  EXPECT_EQ(compress_hostlist({"tux07", "tux08", "tux10"}), "tux[07-08,10]");
  EXPECT_EQ(compress_hostlist({"tux1", "login1"}), "tux1,login1");
  EXPECT_EQ(compress_hostlist({"a", "b"}), "a,b");  // no numbers: listed as they are
  EXPECT_EQ(compress_hostlist({}), "");
  EXPECT_EQ(parse_node_interval_set("0-2 5"), (std::vector<int>{0, 1, 2, 5}));
  EXPECT_THROW(parse_node_interval_set("0-x"), InputError);
}

TEST(JobNames, JobsCsvNamesTheNodesOfMachinesThatNameThem) {
  const Topology named = Topology::graph(std::make_shared<const NamedStar>());
  std::ostringstream out;
  output::write_jobs_csv(out, two_jobs(), &named);
  std::istringstream lines(out.str());
  std::string header, first, second;
  std::getline(lines, header);
  std::getline(lines, first);
  std::getline(lines, second);
  EXPECT_EQ(last_field(header), "allocated_node_names");
  EXPECT_EQ(first.substr(first.size() - std::string(",0-2,tux[0-2]").size()), ",0-2,tux[0-2]");
  // Nodes 1 and 3: tux1 and login1, quoted since the hostlist holds a comma.
  EXPECT_NE(second.find(",1 3,\"tux1,login1\""), std::string::npos) << second;

  // Machines whose nodes are n<id> (the tiny tree, grids) keep the columns as before.
  for (const Topology& machine : {allocsim::testing::tiny_tree(), Topology::parse("mesh:2x2")}) {
    std::ostringstream plain;
    output::write_jobs_csv(plain, two_jobs(), &machine);
    EXPECT_EQ(last_field(plain.str().substr(0, plain.str().find('\n'))), "allocated_nodes");
  }
}

}  // namespace
}  // namespace allocsim
