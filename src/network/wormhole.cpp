// Message-level wormhole network simulator (see wormhole.hpp).
#include "allocsim/network/wormhole.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "allocsim/util/error.hpp"

namespace allocsim {

WormholeNetwork::WormholeNetwork(const Topology& topology, WormholeParams params)
    : topology_(&topology), params_(params) {
  // Channels, datelines and dimension-ordered worms are grid notions (no graph, no crossbar).
  topology.require_grid("runtime model 'wormhole'");
  if (params.plen < 1) throw InputError("The wormhole plen must be at least 1 flit.");
  if (params.ts < 0) throw InputError("The wormhole routing time ts must not be negative.");
  // ts + 1 in double: ts = INT_MAX must not wrap around to a negative bound.
  const double routed = static_cast<double>(params.ts) + 1;
  if (!(params.stall_limit > routed) || !std::isfinite(params.stall_limit))
    throw InputError("The wormhole stall limit must be finite and exceed ts + 1 = " +
                     std::to_string(static_cast<long long>(routed)) + ".");
  // Channels: class-0 links, class-1 links (dateline virtual channels), injection ports.
  const int channels = 2 * topology.link_slot_count() + topology.node_count();
  owner_.assign(channels, -1);
  waiting_head_.assign(channels, -1);
  waiting_tail_.assign(channels, -1);
}

int WormholeNetwork::add_message(NodeId from, NodeId to, double release, int tag) {
  if (from == to) throw InputError("A wormhole message needs distinct endpoints.");
  std::vector<LinkId> links;
  topology_->route(from, to, [&](LinkId link) { links.push_back(link); });
  poll_.add(static_cast<std::int64_t>(links.size()) + 1);
  return add_message_on_path(from, std::move(links), release, tag);
}

int WormholeNetwork::add_message_on_path(NodeId from, std::vector<LinkId> links, double release,
                                         int tag) {
  if (links.empty()) throw InputError("A wormhole message needs at least one link.");
  if (release < now_) throw InputError("A wormhole message cannot be released in the past.");
  int message;
  if (!free_slots_.empty()) {
    message = free_slots_.back();
    free_slots_.pop_back();
  } else {
    message = static_cast<int>(worms_.size());
    worms_.emplace_back();
    results_.emplace_back();
  }
  Worm& worm = worms_[message];
  worm = Worm{std::move(worm.channels)};  // keeps the channel list's capacity
  worm.channels.clear();
  const int slots = topology_->link_slot_count();
  worm.channels.push_back(2 * slots + from);  // injection port
  // Dateline rule on wrapped dimensions: class 1 from the wrap link on (see the header).
  int wrapped_dim = -1;
  for (LinkId link : links) {
    const Topology::Link l = topology_->link(link);
    if (l.dim != wrapped_dim && topology_->wraps(l.dim)) {
      const int c = topology_->coord(l.from, l.dim), n = topology_->sides()[l.dim];
      if ((l.direction > 0 && c == n - 1) || (l.direction < 0 && c == 0)) wrapped_dim = l.dim;
    }
    worm.channels.push_back(link + (l.dim == wrapped_dim ? slots : 0));
  }
  MessageResult& result = results_[message];
  result = MessageResult{};
  result.release = release;
  result.hops = static_cast<int>(links.size());
  result.tag = tag;
  schedule(release, message, EventKind::release);
  ++tags_[tag].outstanding;
  return message;
}

int WormholeNetwork::add_all_to_all(std::span<const NodeId> nodes,
                                    std::span<const int> messages_per_node, double release,
                                    int tag) {
  const auto k = static_cast<int>(nodes.size());
  if (k < 2) return 0;
  int added = 0;
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < messages_per_node[i]; ++j, ++added)
      add_message(nodes[i], nodes[(i + 1 + j % (k - 1)) % k], release, tag);
  return added;
}

int WormholeNetwork::outstanding(int tag) const {
  const auto found = tags_.find(tag);
  return found == tags_.end() ? 0 : found->second.outstanding;
}

double WormholeNetwork::last_finish(int tag) const {
  const auto found = tags_.find(tag);
  return found == tags_.end() ? -1 : found->second.last_finish;
}

void WormholeNetwork::forget_tag(int tag) {
  tags_.erase(tag);
}

std::vector<int> WormholeNetwork::take_finished_tags() {
  std::vector<int> finished;
  finished.swap(finished_tags_);
  return finished;
}

double WormholeNetwork::next_event_time() const {
  double next = events_.empty() ? INFINITY : events_.top().time;
  if (in_flight_ > 0) next = std::min(next, last_move_ + params_.stall_limit);
  return next;
}

void WormholeNetwork::schedule(double time, int message, EventKind kind) {
  events_.push({time, sequence_++, message, kind});
}

