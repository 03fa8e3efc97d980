#pragma once
// Slurm hostlist expressions (the syntax of Nodes= and Switches= in topology.conf, of nodes: in
// topology.yaml, and of slurm.conf node lists): `tux[0-3,12,18-20]`, zero-padded ranges
// `node[01-10]`, several bracket groups `rack[1-2]n[1-3]` and comma-separated lists
// `tux[0-1],dev5`. Slurm's hostlist.c is the reference for the rules below.
#include <string>
#include <string_view>
#include <vector>

namespace allocsim {

/// The names of a hostlist expression, in the order written. Comma-separated items outside
/// brackets are expanded one after the other; inside brackets, comma-separated numbers and
/// LOW-HIGH ranges; a range is zero-padded to the width of LOW as written (`01-10`: 01 .. 10);
/// several bracket groups give every combination, the first group varying slowest (as Slurm's
/// multi-dimensional hostlists). Throws InputError without a file name, e.g. "bad hostlist
/// 'tux[3-1]': the range 3-1 goes down; expected LOW-HIGH with LOW <= HIGH"; the caller adds
/// where the expression came from. At most `max_names` names (a typo such as `n[0-99999999]`
/// fails fast instead of filling memory).
std::vector<std::string> expand_hostlist(std::string_view text, std::size_t max_names = 1 << 20);

/// The inverse, for output: names as a hostlist expression. Consecutive names (in the given
/// order) that share a prefix and end in numbers of one digit count are folded into
/// `prefix[a-b,c]` ("tux[0-3,8],login1"); other names are listed as they are, separated by
/// commas. A name ending in more than 9 digits is not folded.
std::string compress_hostlist(const std::vector<std::string>& names);

}  // namespace allocsim
