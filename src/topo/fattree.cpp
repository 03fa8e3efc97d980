// Placeholder until the fat-tree builder lands.
#include "allocsim/topo/fattree.hpp"

#include "allocsim/util/error.hpp"

namespace allocsim {
std::shared_ptr<const GraphMachine> make_fattree(const Params&, bool) {
  throw InputError("fattree: not built yet");
}
}  // namespace allocsim
