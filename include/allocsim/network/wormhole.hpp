#pragma once
// Message-level wormhole network simulator, after the GABL paper's simulation model (§5,
// ProcSimity lineage): dimension-ordered (XY on a 2D mesh) routing, messages of `plen` flits,
// one time unit per flit per hop, `ts` time units to route the header through a node, and a
// blocked header waiting in place while its worm keeps every channel it holds. Messages of
// different jobs contend for the same channels.
//
// Exact rules (every duration is a whole number of time units; release times may be fractional):
// - Channels: every directed link, plus one injection port per node (a node injects one worm at
//   a time). Each channel buffers one flit; the destination consumes flits as they arrive.
// - A message released at time r waits for its source's injection port (FIFO), then its header
//   is routed (ts), requests the next link, and, once it holds it, the whole worm shifts one
//   channel forward in one time unit. It repeats this at every node up to the destination;
//   there the body drains, one shift per time unit, until the tail arrives.
// - A worm of plen flits whose header has made s shifts has its tail s − plen + 1 channels
//   along: the channel the tail leaves is freed at the end of that shift, the last link when
//   the tail reaches the destination. A freed channel goes to its first waiter (FIFO by
//   request time, then message id) at that same time.
// - Closed form: one message over h hops in an empty network is delivered (tail at the
//   destination) h·(ts + 1) + plen − 1 units after its release.
// - Deadlock freedom: dimension-ordered routing on a mesh has no cyclic channel dependency.
//   On a wrapped dimension (torus) every link has two virtual channels (Dally and Seitz's
//   dateline rule): a message uses class 0 on that dimension until it takes the wrap link
//   (coordinate n−1 → 0 or 0 → n−1) and class 1 from the wrap link on. Class-0 channels never
//   include the wrap link and class-1 channels are only used after it, with at most ⌊n/2⌋ hops
//   per ring, so neither class closes a cycle. Each virtual channel buffers one flit and moves
//   one flit per time unit on its own (the two classes of a link do not share its bandwidth:
//   a simplification). Explicit paths (add_message_on_path) may deadlock; the watchdog then
//   fails the stuck messages (counted), and the run goes on — never a hang.
#include <cstdint>
#include <queue>
#include <span>
#include <unordered_map>
#include <vector>

#include "allocsim/topo/topology.hpp"
#include "allocsim/util/time_limit.hpp"

namespace allocsim {

/// Parameters of the wormhole network (GABL paper §5: plen 8, ts 3).
struct WormholeParams {
  int plen = 8;  ///< flits per message (packet length)
  int ts = 3;    ///< time units to route a header through a node
  /// Watchdog: when messages are in the network and no worm has moved for this many time
  /// units, they are stuck (a deadlock) and fail. Must exceed ts + 1.
  double stall_limit = 1000;
  /// Keep every message's result (results()). False recycles a delivered message's slot for
  /// the next one, so memory and copies stay proportional to the messages in flight (the
  /// runtime model's mode); results() then holds only slots, not history.
  bool keep_results = true;
};

/// The simulator. Add messages, then run() or run_until(); cost O(S log E) for S worm shifts
/// (Σ over messages of hops + plen − 1) and E pending events.
class WormholeNetwork {
 public:
  /// Outcome of one message.
  struct MessageResult {
    double release = 0;
    double delivered = -1;  ///< time the tail reached the destination; −1 if failed
    double blocked = 0;     ///< time its header waited for busy channels (incl. injection)
    int hops = 0;
    int tag = 0;  ///< caller's label, e.g. the job
  };
  /// Totals over the messages finished so far.
  struct Stats {
    std::int64_t delivered = 0;
    std::int64_t failed = 0;  ///< messages failed by the watchdog
    std::int64_t stalls = 0;  ///< watchdog firings
    double mean_latency = 0;  ///< delivered − release, over delivered messages
    double mean_blocked = 0;  ///< blocked time, over delivered messages
  };

  /// Throws InputError unless `topology` has coordinates (mesh, torus, semitorus:
  /// Topology::require_grid naming "runtime model 'wormhole'"), or if
  /// plen < 1, ts < 0, or stall_limit ≤ ts + 1 (or not finite).
  WormholeNetwork(const Topology& topology, WormholeParams params);

