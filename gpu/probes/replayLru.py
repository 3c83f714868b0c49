#!/usr/bin/env python3
# Replays one partition's stream, as silicon's warps ran it, through a least-recently-used L2
# partition, then the probe's walk: does LRU with silicon's warp times keep what streamkeep measured?
#
# Input: the warps CSV that `l2Partitions streamkeep` writes for the last launch of a round (warp,
# SM, start and end in ns; in its last round each pass's end too). Warp w of W reads lines 4w …
# 4w + 3 of every stride of 4W lines (the probe's fixed mapping), one pass after another; the replay
# spreads each pass's reads evenly over that pass's time (without pass ends, over an equal share of
# the warp's time), merges all warps' reads in time order, and sends every read through
# one partition whose sets hold its home lines and its copies alike (the profile's h200 L2: 48
# slices × 256 sets × 20 ways). One untimed pass in address order first stands for the launch
# before. Then, as the probe does, one read of every line in address order.
#
# Sets: lines go to sets by line number mod the sets, so every set gets its share. `balanced`: every
# set holds 20 lines, none overflows before another; `shares` with --set-shares "share:MiB,…" (the
# profile's setShares): that share of the sets holds as many lines as a footprint of MiB gives a set.
#
# Usage: python3 gpu/probes/replayLru.py <warps.csv> <footprint MiB> <passes> [--sets balanced|shares]
#                                         [--set-shares S:M,…] [--uniform]
# --uniform gives every warp the median warp's start and time (no drift: the model's warps).
# Prints one JSON line: the replayed stream's hit share, the walk's near share, and the walk's near
# share by tenth of the footprint.
import argparse, csv, heapq, json, signal, statistics
from collections import OrderedDict

SETS, WAYS, LINE = 48 * 256, 20, 128


def warps_of(path, uniform):
    """Per warp: its number and the times its passes start and end (start, end of pass 0, …)."""
    rows = []
    for r in csv.DictReader(open(path)):
        ends = [int(v) for k, v in r.items() if k.startswith("pass")]
        rows.append((int(r["warp"]), [int(r["startNs"])] + (ends or [int(r["endNs"])])))
    if uniform:
        median = statistics.median(times[-1] - times[0] for _, times in rows)
        rows = [(w, [0, median]) for w, _ in rows]
    return sorted(rows)


def reads(warp, times, lines, warps, passes):
    """The warp's reads in time order: each pass's reads spread evenly over that pass's time where the
    CSV has each pass's end, else every pass over an equal share of the warp's time."""
    mine = [line for k in range(0, lines, 4 * warps) for line in range(k + 4 * warp, min(k + 4 * warp + 4, lines))]
    if len(times) != passes + 1:
        times = [times[0] + (times[-1] - times[0]) * p / passes for p in range(passes + 1)]
    for p in range(passes):
        step = (times[p + 1] - times[p]) / len(mine)
        for i, line in enumerate(mine):
            yield times[p] + (i + 0.5) * step, line


def set_ways(kind, shares):
    if kind != "shares":
        return [WAYS] * SETS
    ways = []
    for share, mib in shares:
        ways += [max(1, round(mib * 2**20 / LINE / SETS))] * round(share * SETS)
    return (ways + [WAYS] * SETS)[:SETS]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("warps")
    parser.add_argument("mib", type=int)
    parser.add_argument("passes", type=int)
    parser.add_argument("--sets", choices=["balanced", "shares"], default="balanced")
    parser.add_argument("--set-shares", default="")
    parser.add_argument("--uniform", action="store_true")
    args = parser.parse_args()
    shares = [tuple(float(x) for x in item.split(":")) for item in args.set_shares.split(",") if item]
    if args.sets == "shares" and not shares:
        parser.error("--sets shares needs --set-shares share:MiB,…")
    lines = args.mib * 2**20 // LINE
    warps = warps_of(args.warps, args.uniform)
    ways = set_ways(args.sets, shares)
    cache = [OrderedDict() for _ in range(SETS)]

    def read(line):
        s = line % SETS
        held = cache[s]
        if line in held:
            held.move_to_end(line)
            return 1
        held[line] = True
        if len(held) > ways[s]:
            held.popitem(last=False)
        return 0

    for line in range(lines):
        read(line)
    hits = total = 0
    streams = [reads(w, times, lines, len(warps), args.passes) for w, times in warps]
    for _, line in heapq.merge(*streams):
        hits += read(line)
        total += 1
    near = [read(line) for line in range(lines)]
    tenths = [round(sum(near[k * lines // 10 : (k + 1) * lines // 10]) / (lines // 10), 3) for k in range(10)]
    print(json.dumps({"warps": args.warps, "footprintMiB": args.mib, "passes": args.passes, "sets": args.sets,
                      "uniform": args.uniform, "streamHitShare": round(hits / total, 4),
                      "walkNearShare": round(sum(near) / lines, 4), "walkNearByTenth": tenths}))


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
    main()
