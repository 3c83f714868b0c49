#!/usr/bin/env python3
# When DRAM's slow reads come: reads dramClock's traces (results/2026-12-06s and later:
# dramClock.jsonl, one record a run, and traces.txz beside it, one trace a run of each read's issue
# time and latency).
#
# For every run it prints the latency's percentiles. Runs that read the same lines in the same order
# (the same footprint, order and start; rounds of one configuration) are read together: a read's
# wait is its latency less the fastest round's at the same position (the same line), so a line's
# own place (near or far partition, its bank's row) drops out and what is left is what the round met.
# Of the reads that waited more than WAIT_CYCLES it prints:
#   - their share, and how the waits spread: the level of their 16-cycle bins (the median bin) and
#     where the waits end (the last bin holding a quarter of that level), in cycles and nanoseconds
#     (the run's own clock: its cycles over its globaltimer nanoseconds);
#   - how often the read right after a waiting read waits too;
#   - how the waiting reads fall into windows of WINDOW_NS: the dispersion of their counts (variance
#     over mean; near 1 when reads wait independently) and the share of windows without one,
#     beside what independent reads would give;
#   - the cycle their rate keeps: the shortest lag of CYCLE_LAGS_US whose autocorrelation of the
#     waiting reads by CYCLE_BIN_US comes within CYCLE_KEEP of the highest (the cycle, not a multiple
#     of it), refined to the period whose phases gather the waiting reads most (Rayleigh's Z, summed
#     over the rounds: about one a round by chance), the share waiting in each tenth of it, and at
#     which read of each round its fullest tenth first begins (the same read in every round if the
#     cycle followed the lines read rather than time).
# The fastest round's latencies by line are printed too, and the share of lines slow in every round
# (more than WAIT_CYCLES past the fastest rounds' 90th percentile): that is the line's own, or its
# place in the order, not what the round met.
# Two scattered orders of the same lines, each in several rounds, are compared: whether the lines
# slow in every round of the one are slow in the other (then it is the line's own), and whether the
# same positions are (then the time since launch); if neither, the order of the reads.
# Beside them, dramTail.py's reading of the rounds' latency histogram (its tail past the last
# peak), which counts a line's own slowness with the waits.
# Runs of several threads on several SMs at once (issue times from the globaltimer) are read apart:
# each thread's waits past its fastest round, and whether another SM's reads that reach DRAM inside
# a waiting read's window wait too (describe_together).
# Usage: python3 gpu/probes/dramClock.py <dramClock.jsonl>
import bisect, collections, json, math, os, signal, statistics, sys, tarfile
from array import array
from operator import mul

sys.dont_write_bytecode = True  # importing dramTail leaves no __pycache__ in the folder
from dramTail import tail_of

# Below 64 cycles the rounds' own spread at one line falls from 82 % of reads a 16-cycle bin to
# 0.5 %; past it the waits lie flat (the first batch).
WAIT_CYCLES = 64
BIN_CYCLES = 16
WINDOW_NS = 20_000
PAGE_LINES = 16_384  # the 128-byte lines of a 2 MiB page, as dramClock.cu scatters them
CYCLE_BIN_US = 1  # the 100-µs cycle's autocorrelation is a spike one microsecond wide; 2-µs bins miss it
CYCLE_LAGS_US = range(50, 151)  # from past the waits' own bunching (≈ 20 µs) to half again the cycle
CYCLE_KEEP = 0.6
# Several threads: a read that shares another's window waits only if more than WAIT_CYCLES of it are
# left, and the globaltimer's 32-ns steps blur where it falls; reads with this much left, and less
# than the window's flat part (its waits pile up from 416 cycles and end at 464; the few waits past
# the end are other events, which reads on several SMs meet at once), count for the share of DRAM a
# window holds (the thirty-fourth batch, two and eight threads: 10.9 % wait at 64–128 cycles left,
# 14–20 % from 256 to 416, 29–90 % past 416).
SHARE_LEFT_CYCLES = 256
SHARE_LEFT_END = 416
LEFT_BINS = 6
RATE_STRIDE = 8  # every eighth read that does not wait, for the control: about as many as wait
WINDOW_READS = 8