  /// The run's wall-clock limit, polled while events are processed and messages routed
  /// (TimeLimitPoll): run_until() and add_message() throw TimeoutError once it is spent.
  /// Null (the default): no limit. Copies of the network keep it.
  void set_time_limit(const TimeLimit* limit) { poll_ = TimeLimitPoll(limit); }

  /// A message of plen flits from `from` to `to` (≠ from), released at `release` (≥ the
  /// current time); routed with Topology::route. Returns its index in results().
  int add_message(NodeId from, NodeId to, double release, int tag = 0);
  /// The same along explicit consecutive links (for tests of blocking and of the watchdog).
  int add_message_on_path(NodeId from, std::vector<LinkId> links, double release, int tag = 0);

  /// A job's all-to-all traffic (GABL paper §5): node i of `nodes` sends messages_per_node[i]
  /// messages, the j-th to nodes[(i + 1 + j mod (k − 1)) mod k] (every other node in turn), all
  /// released at `release` and tagged `tag`; its injection port sends them one after another.
  /// Returns how many messages were added.
  int add_all_to_all(std::span<const NodeId> nodes, std::span<const int> messages_per_node,
                     double release, int tag);
  /// Messages tagged `tag` neither delivered nor failed.
  int outstanding(int tag) const;
  /// Latest delivery (or failure) time of a message tagged `tag` (−1 if none yet).
  double last_finish(int tag) const;

  /// Forgets a tag whose messages are all finished (its last_finish is −1 afterwards).
  void forget_tag(int tag);
  /// Tags whose last outstanding message finished since the previous call, in finishing order.
  std::vector<int> take_finished_tags();

  /// Time of the next thing that can happen: the next event or, with messages in flight, the
  /// watchdog's deadline; +inf when idle.
  double next_event_time() const;
  /// Processes every event up to and including `time`.
  void run_until(double time);
  /// Runs until every message added is delivered or failed.
  void run();
  double now() const { return now_; }
  /// Messages released and neither delivered nor failed.
  std::int64_t in_flight() const { return in_flight_; }

  const std::vector<MessageResult>& results() const { return results_; }
  const Stats& stats() const { return stats_; }

 private:
  enum class EventKind : std::uint8_t { release, request, shift_done };
  struct Event {
    double time;
    std::uint64_t sequence;
    int message;
    EventKind kind;
    bool operator>(const Event& other) const {
      return time != other.time ? time > other.time : sequence > other.sequence;
    }
  };
  struct Worm {
    std::vector<int> channels;  ///< injection port, then the links in path order
    int shifts = 0;
    double requested = 0;  ///< when its header asked for the channel it waits on
    int next_waiter = -1;  ///< next message waiting on the same channel
    bool released = false;
    bool done = false;
  };

  void schedule(double time, int message, EventKind kind);
  void request(int message, int channel, double time);
  void acquire(int message, int channel, double time);
  void free_channel(int channel, double time);
  void shift_done(int message, double time);
  void finish(int message, double time, bool delivered);
  void fail_stuck_messages();

  const Topology* topology_;
  WormholeParams params_;
  std::vector<int> owner_;                        ///< per channel: holding message or −1
  std::vector<int> waiting_head_, waiting_tail_;  ///< per channel: FIFO of waiting messages
  std::vector<Worm> worms_;
  std::vector<MessageResult> results_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::uint64_t sequence_ = 0;
  double now_ = 0, last_move_ = 0;
  std::int64_t in_flight_ = 0;
  double latency_sum_ = 0, blocked_sum_ = 0;
  Stats stats_;
  struct TagState {
    int outstanding = 0;
    double last_finish = -1;
  };
  std::unordered_map<int, TagState> tags_;
  std::vector<int> finished_tags_;
  std::vector<int> free_slots_;  ///< recycled message slots (keep_results = false)
  TimeLimitPoll poll_{nullptr};  ///< the run's wall-clock limit, polled per event and per hop
};

}  // namespace allocsim
