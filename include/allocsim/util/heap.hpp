#pragma once
// Process-wide heap policy for programs that run many simulations one after another.

namespace allocsim {

/// Asks glibc's malloc to keep freed memory for the next simulation instead of returning it to
/// the kernel. By default a block of more than ~128 KiB (a run's per-job records: 232 bytes a
/// job, 4 MB for NASA iPSC) is mmap'ed and unmapped on every run, and the heap top is trimmed,
/// so the next run page-faults the same megabytes back in (measured: ~2,700 faults, a quarter
/// of the run's time, per NASA iPSC run in one process). Blocks under 256 MiB now come from the
/// heap and up to 512 MiB of free heap is kept; the resident size never exceeds the largest
/// run's peak. Called first thing by the allocsim binary (its sweep workers run thousands of
/// configs per process) and by the benchmarks that model that loop. No effect elsewhere than
/// glibc.
void keep_freed_memory_for_reuse();

}  // namespace allocsim
