"""slurm_compare.py's checks (its docstring, steps 4-6): each of Slurm's scheduling passes
replayed with allocsim's scheduler on the state Slurm had then, the start order and times
compared, the nodes slurm-tree chooses on Slurm's free sets, and the whole simulations reported
only."""
import bisect
import csv
import math
import os
import subprocess
import sys

from slurm_record import expand_nodes, swf_line

# bf_interval and sched_interval of the test cluster's configuration (slurm_compare.py's
# SCHED_PARAMS), seconds.
INTERVAL = 1


def next_pass(passes, t):
    """The first scheduling pass at or after t (t itself after the last pass)."""
    i = bisect.bisect_left(passes, (t, ""))
    return passes[i][0] if i < len(passes) else t


def aligned_rows(times, passes, slurm, rows):
    """The stream with each submit and each end moved to the first Slurm pass after it, in ms.

    allocsim decides at every submit and end; Slurm only at its passes (a backfill pass every
    bf_interval, a main pass every sched_interval: slurmctld 22.05 does not run its main
    scheduler at each submit or end here, the log shows). A job that ends at 15.418 frees its
    nodes for the pass at 16.273. With these instants allocsim sees what each pass of Slurm saw,
    and the comparison is of the policy (who starts, in which pass) and not of the latency,
    which event-driven allocsim does not have and which adds up along a queue."""
    out, schedule = [], {}
    for j, _, _, _, size, requested in rows:
        t = times[j]
        submit = round(next_pass(passes, t["submit"]), 3)
        start = round(t["start"], 3)
        end = round(next_pass(passes, t["end"]), 3)
        out.append((j, submit, round(start - submit, 3), round(end - start, 3), size, requested))
        schedule[j] = (start, end, size, submit)
    return out, schedule


