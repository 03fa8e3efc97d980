// See util/heap.hpp.
#include "allocsim/util/heap.hpp"

#include <cstdlib>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace allocsim {

void keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
  constexpr int kMmapThreshold = 256 << 20;  // larger blocks are still mmap'ed
  constexpr int kTrimThreshold = 512 << 20;  // free heap kept before trimming
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
#endif
}

}  // namespace allocsim
