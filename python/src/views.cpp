// Python bindings of what policies see: Job, Allocation, the machine view of allocate() and the
// scheduler context of schedule().
#include "views.hpp"

#include <pybind11/stl.h>

#include <algorithm>

#include "allocsim/sched/scheduler.hpp"

namespace allocsim::python {

int RunState::job_index(const Job& job) const {
  if (!simulation) return -1;
  const auto& jobs = simulation->jobs();
  if (jobs.empty() || &job < jobs.data() || &job >= jobs.data() + jobs.size()) return -1;
  return static_cast<int>(&job - jobs.data());
}

const MachineView& MachineState::get() const {
  if (!view)
    throw std::runtime_error(
        "this machine view belongs to one allocate() call and was used after it returned");
  return *view;
}

SchedulerContext& ContextState::get() const {
  if (!context)
    throw std::runtime_error(
        "this scheduler context belongs to one schedule() call and was used after it returned");
  return *context;
}

std::string check_nodes(const std::vector<NodeId>& nodes, const std::vector<char>& busy, int needed,
                        bool exact) {
  const auto count = static_cast<NodeId>(busy.size());
  std::vector<char> seen(busy.size(), 0);
  for (NodeId node : nodes) {
    if (node < 0 || node >= count)
      return "node " + std::to_string(node) + " does not exist (node ids are 0 to " +
             std::to_string(count - 1) + ")";
    if (busy[node]) return "node " + std::to_string(node) + " is busy";
    if (seen[node]) return "node " + std::to_string(node) + " appears twice";
    seen[node] = 1;
  }
  const int given = static_cast<int>(nodes.size());
  if (exact ? given != needed : given < needed)
    return std::to_string(given) + " nodes for a job that needs " + std::to_string(needed);
  return {};
}

namespace {

/// The context's job for a JobView handed back by Python, checked.
int job_of(const SchedulerContext& context, const JobView& job) {
  const auto& jobs = context.jobs();
  if (job.index < 0 || job.index >= static_cast<int>(jobs.size()) ||
      jobs[job.index].id != job.job.id)
    throw py::value_error("job " + std::to_string(job.job.id) + " is not a job of this run");
  return job.index;
}

py::list views_of(const SchedulerContext& context, const std::vector<int>& indices) {
  py::list out;
  const auto& jobs = context.jobs();
  for (int index : indices) out.append(JobView{jobs[index], index});
  return out;
}

/// A running job as Python sees it (a copy).
struct RunningView {
  JobView job;
  double start = 0;
  double estimated_end = 0;
  std::vector<NodeId> nodes;
};

Allocation allocation_of(const py::handle& given) {
  if (py::isinstance<Allocation>(given)) return given.cast<Allocation>();
  Allocation allocation;
  try {
    allocation.nodes = given.cast<std::vector<NodeId>>();
  } catch (const py::cast_error&) {
    throw py::type_error(
        "start() takes an Allocation from try_allocate() or a list of node ids, not " +
        std::string(py::str(given.get_type().attr("__name__"))));
  }
  return allocation;
}

void bind_context(py::module_& module) {
  py::class_<RunningView>(module, "RunningJob",
                          "A running job: the job, its start, its estimated "
                          "end (start + estimate) and its nodes.")
      .def_readonly("job", &RunningView::job)
      .def_readonly("start", &RunningView::start)
      .def_readonly("estimated_end", &RunningView::estimated_end)
      .def_readonly("nodes", &RunningView::nodes);

  py::class_<ContextState, std::shared_ptr<ContextState>>(
      module, "SchedulerContext",
      "What a Python scheduler's schedule() sees: the time, the queue, the running jobs, the "
      "machine and the run's allocator (valid during that call only).")
      .def_property_readonly("now", [](const ContextState& s) { return s.get().now(); })
      .def_property_readonly(
          "queue", [](const ContextState& s) { return views_of(s.get(), s.get().waiting()); },
          "waiting jobs in arrival order")
      .def(
          "ordered_queue",
          [](const ContextState& s, const std::string& order) {
            return views_of(s.get(), ordered_queue(s.get(), order));
          },
          py::arg("order") = "fifo",
          "the waiting jobs in a built-in order: fifo, smallfirst, largefirst, shortfirst, "
          "longfirst, cplant")
      .def_property_readonly(
          "running",
          [](const ContextState& s) {
            const SchedulerContext& c = s.get();
            py::list out;
            for (const RunningJob& r : c.running())
              out.append(RunningView{
                  {c.jobs()[r.job], r.job}, r.start, r.estimated_end, r.allocation.nodes});
            return out;
          })
      .def_property_readonly("free_count",
                             [](const ContextState& s) { return s.get().free_count(); })
      .def_property_readonly("node_count",
                             [](const ContextState& s) { return s.get().topology().node_count(); })
      .def_property_readonly("topology",
                             [](const ContextState& s) {
                               s.get();
                               return s.run->topology;
                             })
      .def_property_readonly(
          "contiguous_only",
          [](const ContextState& s) { return s.get().allocator().contiguous_only(); })
      .def(
          "nodes_needed",
          [](const ContextState& s, const JobView& job) {
            return s.get().nodes_needed(job_of(s.get(), job));
          },
          "nodes the run's allocator gives the job when it places it")
      .def(
          "try_allocate",
          [](const ContextState& s, const JobView& job) -> py::object {
            auto allocation = s.get().try_allocate(job_of(s.get(), job));
            if (!allocation) return py::none();
            return py::cast(std::move(*allocation));
          },
          "where the run's allocator would place the job now (an Allocation), or None; "
          "nothing is committed")
      .def(
          "start",
          [](const ContextState& s, const JobView& job, const py::object& given) {
            SchedulerContext& c = s.get();
            const int index = job_of(c, job);
            const auto& waiting = c.waiting();
            if (std::find(waiting.begin(), waiting.end(), index) == waiting.end())
              throw py::value_error("job " + std::to_string(job.job.id) + " is not waiting");
            Allocation allocation;
            if (given.is_none()) {
              auto answer = c.try_allocate(index);
              if (!answer)
                throw py::value_error("the allocator cannot place job " +
                                      std::to_string(job.job.id) + " now");
              allocation = std::move(*answer);
            } else {
              allocation = allocation_of(given);
            }
            const std::string problem =
                check_nodes(allocation.nodes, c.busy(), c.nodes_needed(index), false);
            if (!problem.empty())
              throw py::value_error("cannot start job " + std::to_string(job.job.id) + ": " +
                                    problem);
            c.start(index, std::move(allocation));
          },
          py::arg("job"), py::arg("allocation") = py::none(),
          "starts a waiting job now on `allocation` (from try_allocate(), or node ids); without "
          "one, on the allocator's answer");
}

}  // namespace

void bind_views(py::module_& module) {
  py::class_<JobView>(module, "Job", "A job of the run (a copy): id, size, times, estimate.")
      .def_property_readonly("id", [](const JobView& j) { return j.job.id; })
      .def_property_readonly(
          "size", [](const JobView& j) { return j.job.procs; },
          "processors requested (also `procs`)")
      .def_property_readonly("procs", [](const JobView& j) { return j.job.procs; })
      .def_property_readonly("submit", [](const JobView& j) { return j.job.submit; })
      .def_property_readonly("runtime", [](const JobView& j) { return j.job.runtime; })
      .def_property_readonly("estimate", [](const JobView& j) { return j.job.estimate; })
      .def_property_readonly(
          "shape", [](const JobView& j) { return py::make_tuple(j.job.shape_a, j.job.shape_b); },
          "requested submesh sides (a, b); (0, 0) when only a size is known")
      .def_property_readonly("user", [](const JobView& j) { return j.job.user; })
      .def_readonly("index", &JobView::index, "position in the run's jobs (-1 when unknown)")
      .def("__repr__", [](const JobView& j) {
        return "<Job " + std::to_string(j.job.id) + " size " + std::to_string(j.job.procs) + ">";
      });

  py::class_<Allocation>(module, "Allocation", "Nodes an allocator chose for a job.")
      .def_readonly("nodes", &Allocation::nodes)
      .def_readonly("pieces", &Allocation::pieces)
      .def("__repr__", [](const Allocation& a) {
        return "<Allocation of " + std::to_string(a.nodes.size()) + " nodes>";
      });

  py::class_<MachineState, std::shared_ptr<MachineState>>(
      module, "MachineState",
      "The machine as a Python allocator's allocate() sees it (valid during that call only).")
      .def(
          "free_nodes",
          [](const MachineState& s) {
            const MachineView& view = s.get();
            const std::vector<char>& busy = view.busy();
            py::list out(view.free_count());
            Py_ssize_t at = 0;
            for (NodeId node = 0; node < view.node_count() && at < view.free_count(); ++node)
              if (!busy[node]) PyList_SET_ITEM(out.ptr(), at++, PyLong_FromLong(node));
            if (at < view.free_count())  // never (the simulation keeps the count), but no holes
              PyList_SetSlice(out.ptr(), at, view.free_count(), nullptr);
            return out;
          },
          "free node ids in increasing order")
      .def("is_free",
           [](const MachineState& s, NodeId node) {
             const MachineView& view = s.get();
             if (node < 0 || node >= view.node_count())
               throw py::index_error("no node " + std::to_string(node));
             return view.is_free(node);
           })
      .def_property_readonly("free_count",
                             [](const MachineState& s) { return s.get().free_count(); })
      .def_property_readonly("node_count",
                             [](const MachineState& s) { return s.get().node_count(); })
      .def_property_readonly("busy",
                             [](const MachineState& s) {
                               const auto& busy = s.get().busy();
                               return std::vector<bool>(busy.begin(), busy.end());
                             })
      .def_property_readonly("topology", [](const MachineState& s) {
        s.get();
        return s.topology;
      });

  bind_context(module);
}

}  // namespace allocsim::python