def percentile(ordered, fraction):
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def trace_of(archive, name, reads, where, threads=1):
    """(issue cycles, latencies) of one run's trace in the archive; with several threads, a list of
    them, one a thread."""
    try:
        member = archive.extractfile(f"traces/{name}")
    except KeyError:
        member = None
    if member is None:
        sys.exit(f"{where}: {os.path.basename(archive.name)} has no traces/{name}")
    words = array("I")
    words.frombytes(member.read())
    if sys.byteorder != "little":
        words.byteswap()
    if len(words) != 2 * reads * threads:
        sys.exit(f"{where}: traces/{name} holds {len(words) // 2} reads, the record says {reads * threads}")
    if threads == 1:
        return words[0::2], words[1::2]
    return [(words[2 * reads * t : 2 * reads * (t + 1) : 2], words[2 * reads * t + 1 : 2 * reads * (t + 1) : 2]) for t in range(threads)]


def fastest_of(rounds):
    """The fastest round's latency at each position (each line) of the rounds' (issues, latencies, GHz)."""
    return [min(column) for column in zip(*(latencies for _, latencies, _ in rounds))]


def waits_of(rounds, fastest=None):
    """Per round, each read's latency less the fastest round's at the same position."""
    fastest = fastest or fastest_of(rounds)
    return [[latency - least for latency, least in zip(latencies, fastest)] for _, latencies, _ in rounds]


def rayleigh(waiting_times, period):
    """Rayleigh's Z of each round's waiting reads' issue times at `period` ns, summed over the rounds."""
    total = 0.0
    for times in waiting_times:
        phases = [2 * math.pi * time / period for time in times]
        if phases:
            total += (sum(map(math.cos, phases)) ** 2 + sum(map(math.sin, phases)) ** 2) / len(phases)
    return total


