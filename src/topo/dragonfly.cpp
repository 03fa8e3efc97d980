// Placeholder until the dragonfly builder lands.
#include "allocsim/topo/dragonfly.hpp"

#include "allocsim/util/error.hpp"

namespace allocsim {
std::shared_ptr<const GraphMachine> make_dragonfly(const Params&, bool) {
  throw InputError("dragonfly: not built yet");
}
}  // namespace allocsim