void WormholeNetwork::request(int message, int channel, double time) {
  Worm& worm = worms_[message];
  worm.requested = time;
  if (owner_[channel] < 0) {
    acquire(message, channel, time);
    return;
  }
  worm.next_waiter = -1;
  if (waiting_tail_[channel] < 0)
    waiting_head_[channel] = message;
  else
    worms_[waiting_tail_[channel]].next_waiter = message;
  waiting_tail_[channel] = message;
}

void WormholeNetwork::acquire(int message, int channel, double time) {
  Worm& worm = worms_[message];
  owner_[channel] = message;
  results_[message].blocked += time - worm.requested;
  if (channel == worm.channels[0])
    schedule(time + params_.ts, message, EventKind::request);  // routed at the source
  else
    schedule(time + 1, message, EventKind::shift_done);  // the worm moves one channel on
}

void WormholeNetwork::free_channel(int channel, double time) {
  owner_[channel] = -1;
  const int next = waiting_head_[channel];
  if (next < 0) return;
  waiting_head_[channel] = worms_[next].next_waiter;
  if (waiting_head_[channel] < 0) waiting_tail_[channel] = -1;
  acquire(next, channel, time);
}

void WormholeNetwork::shift_done(int message, double time) {
  last_move_ = time;
  Worm& worm = worms_[message];
  const int shifts = ++worm.shifts, hops = results_[message].hops, plen = params_.plen;
  // The tail leaves channel shifts − plen (the injection port is channel 0).
  const int left = shifts - plen;
  // (channels[0] is the injection port; channels[i] the i-th link.)
  if (left >= 0 && left < hops) free_channel(worm.channels[left], time);
  if (shifts == hops + plen - 1) {  // the tail reached the destination
    free_channel(worm.channels[hops], time);
    finish(message, time, true);
  } else if (shifts < hops) {
    schedule(time + params_.ts, message, EventKind::request);
  } else {
    schedule(time + 1, message, EventKind::shift_done);  // draining into the destination
  }
}

void WormholeNetwork::finish(int message, double time, bool delivered) {
  worms_[message].done = true;
  --in_flight_;
  MessageResult& result = results_[message];
  TagState& tag = tags_[result.tag];
  --tag.outstanding;
  tag.last_finish = std::max(tag.last_finish, time);
  if (tag.outstanding == 0) finished_tags_.push_back(result.tag);
  if (delivered) {
    result.delivered = time;
    ++stats_.delivered;
    latency_sum_ += time - result.release;
    blocked_sum_ += result.blocked;
    stats_.mean_latency = latency_sum_ / static_cast<double>(stats_.delivered);
    stats_.mean_blocked = blocked_sum_ / static_cast<double>(stats_.delivered);
    // A delivered worm has no event left: its slot can take the next message.
    if (!params_.keep_results) free_slots_.push_back(message);
  } else {
    ++stats_.failed;
  }
}

void WormholeNetwork::fail_stuck_messages() {
  // Every message in the network is stuck (no worm can move): fail them all and free their
  // channels. Rare, so a scan over messages and channels is fine.
  ++stats_.stalls;
  for (std::size_t m = 0; m < worms_.size(); ++m) {
    Worm& worm = worms_[m];
    if (worm.done || !worm.released) continue;
    finish(static_cast<int>(m), now_, false);
  }
  for (std::size_t c = 0; c < owner_.size(); ++c) {
    if (owner_[c] >= 0 && worms_[owner_[c]].done) owner_[c] = -1;
    waiting_head_[c] = waiting_tail_[c] = -1;
  }
}

void WormholeNetwork::run_until(double time) {
  while (!events_.empty() && events_.top().time <= time) {
    poll_.add();  // may throw TimeoutError: the network stays as of the last event
    const Event event = events_.top();
    if (in_flight_ > 0 && event.time - last_move_ > params_.stall_limit) {
      now_ = std::max(now_, last_move_ + params_.stall_limit);
      fail_stuck_messages();
    }
    events_.pop();
    now_ = event.time;
    if (worms_[event.message].done) continue;
    switch (event.kind) {
      case EventKind::release:
        worms_[event.message].released = true;
        if (in_flight_++ == 0) last_move_ = event.time;
        request(event.message, worms_[event.message].channels[0], event.time);
        break;
      case EventKind::request:
        request(event.message, worms_[event.message].channels[worms_[event.message].shifts + 1],
                event.time);
        break;
      case EventKind::shift_done:
        shift_done(event.message, event.time);
        break;
    }
  }
  if (in_flight_ > 0 && time - last_move_ >= params_.stall_limit &&
      (events_.empty() || events_.top().time - last_move_ > params_.stall_limit)) {
    now_ = std::max(now_, last_move_ + params_.stall_limit);
    fail_stuck_messages();
  }
  now_ = std::max(now_, time);
}

void WormholeNetwork::run() {
  while (!events_.empty()) run_until(events_.top().time);
  if (in_flight_ > 0) {
    now_ = std::max(now_, last_move_ + params_.stall_limit);
    fail_stuck_messages();
  }
}

}  // namespace allocsim
