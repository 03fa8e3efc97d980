#pragma once
// One explicit table per interchangeable family (allocators, schedulers, transforms, ...).
// `allocsim list` prints the tables; unknown names get the valid ones and the closest match.
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "allocsim/util/error.hpp"
#include "allocsim/util/spec.hpp"

namespace allocsim {

/// A row of a family table: name, one-line summary, typed parameters, factory.
template <class Factory>
struct RegistryEntry {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
  Factory factory;
};

/// An ordered table of entries for one family, e.g. "allocator".
template <class Factory>
class Registry {
 public:
  /// `hints`: words that are not entry names but that users type for one (an ordering given as
  /// an allocator: `hilbert`), each with the spec to suggest (`curve:order=hilbert`).
  Registry(std::string family, std::vector<RegistryEntry<Factory>> entries,
           std::vector<std::pair<std::string, std::string>> hints = {})
      : family_(std::move(family)), entries_(std::move(entries)), hints_(std::move(hints)) {}

  const std::string& family() const { return family_; }
  const std::vector<RegistryEntry<Factory>>& entries() const { return entries_; }

  std::vector<std::string> names() const {
    std::vector<std::string> result;
    for (const auto& entry : entries_) result.push_back(entry.name);
    return result;
  }

  /// The entry named `name`; throws InputError listing the valid names and the closest match.
  const RegistryEntry<Factory>& find(const std::string& name) const {
    for (const auto& entry : entries_)
      if (entry.name == name) return entry;
    std::ostringstream message;
    message << "unknown " << family_ << " '" << name << "'";
    const std::string suggestion = suggest(name);
    if (!suggestion.empty()) message << " (did you mean '" << suggestion << "'?)";
    message << "; valid " << plural(family_) << ":";
    for (const auto& entry : entries_) message << ' ' << entry.name;
    throw InputError(message.str());
  }

  /// Parses `text` as `name:key=value,...`, finds the entry and validates its parameters.
  std::pair<const RegistryEntry<Factory>*, Params> resolve(const std::string& text) const {
    const AlgoSpec spec = AlgoSpec::parse(text);
    const auto& entry = find(spec.name);
    return {&entry, Params(entry.params, spec.params, family_ + " '" + spec.name + "'")};
  }

  /// Canonical spelling of a spec: name plus every parameter (defaults filled in), sorted by key.
  std::string canonical(const std::string& text) const {
    auto [entry, params] = resolve(text);
    const std::string rest = params.canonical();
    return rest.empty() ? entry->name : entry->name + ":" + rest;
  }

  /// Human-readable table for `allocsim list`.
  std::string describe() const;

  /// What to suggest for an unknown `name`: a hint, else `entry:key=name` when `name` is a
  /// choice of exactly one entry's parameter, else the closest entry name (or empty).
  std::string suggest(const std::string& name) const {
    for (const auto& [word, spec] : hints_)
      if (word == name) return spec;
    std::vector<std::string> as_choice;
    for (const auto& entry : entries_)
      for (const auto& param : entry.params)
        for (const auto& choice : param.choices)
          if (choice == name) as_choice.push_back(entry.name + ":" + param.key + "=" + name);
    if (as_choice.size() == 1) return as_choice.front();
    return closest_match(name, names());
  }

 private:
  std::string family_;
  std::vector<RegistryEntry<Factory>> entries_;
  std::vector<std::pair<std::string, std::string>> hints_;
};

/// Formats one table (shared by every Registry instantiation).
std::string describe_registry(const std::string& family, const std::vector<std::string>& names,
                              const std::vector<std::string>& summaries,
                              const std::vector<std::vector<ParamSpec>>& params);

template <class Factory>
std::string Registry<Factory>::describe() const {
  std::vector<std::string> names, summaries;
  std::vector<std::vector<ParamSpec>> params;
  for (const auto& entry : entries_) {
    names.push_back(entry.name);
    summaries.push_back(entry.summary);
    params.push_back(entry.params);
  }
  return describe_registry(family_, names, summaries, params);
}

}  // namespace allocsim
