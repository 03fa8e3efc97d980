// Registry rows of the 2D mesh allocators (Bani-Mohammad et al. 2007 study and its baselines).
#include "allocsim/alloc/mesh2d.hpp"

#include "allocsim/alloc/mesh2d_buddy.hpp"
#include "allocsim/alloc/mesh2d_gabl.hpp"
#include "allocsim/alloc/mesh2d_paging.hpp"
#include "allocsim/alloc/submesh.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {

ParamSpec rotate_param(const std::string& default_value) {
  return ParamSpec{"rotate",
                   ParamKind::choice,
                   default_value,
                   "1: turn the request b x a when no a x b submesh is free",
                   {"0", "1"}};
}

ParamSpec shape_param() {
  return ParamSpec{"shape",
                   ParamKind::choice,
                   "square",
                   "shape of jobs that carry only a processor count: most square a x b >= p, "
                   "or a row of p",
                   {"square", "row"}};
}

}  // namespace

void append_mesh2d_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries) {
  entries.push_back(
      {"submesh",
       "contiguous a x b submesh on a 2D mesh by First Fit or Best Fit over the busy list",
       {ParamSpec{"fit",
                  ParamKind::choice,
                  "first",
                  "first: lowest base in row-major order; best: corner submesh with the most busy "
                  "or boundary processors around it",
                  {"first", "best"}},
        rotate_param("0"), shape_param()},
       [](const Params& params, const Topology& topology) -> std::unique_ptr<Allocator> {
         const Mesh2D mesh = require_mesh2d(topology, "submesh");
         return std::make_unique<SubmeshAllocator>(
             mesh, params.text("fit") == "best" ? Fit::best : Fit::first,
             params.text("rotate") == "1", parse_shape_rule(params.text("shape")));
       }});
  entries.push_back(
      {"buddy2d",
       "2D buddy system: one 2^k x 2^k block per job (square power-of-two 2D meshes only)",
       {},
       [](const Params&, const Topology& topology) -> std::unique_ptr<Allocator> {
         const Mesh2D mesh = require_mesh2d(topology, "buddy2d");
         const int side = mesh.width;
         if (mesh.width != mesh.height || (side & (side - 1)) != 0)
           throw InputError(
               "allocator 'buddy2d' needs a square 2D mesh whose side is a power of "
               "two (e.g. mesh:16x16), not " +
               topology.spec() + "; mbs works on any 2D mesh.");
         return std::make_unique<Buddy2DAllocator>(mesh);
       }});
  entries.push_back(
      {"paging",
       "non-contiguous Paging(i): first free 2^i x 2^i pages in index order (Lo et al. 1997)",
       {ParamSpec{"size_index",
                  ParamKind::integer,
                  "0",
                  "page side is 2^size_index",
                  {},
                  integer_rule(0, 15)},
        ParamSpec{"indexing",
                  ParamKind::choice,
                  "row",
                  "page numbering",
                  {"row", "shuffled-row", "snake", "shuffled-snake"}}},
       [](const Params& params, const Topology& topology) -> std::unique_ptr<Allocator> {
         const Mesh2D mesh = require_mesh2d(topology, "paging");
         return std::make_unique<PagingAllocator>(mesh,
                                                  static_cast<int>(params.integer("size_index")),
                                                  parse_page_indexing(params.text("indexing")));
       }});
  entries.push_back(
      {"mbs",
       "Multiple Buddy System: request in base 4 as square power-of-two blocks (Lo et al. 1997)",
       {},
       [](const Params&, const Topology& topology) -> std::unique_ptr<Allocator> {
         return std::make_unique<MbsAllocator>(require_mesh2d(topology, "mbs"));
       }});
  entries.push_back(
      {"anca",
       "Adaptive Non-Contiguous Allocation: contiguous, else halve the request recursively",
       {rotate_param("1"), shape_param()},
       [](const Params& params, const Topology& topology) -> std::unique_ptr<Allocator> {
         return std::make_unique<AncaAllocator>(require_mesh2d(topology, "anca"),
                                                params.text("rotate") == "1",
                                                parse_shape_rule(params.text("shape")));
       }});
  entries.push_back(
      {"gabl",
       "Greedy-Available-Busy-List: contiguous, else largest free submeshes of decreasing sides",
       {rotate_param("1"), shape_param()},
       [](const Params& params, const Topology& topology) -> std::unique_ptr<Allocator> {
         return std::make_unique<GablAllocator>(require_mesh2d(topology, "gabl"),
                                                params.text("rotate") == "1",
                                                parse_shape_rule(params.text("shape")));
       }});
}

}  // namespace allocsim
