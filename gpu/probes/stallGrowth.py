#!/usr/bin/env python3
# What a kernel's warps wait for more when an SM holds two blocks: the `residency` archive of
# h200Batch.sh (residency/<kernel>-<M>.raw.csv, Nsight Compute's raw page, one launch each).
#
# Per kernel, for the smallest and the largest M in the archive: the launch's time, the warps' mean
# cycles between issued instructions, the active warps and the issue-active share, then every stall
# reason per issued instruction that reaches 0.05 at either M, largest growth first, with its share
# of the growth in cycles per instruction (what the second block's warps spend their extra cycles on).
#
# With --sites (the `residencysites` archive, whose SASS pages carry the source counters' stall samples)
# the growth is split by where the warps wait: each (instruction, reason) pair's share of the samples
# times the launch's cycles per issued instruction, summed by the instruction's mnemonic, largest
# growth first, then the single instructions that grow most (the same binary at both M: matched by
# their place in the listing).
#
# With --per MNEMONIC (the same archive) the cycles a warp spends per executed MNEMONIC in each span
# of the listing where that instruction repeats (an unrolled loop: the Coruscant kernel's Algorithm 1
# has one FLO per step): a span runs from STEP_BEFORE rows before its first MNEMONIC to the row before
# the next block-wide wait (BAR, DEPBAR) after its last, so the lanes' reconvergence (BSYNC) is in and
# the tile's barrier is out; two MNEMONICs at most SPAN_GAP rows apart share one. Its cycles are its
# share of the samples times all warps' cycles (cycles per issued instruction × instructions).
# With --parts ITERATIONS (the same archive) where a warp's life goes, per kernel and M: its
# instructions (the SASS page's executed count over the grid's warps) times the launch's cycles per
# issued instruction, split into the cycles it waits on global memory (the long scoreboard), at the
# block's barriers, and the rest, which the SM's own work takes (issuing, fixed-latency and shared-
# memory dependencies, throttles); each also per block-iteration, the life over ITERATIONS (so the
# block's start and end are spread over its iterations).
# With --loop ITERATIONS MNEMONIC,… (the same archive) the same three parts by where in the listing
# the warps spend them: before the K loop, in the loop split at the first instruction of each
# MNEMONIC in turn (one the loop lacks splits nothing), and after it; each part the region's share
# of the SASS page's samples times the block-iteration of --parts. The K loop runs from the target
# of its backward branch (the one that spans the most rows, so an inner loop is inside it) to that
# branch.
# Several archives are read as one (the `residencythree` archive, M 12544, beside `residencysites`'s).
# Usage: python3 gpu/probes/stallGrowth.py [--sites | --per MNEMONIC | --parts ITERATIONS | --loop ITERATIONS MNEMONIC,…] <residency.tgz>…
import collections, csv, io, math, re, signal, sys, tarfile