def replay_on_nodes(tool, machine, alloc, times, passes, rows, spec, work, t0, node_lists):
    """replay() with the running jobs on the nodes Slurm gave them: every pass's state goes to
    pass_on_state (one process for all passes), which runs one pass of SPEC on it. Slurm's
    backfill reserves specific nodes, so which nodes the running jobs hold decides what it can
    backfill; a trace cannot say that. Times are slurmctld's: epoch seconds (t0 + the relative
    instants), whole seconds for "now" and for each running job's start (planned to end at
    start + time limit), so the select plugin's 30 s groups of planned ends fall as in Slurm.
    Returns what replay() returns."""
    info = {j: (size, requested) for j, _, _, _, size, requested in rows}
    instants = [p for p, _ in passes]
    slurm_pass = {j: instants[max(0, bisect.bisect_right(instants, t["start"]) - 1)]
                  for j, t in times.items()}
    blocks, kept = [], []
    for instant, kind in passes:
        waiting = sorted(j for j, t in times.items() if t["submit"] < instant and
                         slurm_pass[j] >= instant)
        if not waiting:
            continue
        running = sorted((j for j, t in times.items()
                          if slurm_pass[j] < instant and t["end"] > instant),
                         key=lambda j: times[j]["start"])
        # allocsim's `slurm` runs its main pass at every event and its backfill pass at the
        # multiples of bf_interval: a Slurm main pass is replayed half a second after its whole
        # second, where only the main pass runs (Slurm's main pass does not backfill).
        half = 0.5 if kind == "main" and spec.startswith("slurm") else 0
        lines = [f"now {t0 + math.floor(instant) + half}"]
        for j in running:
            nodes = " ".join(f"n{n}" for n in sorted(node_lists[j]))
            lines.append(f"run {j} {t0 + math.floor(times[j]['start'])} {info[j][1]} {nodes}")
        for j in waiting:
            lines.append(f"wait {j} {t0 + times[j]['submit']:.3f} {info[j][0]} {info[j][1]}")
        lines.append("pass")
        blocks.append("\n".join(lines))
        kept.append((instant, kind, waiting))
    with open(os.path.join(work, "pass-states.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(blocks) + "\n")
    answer = subprocess.run([tool, machine, alloc, spec], input="\n".join(blocks) + "\n",
                            capture_output=True, text=True, check=True).stdout
    answers, current = [], []
    for line in answer.splitlines():
        if line == ".":
            answers.append(current)
            current = []
        else:
            current.append(int(line.split()[0]))
    first, first_time, per_pass = {}, {}, []
    for (instant, kind, waiting), started in zip(kept, answers):
        started = sorted(started)
        for j in started:
            first.setdefault(j, instant)
            first_time.setdefault(j, instant)
        slurm_started = sorted(j for j in waiting if slurm_pass[j] == instant)
        per_pass.append((instant, kind, slurm_started, started))
    return first, first_time, slurm_pass, per_pass


def replay(allocsim, times, passes, rows, nodes, spec, work, t0_frac=0.0):
    """At every Slurm pass with a job waiting, what allocsim's scheduler would start, given what
    Slurm was running then. Returns ({job: first pass at which allocsim would start it},
    {job: the instant it would start then (the pass, or its own next pass for a scheduler
    that works in passes)},
    {job: the pass at which Slurm started it}, [(pass, kind, Slurm's starts, allocsim's)]).

    Each pass is one small allocsim run: the jobs running in Slurm at that instant are submitted
    at their Slurm start times (shifted so that the earliest is at 1 s; each starts at once, as
    they fitted side by side in Slurm) with runtime = requested time = their time limit, so that
    their reservations end where Slurm's backfill plans them; the waiting jobs are submitted at
    the pass. The jobs allocsim starts at the pass are its decision. Unlike a whole simulation
    this does not let one early or late start shift every later one."""
    info = {j: (size, requested) for j, _, _, _, size, requested in rows}
    instants = [p for p, _ in passes]
    slurm_pass = {j: instants[max(0, bisect.bisect_right(instants, t["start"]) - 1)]
                  for j, t in times.items()}
    first, first_time, per_pass = {}, {}, []
    path = os.path.join(work, "replay.swf")
    for instant, kind in passes:
        waiting = sorted(j for j, t in times.items() if t["submit"] < instant and
                         slurm_pass[j] >= instant)
        if not waiting:
            continue
        running = [j for j, t in times.items() if slurm_pass[j] < instant and t["end"] > instant]
        # slurmctld's clock for scheduling is time(): whole seconds, both for "now" and for
        # the start (so the planned end, start + time limit) of each running job. With time
        # limits in whole minutes, a backfill job often ends exactly where a reservation begins.
        now = math.floor(instant + t0_frac)
        offset = 1 + max([now - math.floor(times[j]["start"] + t0_frac) for j in running],
                         default=0)
        # Half a second before: a job Slurm started in this second (at an earlier pass) is
        # running before the waiting jobs arrive; its requested time is as much longer, so it
        # still ends at start + time limit.
        lines = sorted((offset - (now - math.floor(times[j]["start"] + t0_frac)) - 0.5, j)
                       for j in running)
        with open(path, "w", encoding="utf-8") as out:
            for submit, j in lines:
                out.write(swf_line(j, submit, -1, info[j][1] + 0.5, info[j][0], info[j][1] + 0.5)
                          + "\n")
            for j in waiting:
                out.write(swf_line(j, offset, -1, info[j][1], info[j][0], info[j][1])
                          + "\n")
        sim, _ = run_allocsim(allocsim, path, nodes, spec, work, "replay")
        if os.environ.get("SLURM_COMPARE_KEEP"):  # every pass's trace, for a closer look
            os.replace(path, os.path.join(work, f"replay-{instant:.3f}.swf"))
        late = [j for submit, j in lines if abs(sim[j][0] - submit) > 1e-6]
        if late:
            sys.exit(f"replay of the pass at {instant:.3f}: running jobs {late} did not start at "
                     "their Slurm start (more nodes in use than the machine has?)")
        # An event-driven scheduler starts them at once; one that works in passes (allocsim's
        # `slurm`, bf_interval) at its next pass: either is a decision on this state, as no
        # running job ends within an interval (their planned ends are a minute or more away).
        started = sorted(j for j in waiting if sim[j][0] <= offset + INTERVAL + 1e-6)
        for j in started:
            first.setdefault(j, instant)
            first_time.setdefault(j, round(instant + sim[j][0] - offset, 6))
        slurm_started = sorted(j for j in waiting if slurm_pass[j] == instant)
        per_pass.append((instant, kind, slurm_started, started))
    return first, first_time, slurm_pass, per_pass


def lcs_members(a, b):
    """Jobs on a longest common subsequence of the orders a and b."""
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            table[i][j] = (table[i + 1][j + 1] + 1 if a[i] == b[j]
                           else max(table[i + 1][j], table[i][j + 1]))
    members, i, j = set(), 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            members.add(a[i])
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return members


def run_allocsim(allocsim, swf, nodes, spec, work, tag):
    jobs_out = os.path.join(work, f"allocsim-{tag}.csv")
    command = [allocsim, "run", "--machine", f"flat:{nodes}", "--alloc", "flat", "--trace", swf,
               "--sched", spec, "--strict", "--jobs-out", jobs_out]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    with open(jobs_out, encoding="utf-8") as f:
        return {int(r["job_id"]): (float(r["start"]), float(r["end"]), int(r["procs"])) for r in
                csv.DictReader(f)}, " ".join(command)


def compare(slurm, sim):
    """(order agreement, jobs out of order, start differences) of two whole schedules."""
    ids = sorted(slurm)
    slurm_order = sorted(ids, key=lambda j: (slurm[j][0], j))
    sim_order = sorted(ids, key=lambda j: (sim[j][0], j))
    same = lcs_members(slurm_order, sim_order)
    deltas = {j: slurm[j][0] - sim[j][0] for j in ids}
    return len(same) / len(ids), [j for j in ids if j not in same], deltas


def slurm_plan(plans, instant, job, until=math.inf):
    """What Slurm's backfill logged for job (DebugFlags=BackfillMap) at the first backfill pass
    from instant on (before until)."""
    found = [key for key in plans if key[1] == job and instant <= key[0] < until]
    if not found:
        return ""
    at = min(found)[0]
    tested, start, nodes = plans[min(found)]
    text = f"at {at:.3f} Slurm's backfill tested it on {tested}" if tested else ""
    if start is not None:
        text += f" and planned it at {start:g} on {nodes}"
        if start - math.floor(at) <= INTERVAL:
            text += (" (a second later: nodes it needs are still completing, their epilog not "
                     "reported)")
        else:
            text += " (the nodes free then are held by node-specific reservations of earlier jobs)"
    return text


def report_replay(args, work, spec, times, passes, rows, plans, checked):
    """Prints the pass-by-pass comparison with allocsim's SPEC; True when it passes."""
    size = {j: k for j, _, _, _, k, _ in rows}
    kind_at = dict(passes)
    if args.pass_tool:
        machine = (f"slurm-topology:{args.topology}" if args.topology else f"flat:{args.nodes}")
        alloc = "slurm-tree" if args.topology else "flat"
        first, first_time, slurm_pass, per_pass = replay_on_nodes(
            args.pass_tool, machine, alloc, times, passes, rows, spec, work, args.t0,
            args.node_lists)
    else:
        first, first_time, slurm_pass, per_pass = replay(args.allocsim, times, passes, rows,
                                                         args.nodes, spec, work)
    ids = sorted(times)
    deltas = {j: slurm_pass[j] - first_time[j] for j in ids if j in first}
    never = [j for j in ids if j not in first]
    slurm_order = sorted(ids, key=lambda j: (slurm_pass[j], j))
    sim_order = sorted(ids, key=lambda j: (first_time.get(j, slurm_pass[j]), j))
    same = lcs_members(slurm_order, sim_order)
    agreement = len(same) / len(ids)
    exact = sum(abs(d) < 1e-6 for d in deltas.values())
    within = [j for j, d in deltas.items() if d <= args.tolerance]
    slurm_spec = spec.startswith("slurm")
    order_min = args.order_min if args.order_min is not None else (0.95 if slurm_spec else 0.75)
    within_min = args.within_min if args.within_min is not None else (0.95 if slurm_spec else 0.65)
    ok = agreement >= order_min and len(within) >= within_min * len(ids)
    verdict = (" PASS" if ok else " FAIL") if checked else " (reported only)"
    decisions = sum(a == b for _, _, a, b in per_pass)
    print(f"\n== replay of Slurm's {len(per_pass)} passes with a job waiting, allocsim --sched "
          f"{spec}{verdict}")
    print(f"   start order: {agreement:.1%} of {len(ids)} jobs in the same order (need "
          f"{order_min:.0%}); out of order: {sorted(set(ids) - same)}")
    print(f"   start pass: {exact} jobs started by Slurm at the first pass at which allocsim would "
          f"start them, {len(within)} within {args.tolerance:g} s (one interval; need "
          f"{within_min:.0%}), "
          f"{len(deltas) - len(within)} later, {len(never)} that allocsim would not have started "
          f"by Slurm's pass; the same set started at {decisions} of {len(per_pass)} passes")
    listed = [j for j in ids if j not in same or j in never or deltas[j] > 1e-6]
    print("   each job started at another pass or out of order:" if listed else
          "   no job started at another pass or out of order")
    for j in listed:
        t = times[j]
        head = (f"  job {j:3d} ({size[j]} nodes, submitted {t['submit']:.3f}): Slurm's "
                f"{kind_at[slurm_pass[j]]} pass at {slurm_pass[j]:.3f}")
        if j in never:
            plan = slurm_plan(plans, slurm_pass[j], j, slurm_pass[j] + 0.5)
            print(f"{head}; allocsim would not have started it by then: its reservations for "
                  f"earlier jobs are counts of nodes, Slurm's are nodes it chose, and here they "
                  f"left this job room" + (f" ({plan})" if plan else "") + " [time]")
            continue
        d = deltas[j]
        why = ""
        completing = completing_at(times, first[j]) if d > 1e-6 else []
        if d <= 1e-6:
            why = ("the same pass; out of order with a job started at another pass"
                   if j not in same else "the same pass")
        elif completing and kind_at[first[j]] == "main":
            why = (f"allocsim would start it at the main pass at {first[j]:.3f}, but there "
                   f"{', '.join(completing)} (a node is offered again once its epilog is "
                   "reported); the pass after it started the job")
        elif (kind_at[first[j]] == "main" and kind_at[slurm_pass[j]] == "backfill" and
              d <= args.tolerance and not slurm_spec):
            why = ("allocsim would start it at the main pass before, but Slurm's main pass "
                   "starts only the queue's head, in order up to the first job that does not "
                   "fit; the backfill pass after it started the job")
        else:
            plan = slurm_plan(plans, first[j], j, slurm_pass[j])
            why = (f"allocsim would start it at the {kind_at[first[j]]} pass at {first[j]:.3f}; "
                   "Slurm did not" + (f": {plan}" if plan else ""))
        tags = (["order"] if j not in same else []) + (["time"] if d > args.tolerance else [])
        print(f"{head}, allocsim {d:+.3f} s earlier [{','.join(tags) or 'within'}]: {why}")
    return ok


def completing_at(times, instant):
    """The jobs whose nodes were still completing at instant: ended before it, with an epilog
    on some node reported after it (or none reported within half a second of the end)."""
    out = []
    for k, t in sorted(times.items()):
        if not (t["end"] <= instant):
            continue
        epilogs = t.get("epilog", {})
        late = sorted(n for n, e in epilogs.items() if e > instant)
        if late or (not epilogs and instant - t["end"] < 0.5):
            out.append(f"job {k} had ended {1000 * (instant - t['end']):.0f} ms before and its "
                       f"nodes {' '.join(f'n{n}' for n in late) or ''} were still completing"
                       .replace("nodes  were", "nodes were"))
    return out


def compare_nodes(tool, machine, node_count, times, node_lists, work, passes, plans):
    """Asks allocsim's slurm-tree (through alloc_on_free_set) for each job's nodes on the nodes
    free in Slurm at its start; returns the number of jobs given the same nodes and the lines
    listing the others. Busy at a start: the nodes of every job started before it (earlier in
    the log) that has not ended, or whose epilog on that node is not yet reported complete
    (Slurm's backfill leaves such a node out: "_build_node_list: ... matched 0 nodes"); for a
    job Slurm's backfill started, also every node outside the set its test looked at (nodes
    reserved for earlier jobs while it would run: "Test JobId=17 at ... on n[0,6-7]")."""
    instants = [p for p, _ in passes]
    order = sorted(times, key=lambda j: times[j]["line"])
    queries, restricted = [], 0
    for j in order:
        t = times[j]
        busy = sorted({n for k in order if times[k]["line"] < t["line"] for n in node_lists[k]
                       if times[k]["end"] > t["start"] or
                       times[k].get("epilog", {}).get(n, 0) > t["start"]})
        at = instants[max(0, bisect.bisect_right(instants, t["start"]) - 1)]
        tested = plans.get((at, j), ("", None, ""))[0]
        if tested:
            allowed = set(expand_nodes(tested))
            held = {n for n in range(node_count) if n not in allowed and n not in busy}
            restricted += bool(held)
            busy = sorted(set(busy) | held)
        queries.append(f"{j} {len(node_lists[j])} " + " ".join(f"n{n}" for n in busy))
    with open(os.path.join(work, "node-queries.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(queries) + "\n")
    answer = subprocess.run([tool, machine, "slurm-tree"], input="\n".join(queries) + "\n",
                            capture_output=True, text=True, check=True).stdout
    chosen = {int(line.split()[0]): line.split()[1:] for line in answer.splitlines()}
    same, lines = 0, []
    for query, j in zip(queries, order):
        slurm_nodes = [f"n{n}" for n in sorted(node_lists[j])]
        if chosen[j] == slurm_nodes:
            same += 1
        else:
            busy = query.split()[2:]
            # A node slurm-tree took and Slurm did not, whose last job ended just before: its
            # end not yet reported by slurmd (no epilog message logged), so still completing.
            recent = []
            for name in set(chosen[j]) - set(slurm_nodes):
                ends = [times[k]["end"] for k in order if int(name[1:]) in node_lists[k] and
                        times[k]["end"] <= times[j]["start"]]
                if ends and times[j]["start"] - max(ends) < 0.5:
                    recent.append(f"{name}'s job ended "
                                  f"{1000 * (times[j]['start'] - max(ends)):.0f} ms before")
            lines.append(f"  job {j:3d} ({len(slurm_nodes)} nodes; busy {' '.join(busy) or '-'}): "
                         f"Slurm {' '.join(slurm_nodes)}, slurm-tree {' '.join(chosen[j])}" +
                         (f" ({'; '.join(sorted(recent))}: still completing in Slurm)"
                          if recent else ""))
    return same, restricted, lines
