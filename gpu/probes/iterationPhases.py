#!/usr/bin/env python3
# How a register-staged kernel's blocks keep step, K-loop iteration by iteration: the `stciters` and
# `flashiters` archives of h200Batch.sh (stcLifetime.cu or flashLifetime.cu built with
# -DBLOCK_ITERATION_MARKS; blocks/ and iterations/ per shape).
#
# Per shape and per group of SMs by how many blocks they ran: the median cycles of iterations 1, 2,
# 3 and of the rest, and how far apart the group's blocks end iterations 1, 2, 3, the middle one
# and the last (p90 − p10 of the end on the global timer, over the group's median iteration at the
# SMs' 1.8 GHz under mma.sync: 0 in lockstep, 1 or more once the blocks' phases cover an iteration).
# Where an SM holds several blocks, how far apart they end the same iteration past the third, as a
# share of the first one's iteration (median over the SMs' pairs: 0 when they keep step, 0.5 when two
# take turns, 0.33 when three share the iteration evenly).
# Blocks of a later round start late and are left out of the spread. With the plain build's archive beside it, each shape's median loop cycles in
# both builds (what the iteration marks cost).
# Usage: python3 gpu/probes/iterationPhases.py <iterations.tgz> [<plain.tgz>]
import csv, io, signal, statistics, sys, tarfile


def tables(archive, folder):
    """Shape name → rows of the CSV in folder/ of the archive."""
    out = {}
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.startswith(folder + "/") and member.name.endswith(".csv"):
                text = tar.extractfile(member).read().decode()
                out[member.name[len(folder) + 1 : -4]] = list(csv.DictReader(io.StringIO(text)))
    return out


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def first_round(blocks):
    """The blocks that started with the grid: each SM's first blocks, until one of its blocks ends."""
    earliest_end = {}
    for b in blocks:
        earliest_end[b["sm"]] = min(earliest_end.get(b["sm"], float("inf")), int(b["endNs"]))
    return {b["block"] for b in blocks if int(b["startNs"]) < earliest_end[b["sm"]]}


def pair_offset(pairs, ends):
    """Median share of an iteration by which the paired blocks end the same one (iterations 4 … second to last)."""
    offsets = []
    for a, b in pairs:
        at_a = {it: ns for it, _, ns in ends.get(a, [])}
        at_b = {it: ns for it, _, ns in ends.get(b, [])}
        for it in range(3, max(at_a, default=0)):
            if it in at_b and it - 1 in at_a:
                share = (at_b[it] - at_a[it]) / (at_a[it] - at_a[it - 1])
                offsets.append(abs(share - round(share)))
    return statistics.median(offsets) if offsets else None


def shape_report(name, blocks, iterations):
    per_sm = {}
    for b in blocks:
        per_sm.setdefault(b["sm"], []).append(b)
    group_of = {b["block"]: len(per_sm[b["sm"]]) for b in blocks}
    sm_of = {b["block"]: b["sm"] for b in blocks}
    started = first_round(blocks)
    ends = {}  # block → [(cycles, ns)] by iteration
    for row in iterations:
        ends.setdefault(row["block"], []).append((int(row["iteration"]), int(row["endCycles"]), int(row["endNs"])))
    lines = []
    for group in sorted(set(group_of.values())):
        members = [b for b in ends if group_of.get(b) == group]
        if not members:
            continue
        lengths = {}  # iteration → cycles, over the group's blocks
        for b in members:
            previous = 0
            for iteration, cycles, _ in sorted(ends[b]):
                lengths.setdefault(iteration, []).append(cycles - previous)
                previous = cycles
        count = max(lengths) + 1
        median_of = {i: statistics.median(v) for i, v in lengths.items()}
        rest = [c for i, v in lengths.items() if i >= 3 for c in v]
        typical_ns = statistics.median(median_of.values()) / 1.8
        spread = []
        for i in (0, 1, 2, count // 2, count - 1):
            at = [ns for b in members if b in started for it, _, ns in ends[b] if it == i]
            spread.append((i + 1, (quantile(at, 0.9) - quantile(at, 0.1)) / typical_ns if len(at) > 1 else 0.0))
        firsts = {}
        for b in members:
            if b in started:
                firsts.setdefault(sm_of[b], []).append(b)
        pairs = [(x, y) for sm_blocks in firsts.values() for i, x in enumerate(sm_blocks) for y in sm_blocks[i + 1 :]]
        apart = pair_offset(pairs, ends) if group > 1 else None
        lines.append(
            f"{name}  {group} per SM  {len(members)} blocks  cycles: 1st {median_of[0]:.0f}, 2nd "
            f"{median_of.get(1, 0):.0f}, 3rd {median_of.get(2, 0):.0f}, rest {statistics.median(rest) if rest else 0:.0f}"
            f"  ({count} iterations)  spread: "
            + ", ".join(f"{i}: {s:.2f}" for i, s in spread)
            + (f"  apart: {apart:.2f}" if apart is not None else "")
        )
    return lines


def main(argv):
    if len(argv) < 2:
        sys.exit("usage: iterationPhases.py <iterations.tgz> [<plain.tgz>]")
    blocks = tables(argv[1], "blocks")
    iterations = tables(argv[1], "iterations")
    for name in sorted(iterations):
        print("\n".join(shape_report(name, blocks[name], iterations[name])))
    if len(argv) > 2:
        plain = tables(argv[2], "blocks")
        for name in sorted(set(plain) & set(blocks)):
            marked = statistics.median(int(b["loopCycles"]) for b in blocks[name])
            unmarked = statistics.median(int(b["loopCycles"]) for b in plain[name])
            print(f"{name}  loop cycles: plain {unmarked:.0f}, marked {marked:.0f} ({100 * (marked / unmarked - 1):+.1f} %)")


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
    main(sys.argv)