SUMMARY = [
    ("gpu__time_duration.sum", "time"),
    ("smsp__average_warp_latency_per_inst_issued.ratio", "cycles per issued instruction"),
    ("sm__warps_active.avg.pct_of_peak_sustained_active", "warps active, % of peak"),
    ("smsp__issue_active.avg.pct_of_peak_sustained_active", "issue active, %"),
    ("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "DRAM throughput, % of peak"),
]
STALL_METRIC = "smsp__average_warps_issue_stalled_{}_per_issue_active.ratio"
STALL = re.compile("^" + re.escape(STALL_METRIC).replace(re.escape("{}"), "(.+)") + "$")
FLOOR = 0.05
STEP_BEFORE, SPAN_GAP = 2, 40
BLOCK_WAITS = {"BAR", "DEPBAR"}


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def pages(archives, suffix):
    """(kernel, M) → the rows of each <kernel>-<M><suffix> CSV in the archives, the profiler's banners left out."""
    out = {}
    for archive in archives:
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                found = re.search(r"([^/]+)-(\d+)" + re.escape(suffix) + "$", member.name)
                if member.isfile() and found:
                    rows = csv.reader(io.TextIOWrapper(tar.extractfile(member)))
                    out[(found.group(1), int(found.group(2)))] = [r for r in rows if r and not r[0].startswith("==")]
    return out


def launches(archives):
    """(kernel, M) → metric name → value, from each raw CSV's header and its one launch's row."""
    out = {}
    for key, rows in pages(archives, ".raw.csv").items():
        # The raw page: names, then units, then one row per profiled launch.
        names, units, values = rows[0], rows[1], rows[2]
        launch = dict(zip(names, values))
        launch["units"] = dict(zip(names, units))
        out[key] = launch
    return out


def listing(rows):
    """A SASS page's instructions, each as column name → cell, in the listing's order."""
    header = next(i for i, r in enumerate(rows) if r[0] == "Address")
    names = rows[header]
    return [dict(zip(names, r)) for r in rows[header + 1 :] if len(r) == len(names)]


def sites(rows, cycles):
    """Per (listing index, reason): the instruction and the cycles per issued instruction spent waiting there."""
    instructions = listing(rows)
    names = instructions[0].keys() if instructions else []
    reasons = [n for n in names if n.startswith("stall_") and "Not Issued" not in n and n != "stall_selected"]
    waits, total = {}, 0
    for index, cells in enumerate(instructions):
        total += int(cells["Warp Stall Sampling (All Samples)"] or 0)
        for reason in reasons:
            samples = number(cells[reason] or "0") or 0
            if samples:
                waits[(index, reason[6:])] = (cells["Source"].strip(), samples)
    return {key: (source, cycles * samples / total) for key, (source, samples) in waits.items()}


def mnemonic(source):
    """HMMA.16816.F32 R4, … → HMMA; a guard (@P0, @!PT) left out."""
    return re.sub(r"^@!?\w+\s+", "", source).split(" ")[0].split(".")[0]


def print_sites(archives, data):
    listings = pages(archives, ".sass.csv")
    for kernel in sorted({k for k, _ in data}):
        ms = sorted(m for k, m in data if k == kernel)
        cycles = [number(data[(kernel, m)][SUMMARY[1][0]]) for m in (ms[0], ms[-1])]
        low, high = (sites(listings[(kernel, m)], c) for m, c in zip((ms[0], ms[-1]), cycles))
        print(f"== {kernel}: M {ms[0]} / {ms[-1]}, cycles per issued instruction by where the warps wait")
        by = [collections.Counter(), collections.Counter()]
        for side, waits in zip(by, (low, high)):
            for (_, reason), (source, value) in waits.items():
                side[(mnemonic(source), reason)] += value
        # Largest growth first; ties in the order of the mnemonic and the reason.
        growth = sorted(((by[1][key] - by[0][key], key) for key in set(by[0]) | set(by[1])), key=lambda g: (-g[0], g[1]))
        for delta, (op, reason) in [g for g in growth if abs(g[0]) >= FLOOR]:
            print(f"  at {op:8s} {reason:16s} {by[0][(op, reason)]:8.2f} {by[1][(op, reason)]:8.2f}  ({delta:+.2f})")
        # A branch's target is an address, which differs between the two launches: the place in the
        # listing names the instruction.
        def value(waits, key):
            return waits.get(key, ("", 0))[1]

        single = sorted(((value(high, key) - value(low, key), key) for key in set(low) | set(high)), key=lambda g: (-g[0], g[1]))
        for delta, (index, reason) in single[:5]:
            source = (high.get((index, reason)) or low[(index, reason)])[0]
            print(f"  #{index:<5d} {source[:44]:44s} {reason:16s} {value(low, (index, reason)):8.2f} {value(high, (index, reason)):8.2f}  ({delta:+.2f})")


def print_spans(archives, data, op):
    listings = pages(archives, ".sass.csv")
    for kernel, m in sorted(data):
        cells = listing(listings[(kernel, m)])
        executed = [int(c["Instructions Executed"] or 0) for c in cells]
        samples = [int(c["Warp Stall Sampling (All Samples)"] or 0) for c in cells]
        warpCycles = number(data[(kernel, m)][SUMMARY[1][0]]) * sum(executed)
        at = [i for i, c in enumerate(cells) if mnemonic(c["Source"].strip()) == op]
        spans = []
        for i in at:
            if spans and i - spans[-1][-1] <= SPAN_GAP:
                spans[-1].append(i)
            else:
                spans.append([i])
        for span in spans:
            first, last = max(0, span[0] - STEP_BEFORE), span[-1]
            while last + 1 < len(cells) and last - span[-1] < SPAN_GAP and mnemonic(cells[last + 1]["Source"].strip()) not in BLOCK_WAITS:
                last += 1
            steps = sum(executed[i] for i in span)
            share = sum(samples[first : last + 1]) / sum(samples)
            perStep = share * warpCycles / steps if steps else 0
            print(f"{kernel} M {m}: rows {first}–{last}, {len(span)} {op}, {steps} executed, {share * 100:.1f} % of the samples, {perStep:.1f} cycles per {op}")


def warps(launch):
    """The launch's warps: its grid's blocks times a block's threads over 32."""
    count = lambda text: math.prod(int(n) for n in re.findall(r"\d+", text))  # "(1, 128, 1)" → 128
    return count(launch["Grid Size"]) * count(launch["Block Size"]) // 32


def print_parts(archives, data, iterations):
    listings = pages(archives, ".sass.csv")
    for kernel, m in sorted(data):
        launch = data[(kernel, m)]
        executed = sum(int(c["Instructions Executed"] or 0) for c in listing(listings[(kernel, m)]))
        instructions = executed / warps(launch)
        perInstruction = number(launch[SUMMARY[1][0]])
        stalled = lambda reason: number(launch.get(STALL_METRIC.format(reason), "")) or 0
        parts = {"memory": stalled("long_scoreboard"), "barriers": stalled("barrier")}
        parts["the SM"] = perInstruction - sum(parts.values())
        life = perInstruction * instructions
        text = ", ".join(f"{name} {value * instructions / iterations:,.0f} ({value / perInstruction * 100:.0f} %)" for name, value in parts.items())
        print(f"{kernel} M {m}: {instructions:,.0f} instructions a warp, {life:,.0f} cycles; a block-iteration {life / iterations:,.0f}: {text}")


def k_loop(cells):
    """The K loop's first and last rows: the backward branch that spans the most rows, and its target."""
    rows = {int(c["Address"], 16): i for i, c in enumerate(cells)}
    spans = []
    for i, c in enumerate(cells):
        target = re.search(r"\bBRA\s+(0x[0-9a-f]+)", c["Source"])
        to = rows.get(int(target.group(1), 16), i) if target else i
        if to < i and int(c["Instructions Executed"] or 0):
            spans.append((i - to, to, i))
    if not spans:
        raise ValueError("no backward branch: no loop")
    _, first, last = max(spans)
    return first, last


def print_loop(archives, data, iterations, splits):
    listings = pages(archives, ".sass.csv")
    for kernel, m in sorted(data):
        launch = data[(kernel, m)]
        cells = listing(listings[(kernel, m)])
        executed = sum(int(c["Instructions Executed"] or 0) for c in cells)
        blockIteration = number(launch[SUMMARY[1][0]]) * executed / warps(launch) / iterations
        first, last = k_loop(cells)
        bounds, names = [0, first], ["before the loop", "the loop from its start"]
        for op in splits:
            at = next((i for i in range(bounds[-1] + 1, last + 1) if mnemonic(cells[i]["Source"].strip()) == op), None)
            if at is not None:  # a MNEMONIC this kernel's loop lacks splits nothing: the region goes on
                bounds.append(at)
                names.append(f"from {op}")
        bounds += [last + 1, len(cells)]
        names.append("after the loop")
        samples = lambda i, column: number(cells[i][column] or "0") or 0
        total = sum(samples(i, "Warp Stall Sampling (All Samples)") for i in range(len(cells)))
        parts = []
        for name, low, high in zip(names, bounds, bounds[1:]):
            cycles = lambda column: sum(samples(i, column) for i in range(low, high)) / total * blockIteration
            memory, barriers = cycles("stall_long_sb"), cycles("stall_barrier")
            sm = cycles("Warp Stall Sampling (All Samples)") - memory - barriers
            rows = f"rows {low}–{high - 1}"
            parts.append(f"{name} ({rows}) {memory + barriers + sm:,.0f}: memory {memory:,.0f}, barriers {barriers:,.0f}, the SM {sm:,.0f}")
        print(f"{kernel} M {m}: a block-iteration {blockIteration:,.0f}: " + "; ".join(parts))


def main(archives):
    data = launches(archives)
    for kernel in sorted({k for k, _ in data}):
        ms = sorted(m for k, m in data if k == kernel)
        low, high = data[(kernel, ms[0])], data[(kernel, ms[-1])]
        print(f"== {kernel}: M {ms[0]} / {ms[-1]}")
        for name, label in SUMMARY:
            a, b = number(low.get(name, "")), number(high.get(name, ""))
            if a is not None and b is not None:
                unit = low["units"].get(name, "")
                label = f"{label}, {unit}" if name == SUMMARY[0][0] else label
                print(f"  {label:32s} {a:10.2f} {b:10.2f}  ({(b / a - 1) * 100:+.0f} %)")
        growth = number(high[SUMMARY[1][0]]) - number(low[SUMMARY[1][0]])
        rows = []
        for name in low["units"]:
            reason = STALL.match(name)
            a, b = number(low[name]), number(high.get(name, ""))
            if reason and reason.group(1) != "selected" and a is not None and b is not None and max(a, b) >= FLOOR:
                rows.append((b - a, reason.group(1), a, b))
        for delta, reason, a, b in sorted(rows, key=lambda row: (-row[0], row[1])):
            print(f"  stalled {reason:24s} {a:10.2f} {b:10.2f}  ({delta:+.2f}, {delta / growth * 100:+.0f} % of the growth)")


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
    arguments = sys.argv[1:]
    mode = arguments[0] if arguments[:1] in (["--sites"], ["--per"], ["--parts"], ["--loop"]) else None
    archives = arguments[{None: 0, "--sites": 1, "--per": 2, "--parts": 2, "--loop": 3}[mode] :]
    iterations = number(arguments[1]) if mode in ("--parts", "--loop") and len(arguments) > 1 else None
    if not archives or (mode in ("--parts", "--loop") and not iterations):
        sys.exit(
            "usage: python3 gpu/probes/stallGrowth.py [--sites | --per MNEMONIC | --parts ITERATIONS | --loop ITERATIONS MNEMONIC,…] <residency.tgz>…"
        )
    try:
        if mode == "--sites":
            print_sites(archives, launches(archives))
        elif mode == "--parts":
            print_parts(archives, launches(archives), iterations)
        elif mode == "--loop":
            print_loop(archives, launches(archives), iterations, arguments[2].split(","))
        elif mode == "--per":
            print_spans(archives, launches(archives), arguments[1])
        else:
            main(archives)
    except (OSError, tarfile.TarError, KeyError, IndexError, StopIteration, ValueError) as error:
        # --sites needs the source counters' samples, which only `residencysites` takes.
        sys.exit(f"stallGrowth.py: {' '.join(archives)}: not the Nsight Compute pages this reads ({type(error).__name__}: {error})")
