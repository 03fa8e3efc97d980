#pragma once
// Runtime models turn (job, allocation, machine) into a running time. `fixed` (the trace's
// runtime) is the default; communication-aware models stretch runtime by dispersal.
#include <functional>
#include <memory>

#include "allocsim/alloc/allocator.hpp"

namespace allocsim {

class RuntimeModel {
 public:
  virtual ~RuntimeModel() = default;
  /// Running time of `job` when placed on `allocation`.
  virtual double runtime(const Job& job, const Allocation& allocation,
                         const Topology& topology) const = 0;
};

using RuntimeModelFactory = std::function<std::unique_ptr<RuntimeModel>(const Params&)>;
using RuntimeModelRegistry = Registry<RuntimeModelFactory>;
const RuntimeModelRegistry& runtime_model_registry();

}  // namespace allocsim
