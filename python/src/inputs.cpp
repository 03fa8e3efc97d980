// Python bindings of a run's inputs: Machine (a Topology: distances, neighbours, routes), Trace
// (a workload read once), the registry tables (`allocsim list`) and the config field table.
#include <pybind11/stl.h>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/mapping/mapper.hpp"
#include "allocsim/mapping/patterns.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/config_fields.hpp"
#include "allocsim/sim/runtime_model.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/topo/ordering.hpp"
#include "allocsim/topo/topology_registry.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/workload/transform.hpp"
#include "trace.hpp"
#include "views.hpp"

namespace allocsim::python {

namespace {

const char* kind_text(ParamKind kind) {
  switch (kind) {
    case ParamKind::integer:
      return "integer";
    case ParamKind::real:
      return "real";
    case ParamKind::text:
      return "text";
    case ParamKind::choice:
      return "choice";
  }
  return "?";
}

/// One registry table as a list of {name, summary, params: [{key, kind, default, help,
/// choices}]}.
template <class Registry>
py::list entries_of(const Registry& registry) {
  py::list out;
  for (const auto& entry : registry.entries()) {
    py::list params;
    for (const ParamSpec& param : entry.params)
      params.append(py::dict(py::arg("key") = param.key, py::arg("kind") = kind_text(param.kind),
                             py::arg("default") = param.default_value, py::arg("help") = param.help,
                             py::arg("choices") = param.choices));
    out.append(py::dict(py::arg("name") = entry.name, py::arg("summary") = entry.summary,
                        py::arg("params") = params));
  }
  return out;
}

py::list registry_entries(const std::string& family) {
  if (family == "allocators") return entries_of(allocator_registry());
  if (family == "schedulers") return entries_of(scheduler_registry());
  if (family == "topologies") return entries_of(topology_registry());
  if (family == "orderings") return entries_of(ordering_registry());
  if (family == "transforms") return entries_of(transform_registry());
  if (family == "runtime-models" || family == "runtime_models")
    return entries_of(runtime_model_registry());
  if (family == "mappers") return entries_of(mapping::mapper_registry());
  if (family == "patterns") return entries_of(mapping::pattern_registry());
  throw py::value_error("unknown family '" + family +
                        "'; valid families: allocators schedulers topologies orderings "
                        "transforms runtime-models mappers patterns");
}

const char* type_text(FieldType type) {
  switch (type) {
    case FieldType::text:
      return "str";
    case FieldType::text_list:
      return "list";
    case FieldType::real:
      return "float";
    case FieldType::boolean:
      return "bool";
    case FieldType::unsigned_integer:
      return "int";
  }
  return "?";
}

py::list field_rows() {
  py::list out;
  const RunConfig defaults;
  for (const ConfigField& field : config_fields()) {
    const char* role = field.role == FieldRole::identity  ? "identity"
                       : field.role == FieldRole::setting ? "setting"
                                                          : "derived";
    out.append(py::dict(py::arg("name") = field.name, py::arg("type") = type_text(field.type()),
                        py::arg("default") = field_text(defaults, field),
                        py::arg("unit") = field.unit, py::arg("role") = role,
                        py::arg("help") = field.help));
  }
  return out;
}

void check_node(const Topology& t, NodeId node) {
  if (node < 0 || node >= t.node_count())
    throw py::index_error("no node " + std::to_string(node) + " on " + t.spec());
}

void check_link(const Topology& t, LinkId link) {
  if (link < 0 || link >= t.link_slot_count())
    throw py::index_error("no link slot " + std::to_string(link) + " on " + t.spec());
}

void bind_machine(py::module_& module) {
  py::class_<Topology>(module, "Machine",
                       "An interconnect (mesh, torus, flat, or a graph machine such as a "
                       "dragonfly): hop distances, neighbours, routes; node coordinates on grids "
                       "only.")
      .def(py::init([](const std::string& spec) { return Topology::parse(spec); }), py::arg("spec"))
      .def_property_readonly("spec", &Topology::spec)
      .def_property_readonly("kind",
                             [](const Topology& t) -> std::string {
                               if (t.graph()) return t.kind_name();  // "dragonfly", ...
                               return t.kind() == Topology::Kind::flat    ? "flat"
                                      : t.kind() == Topology::Kind::torus ? "torus"
                                                                          : "mesh";
                             })
      .def_property_readonly("node_count", &Topology::node_count)
      .def_property_readonly("dims", &Topology::dims)
      .def_property_readonly("sides", &Topology::sides)
      .def_property_readonly("wraps",
                             [](const Topology& t) {
                               std::vector<bool> out;
                               for (int axis = 0; axis < t.dims(); ++axis)
                                 out.push_back(t.wraps(axis));
                               return out;
                             })
      .def(
          "coords",
          [](const Topology& t, NodeId node) {
            check_node(t, node);
            if (t.graph()) t.require_grid("Machine.coords");
            return t.coords(node);
          },
          py::arg("node"))
      .def(
          "id",
          [](const Topology& t, const std::vector<int>& coords) {
            if (t.graph()) t.require_grid("Machine.id");
            bool valid = static_cast<int>(coords.size()) == t.dims();
            for (int axis = 0; valid && axis < t.dims(); ++axis)
              valid = coords[axis] >= 0 && coords[axis] < t.side(axis);
            if (!valid) throw py::index_error("coordinates outside " + t.spec());
            return t.id(coords);
          },
          py::arg("coords"))
      .def(
          "distance",
          [](const Topology& t, NodeId a, NodeId b) {
            check_node(t, a);
            check_node(t, b);
            return t.distance(a, b);
          },
          py::arg("a"), py::arg("b"), "hop distance")
      .def(
          "neighbours",
          [](const Topology& t, NodeId node) {
            check_node(t, node);
            return t.neighbours(node);
          },
          py::arg("node"))
      .def(
          "route",
          [](const Topology& t, NodeId a, NodeId b) {
            check_node(t, a);
            check_node(t, b);
            if (t.graph())  // several weighted paths: Machine.paths
              throw InputError("Machine.route gives the single route of grids and flat; machine '" +
                               t.spec() + "' is a " + t.kind_name() + ": use Machine.paths");
            std::vector<LinkId> links;
            t.route(a, b, [&](LinkId link) { links.push_back(link); });
            return links;
          },
          py::arg("a"), py::arg("b"), "link ids of the dimension-ordered route from a to b")
      .def(
          "paths",
          [](const Topology& t, NodeId a, NodeId b) {
            check_node(t, a);
            check_node(t, b);
            std::vector<std::pair<std::vector<LinkId>, double>> paths;
            if (const GraphMachine* graph = t.graph()) {
              graph->for_each_path(a, b, [&](std::span<const LinkId> path, double weight) {
                paths.emplace_back(std::vector<LinkId>(path.begin(), path.end()), weight);
              });
            } else if (a != b) {
              std::vector<LinkId> links;
              t.route(a, b, [&](LinkId link) { links.push_back(link); });
              paths.emplace_back(std::move(links), 1.0);
            }
            return paths;
          },
          py::arg("a"), py::arg("b"),
          "every path from a to b as (link ids, share of the traffic); one on grids and flat")
      .def(
          "link",
          [](const Topology& t, LinkId link) {
            check_link(t, link);
            const Topology::Link l = t.link(link);
            return py::dict(py::arg("from") = l.from, py::arg("to") = l.to, py::arg("dim") = l.dim,
                            py::arg("direction") = l.direction);
          },
          py::arg("link"), "endpoints, dimension and direction of a link (-1: the crossbar)")
      .def(
          "is_link",
          [](const Topology& t, LinkId link) {
            check_link(t, link);
            return t.is_link(link);
          },
          py::arg("link"))
      .def_property_readonly("link_count", &Topology::link_count)
      .def("__repr__", [](const Topology& t) { return "<Machine " + t.spec() + ">"; });
}

}  // namespace

void bind_inputs(py::module_& module) {
  py::register_exception<InputError>(module, "InputError", PyExc_ValueError);
  py::register_exception<TimeoutError>(module, "SimulationTimeout", PyExc_TimeoutError);
  bind_machine(module);
  bind_trace(module);
  module.def("_entries", &registry_entries, py::arg("family"));
  module.def("_fields", &field_rows);
}

}  // namespace allocsim::python