def cycle_of(rounds):
    """(period ns, Z, the share waiting by tenth of it from the fullest, the read of each round at
    which its fullest tenth first begins) of the rounds' (times, flags)."""
    excess = [0.0] * len(CYCLE_LAGS_US)
    for times, waited in rounds:
        counts = [0] * (int(times[-1] // (1000 * CYCLE_BIN_US)) + 1)
        for time, flag in zip(times, waited):
            counts[int(time // (1000 * CYCLE_BIN_US))] += flag
        mean = sum(counts) / len(counts)
        for k, lag in enumerate(lag // CYCLE_BIN_US for lag in CYCLE_LAGS_US):
            excess[k] += sum(map(mul, counts, counts[lag:])) / ((len(counts) - lag) * mean * mean) - 1
    highest = max(excess)
    period = 1000.0 * next(lag for lag, e in zip(CYCLE_LAGS_US, excess) if e >= CYCLE_KEEP * highest)
    waiting_times = [[time for time, flag in zip(times, waited) if flag] for times, waited in rounds]
    for step, reach in ((100, 1500), (5, 100)):
        candidates = (period + step * i for i in range(-reach // step, reach // step + 1))
        period = max(candidates, key=lambda p: rayleigh(waiting_times, p))
    tenths, starts = [0.0] * 10, []
    for times, waited in rounds:
        reads, waiting = [0] * 10, [0] * 10
        for time, flag in zip(times, waited):
            tenth = int(time % period / period * 10)
            reads[tenth] += 1
            waiting[tenth] += flag
        shares = [w / r if r else 0.0 for w, r in zip(waiting, reads)]
        fullest = shares.index(max(shares))
        starts.append(bisect.bisect_left(times, fullest * period / 10))
        tenths = [sum(pair) for pair in zip(tenths, shares[fullest:] + shares[:fullest])]
    return period, rayleigh(waiting_times, period), [share / len(rounds) for share in tenths], starts


def slow_in_every_round(fastest):
    """(the latency above which a line is slow, each position's flag): its fastest round more than
    WAIT_CYCLES past the fastest rounds' 90th percentile."""
    slow_line = percentile(sorted(fastest), 0.9) + WAIT_CYCLES
    return slow_line, [latency > slow_line for latency in fastest]


def describe_waits(rounds):
    """The lines that say how the rounds' waits spread, follow one another, bunch in time and cycle."""
    fastest = fastest_of(rounds)
    waits = waits_of(rounds, fastest)
    flags = [[wait > WAIT_CYCLES for wait in one] for one in waits]
    total = sum(len(one) for one in waits)
    bins = [0] * (max(max(one) for one in waits) // BIN_CYCLES + 1)
    after = waited_after = 0
    window_counts = []
    for (issues, _, ghz), one, waited in zip(rounds, waits, flags):
        for wait in one:
            bins[wait // BIN_CYCLES] += 1
        after += sum(waited[:-1])
        waited_after += sum(first and second for first, second in zip(waited, waited[1:]))
        windows = {}
        for issue, flag in zip(issues, waited):
            slot = int(issue / ghz // WINDOW_NS)
            counts = windows.setdefault(slot, [0, 0])
            counts[0] += 1
            counts[1] += flag
        window_counts += list(windows.values())
    share = sum(map(sum, flags)) / total
    flat = bins[WAIT_CYCLES // BIN_CYCLES :]
    level = statistics.median(flat[: max(1, len(flat) // 2)]) if flat else 0
    end = WAIT_CYCLES + BIN_CYCLES * (1 + max([i for i, count in enumerate(flat) if count >= level / 4] or [-1]))
    ghz = statistics.mean(round_ghz for _, _, round_ghz in rounds)
    delayed = [waiting for _, waiting in window_counts]
    mean = statistics.mean(delayed)
    dispersion = statistics.pvariance(delayed) / mean if mean else 0.0
    none = sum(count == 0 for count in delayed) / len(delayed)
    expected_none = statistics.mean((1 - share) ** reads for reads, _ in window_counts)
    slow_line, slow = slow_in_every_round(fastest)
    slow_lines = sum(slow) / len(slow)
    ordered = sorted(fastest)
    return [
        f"  the fastest round by line: p50 {percentile(ordered, 0.5)} p90 {percentile(ordered, 0.9)} "
        f"p99 {percentile(ordered, 0.99)} cycles; {100 * slow_lines:.1f} % of lines slow in every round "
        f"(over {slow_line} cycles)",
        f"  waits past the fastest round: {100 * share:.1f} % over {WAIT_CYCLES} cycles, "
        f"{100 * level / total:.2f} % a {BIN_CYCLES}-cycle bin, ending at {end} cycles ({end / ghz:.0f} ns)",
        f"  the read after a waiting one waits {100 * waited_after / after if after else 0:.1f} %",
        f"  in {WINDOW_NS // 1000} µs windows: dispersion {dispersion:.1f} (1 if independent), "
        f"none waiting in {100 * none:.0f} % ({100 * expected_none:.0f} % if independent)",
    ] + describe_cycle([([issue / ghz for issue in issues], waited) for (issues, _, ghz), waited in zip(rounds, flags)])


def describe_cycle(rounds):
    """The line that gives the waiting reads' cycle, if every round spans three of the longest lag."""
    if min(times[-1] for times, _ in rounds) < 3000 * CYCLE_LAGS_US[-1] or not any(any(w) for _, w in rounds):
        return [f"  no cycle sought: a round spans less than {3 * CYCLE_LAGS_US[-1]} µs or none waits"]
    period, z, tenths, starts = cycle_of(rounds)
    return [
        f"  a cycle of {period / 1000:.2f} µs (Z {z:.0f}, ≈ {len(rounds)} by chance); waiting by tenth of it, "
        f"from the fullest: {' '.join(f'{100 * share:.1f}' for share in tenths)} %; the fullest tenth first "
        f"begins at read {', '.join(map(str, starts))} of the rounds"
    ]


def main(arguments):
    if len(arguments) != 1:
        sys.exit("usage: python3 gpu/probes/dramClock.py <dramClock.jsonl>")
    path = arguments[0]
    archive_path = os.path.join(os.path.dirname(path), "traces.txz")
    try:
        lines = open(path).read().splitlines()
        archive = tarfile.open(archive_path, "r:xz")
    except (OSError, tarfile.TarError) as error:
        sys.exit(f"{getattr(error, 'filename', None) or archive_path}: {getattr(error, 'strerror', None) or error}")
    groups, together = {}, {}
    for number, line in enumerate(lines, 1):
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
            if record.get("probe") != "dramClock":
                raise ValueError("another probe's record")
            order = record["order"]
            scatter = record.get("scatter", 6781 if order == "scattered" else 0)  # the first batch's had none
            key = (record["footprintBytes"] >> 20, order, scatter, record["start"], record["reads"])
            name, reads, sm, threads = record["trace"], int(record["reads"]), record["sm"], int(record.get("threads", 1))
            if threads > 1:
                ghz = [cycles / nanoseconds for cycles, nanoseconds in zip(record["cycles"], record["nanoseconds"])]
            else:
                ghz = record["cycles"] / record["nanoseconds"]
        except (ValueError, KeyError, TypeError, AttributeError, ZeroDivisionError) as error:
            sys.exit(f"{where}: not a dramClock record ({error})")
        if threads > 1:
            traces = trace_of(archive, name, reads, where, threads)
            together.setdefault(key + (threads, int(record.get("stagger", 0))), []).append(list(zip(traces, ghz, sm)))
            continue
        issues, latencies = trace_of(archive, name, reads, where)
        groups.setdefault(key, []).append((issues, latencies, ghz, sm))
    for (mib, order, scatter, start, reads), runs in groups.items():
        order = f"{order} ×{scatter}" if scatter else order
        ordered = sorted(latency for _, latencies, _, _ in runs for latency in latencies)
        sms = ",".join(sorted({str(sm) for *_, sm in runs}))
        ghz = statistics.mean(ghz for _, _, ghz, _ in runs)
        print(
            f"{order}, {mib} MiB, {start}: {len(runs)} × {reads} reads on SM {sms} at {ghz:.3f} GHz: latency "
            f"p10 {percentile(ordered, 0.1)} p50 {percentile(ordered, 0.5)} p90 {percentile(ordered, 0.9)} "
            f"p99 {percentile(ordered, 0.99)} max {ordered[-1]} cycles"
        )
        histogram = [0] * 64
        for latency in ordered:
            histogram[min(latency // 32, 63)] += 1
        peak, share, _, end = tail_of(histogram, 0, 32)
        print(f"  dramTail.py's tail of its 32-cycle histogram: {100 * share:.1f} % past the peak at {peak}, to {end} cycles")
        if len(runs) > 1:
            print("\n".join(describe_waits([(issues, latencies, ghz) for issues, latencies, ghz, _ in runs])))
    for line in compare_orders(groups):
        print(line)
    for key, rounds in together.items():
        print("\n".join(describe_together(key, rounds)))


def unwrapped(times):
    """The globaltimer's low 32 bits as a count that does not wrap."""
    out, carry, last = [], 0, times[0]
    for time in times:
        carry += (1 << 32) if time < last else 0
        out.append(time + carry)
        last = time
    return out


def arrivals_of(rounds, waits):
    """Per round, every thread's reads by when they reach DRAM (half the unwaited round trip after
    issue, ns), as one sorted list of (arrival, thread, wait ns, wait cycles)."""
    out = []
    for number, traces in enumerate(rounds):
        reads = []
        for t, ((issues, latencies), ghz, _) in enumerate(traces):
            for time, latency, wait in zip(unwrapped(issues), latencies, waits[t][number]):
                reads.append((time + (latency - wait) / ghz / 2, t, wait / ghz, wait))
        reads.sort()
        out.append(reads)
    return out


def describe_together(key, rounds):
    """For threads on several SMs reading at the same time (issue times from the globaltimer): each
    thread's waits past its fastest round, and whether another SM's reads that reach DRAM inside a
    waiting read's window (from its arrival, for its wait) wait too; beside it the same for a stretch
    of the mean wait after every RATE_STRIDE-th read that does not wait, and 10 µs later. A read that
    shares the window waits only for what is left of it, and the globaltimer's steps blur where a read
    falls: so the reads are also counted by the cycles left, and those with SHARE_LEFT_CYCLES to
    SHARE_LEFT_END left, against the same 10 µs later, give the share of DRAM one window holds, in all
    and by pair of SMs (whether the SMs' own path shares the wait). With enough reads in a window
    (WINDOW_READS others in that range), each window's share of waiting reads shows whether windows
    differ in reach."""
    mib, order, scatter, start, reads, threads, stagger = key
    waits = [waits_of([(traces[t][0][0], traces[t][0][1], traces[t][1]) for traces in rounds]) for t in range(threads)]
    step = 0
    for traces in rounds:
        for (issues, _), _, _ in traces:
            step = math.gcd(step, *(b - a for a, b in zip(issues[:64], issues[1:64])))
    sms = sorted({sm for traces in rounds for *_, sm in traces})
    ghz = [statistics.mean(traces[t][1] for traces in rounds) for t in range(threads)]
    share = statistics.mean(sum(w > WAIT_CYCLES for w in one) / len(one) for per in waits for one in per)
    counts = {
        label: [0, 0] for label in ("waiting", "not waiting", "10 µs later", "within the flat part", "10 µs later, left")
    }
    by_left = [[0, 0] for _ in range(LEFT_BINS)]
    sms_of = [rounds[0][t][2] for t in range(threads)]
    by_pair = {"waiting": collections.defaultdict(lambda: [0, 0]), "10 µs later": collections.defaultdict(lambda: [0, 0])}
    windows = [0] * 10
    for ordered in arrivals_of(rounds, waits):
        times = [read[0] for read in ordered]
        mean_wait = statistics.mean(read[2] for read in ordered if read[3] > WAIT_CYCLES)
        quiet = [read for read in ordered if read[3] <= WAIT_CYCLES][::RATE_STRIDE]
        spans = [("not waiting", read, mean_wait, 0) for read in quiet]
        for read in ordered:
            if read[3] > WAIT_CYCLES:
                spans += [("waiting", read, read[2], 0), ("10 µs later", read, read[2], 10_000)]
        for label, (arrival, thread, wait_ns, _), length, later in spans:
            begin = arrival + later
            seen = waiting = 0
            for k in range(bisect.bisect_left(times, begin), bisect.bisect_right(times, begin + length)):
                _, other, _, other_wait = ordered[k]
                if other == thread:
                    continue
                waited = other_wait > WAIT_CYCLES
                counts[label][0] += 1
                counts[label][1] += waited
                if label == "not waiting":
                    continue
                left = (begin + length - times[k]) * ghz[thread]
                if left < WAIT_CYCLES:
                    continue
                if SHARE_LEFT_CYCLES <= left < SHARE_LEFT_END:
                    seen += 1
                    waiting += waited
                    pair = by_pair[label][tuple(sorted((sms_of[thread], sms_of[other])))]
                    pair[0] += 1
                    pair[1] += waited
                if label == "waiting":
                    counts_of = by_left[min(int(left // WAIT_CYCLES) - 1, LEFT_BINS - 1)]
                    counts_of[0] += 1
                    counts_of[1] += waited
            flat = counts["10 µs later, left" if later else "within the flat part"]
            flat[0] += seen
            flat[1] += waiting
            if not later and seen >= WINDOW_READS:
                windows[min(9, 10 * waiting // seen)] += 1
    share_of = {label: 100 * waiting / seen if seen else 0.0 for label, (seen, waiting) in counts.items()}
    left_shares = [100 * waiting / seen if seen else 0.0 for seen, waiting in by_left]
    far_share, control = share_of["within the flat part"], share_of["10 µs later, left"]
    staggered = f", thread b from read b × {stagger}" if stagger else ""
    lines = [
        f"{threads} threads {order}{f' ×{scatter}' if scatter else ''}{staggered}, {mib} MiB, {start}: {len(rounds)} × {reads} reads "
        f"each on SMs {','.join(map(str, sms))}; the globaltimer steps by {step} ns; {100 * share:.1f} % of reads wait over "
        f"{WAIT_CYCLES} cycles",
        f"  another SM's reads that reach DRAM inside a waiting read's window wait {share_of['waiting']:.1f} % "
        f"({counts['waiting'][0]} reads; after a read that does not wait {share_of['not waiting']:.1f} %, "
        f"10 µs later {share_of['10 µs later']:.1f} %)",
        f"  by the window's cycles left when they reach DRAM ({WAIT_CYCLES}-cycle bins from {WAIT_CYCLES}): "
        + " ".join(f"{value:.1f}" for value in left_shares)
        + f" %; with {SHARE_LEFT_CYCLES}–{SHARE_LEFT_END} left {far_share:.1f} % "
        f"({counts['within the flat part'][0]} reads), 10 µs later {control:.1f} %: "
        f"one window holds ≈ {100 * (far_share - control) / (100 - control) if control < 100 else 0.0:.0f} % of DRAM",
    ]
    if len(by_pair["waiting"]) > 1:
        ranges = {
            label: [100 * waiting / seen for seen, waiting in pairs.values() if seen]
            for label, pairs in by_pair.items()
        }
        lines.append(
            f"  by pair of SMs ({len(by_pair['waiting'])} pairs), with {SHARE_LEFT_CYCLES}–{SHARE_LEFT_END} left: "
            f"{min(ranges['waiting']):.1f}–{max(ranges['waiting']):.1f} %, 10 µs later "
            f"{min(ranges['10 µs later']):.1f}–{max(ranges['10 µs later']):.1f} %"
        )
    if sum(windows):
        lines.append(
            f"  {sum(windows)} windows with {WINDOW_READS} or more other reads at {SHARE_LEFT_CYCLES}–{SHARE_LEFT_END} cycles "
            f"left, by the share of them waiting in tenths: " + " ".join(map(str, windows))
        )
    return lines


def compare_orders(groups):
    """For two scattered orders of the same lines, each with several rounds: whether the lines slow in
    every round of the one are slow in the other (the line's own), and whether the same positions are
    (the time since launch); neither, and it is the order's."""
    scattered = {
        key: slow_in_every_round(fastest_of([(issues, latencies, ghz) for issues, latencies, ghz, _ in runs]))[1]
        for key, runs in groups.items()
        if key[2] and len(runs) > 1 and key[4] <= key[0] * (1 << 20) // 128
    }
    keys = sorted(scattered)
    for number, first in enumerate(keys):
        for second in keys[number + 1 :]:
            if first[0] != second[0] or first[3:] != second[3:]:
                continue
            lines = [
                {p // PAGE_LINES * PAGE_LINES + p % PAGE_LINES * key[2] % PAGE_LINES for p, flag in enumerate(scattered[key]) if flag}
                for key in (first, second)
            ]
            reads = first[4]
            both = sum(a and b for a, b in zip(scattered[first], scattered[second]))
            yield (
                f"×{first[2]} and ×{second[2]}, {first[0]} MiB, {first[3]} (the same lines in two orders): of the lines "
                f"slow in every round of ×{first[2]}, {100 * len(lines[0] & lines[1]) / max(1, len(lines[0])):.1f} % are "
                f"slow in ×{second[2]} ({100 * len(lines[1]) / reads:.1f} % of all); slow at the same position in both "
                f"{100 * both / reads:.2f} % ({100 * len(lines[0]) * len(lines[1]) / reads / reads:.2f} % if apart)"
            )


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
    main(sys.argv[1:])
