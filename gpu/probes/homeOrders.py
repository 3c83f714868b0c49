#!/usr/bin/env python3
# Reads `h200Batch.sh homeorders`, `homeonly` and `ordersteps` (l2Partitions streamkeep with its chunk orders):
# one partition's stream with each warp's 512-byte chunks dealt by the home partition of their 4 KiB
# blocks, and, given `orderncu`'s output, Nsight Compute's counts for one launch of each order.
#
# It prints, per footprint and passes per launch:
#   - rates: each order's GB/s per round, less 7 µs per launch (the fourteenth batch's launch), and
#     the walk's near share after the last round;
#   - warps: µs per pass in the last round's last launch, the mean of the first and of the last k
#     passes (k = passes / 3, at most 10), by group: `split`'s even warps (chunks homed near only) and
#     odd warps (homed far only), `near`'s and `far`'s warps all together, the other orders' warps by
#     fifth of their time, fastest first; with each group's mean share of chunks homed near, and
#     where the run counted its steps (`ordersteps`), the quartiles of their cycles (a step: the
#     warp's four loads issued until their values are in; 128-cycle bins, the last from 3,968 up);
#   - kept: the share of the lines homed near and of those homed far that the walk after the last
#     round finds near (a 4 KiB block's home: its lines' majority over every map of that footprint
#     and passes, far hits against the partition's own DRAM);
#   - ncu: the near partition's hits, fabric and DRAM sectors per sector its SMs read, and for
#     `split` the hit share of each half (the far-only warps miss across the fabric only, so their
#     hits are 1 − 2 × fabric; the near-only warps' are the rest).
# Usage: python3 gpu/probes/homeOrders.py <results folder> [orderNcu.txt]
import csv, io, json, re, signal, sys
from pathlib import Path

from linesArchive import FAR_HIT, NEAR_CLASSES, OWN_DRAM, read_lines_archive

LAUNCH_US = 7.0
# The walk's classes (linesArchive.py) as the hex digits of the maps.
NEAR_DIGITS = "".join(f"{c:x}" for c in range(NEAR_CLASSES))
FAR_HIT_DIGITS = "".join(f"{c:x}" for c in FAR_HIT)
OWN_DRAM_DIGITS = "".join(f"{c:x}" for c in OWN_DRAM)
BLOCK_LINES = 32
# streamkeep's `steps` option: each warp's steps counted in 32 bins of 128 cycles, the last open.
STEP_BIN_CYCLES = 128
STEP_BINS = 32


def runs_of(jsonl):
    """The stream rows of every run in file order: (MiB, passes, order) → (bytes per pass, rows)."""
    runs, pending, current = {}, None, None
    for text in jsonl.splitlines():
        if not text.startswith("{"):
            continue
        row = json.loads(text)
        if row["walk"] == "homes":
            pending = (row["order"], row.get("passBytes", row["footprintBytes"]))
        elif row["walk"] == "stream":
            if row["round"] == 0:
                order, pass_bytes = pending or ("fixed", row["footprintBytes"])
                pending = None
                current = (row["footprintBytes"] >> 20, row["passes"], order)
                runs[current] = (pass_bytes, [])
            runs[current][1].append(row)
    return runs


def mean(values):
    values = list(values)
    return sum(values) / len(values)


def pass_times(row, passes):
    ends = [int(row[f"pass{p}EndNs"]) for p in range(passes)]
    starts = [int(row["startNs"])] + ends[:-1]
    return [(end - start) / 1000 for start, end in zip(starts, ends)]


def groups_of(order, rows):
    if order == "split":
        return {
            "near-only": [r for r in rows if int(r["warp"]) % 2 == 0],
            "far-only": [r for r in rows if int(r["warp"]) % 2 == 1],
        }
    if order in ("near", "far"):
        return {"all": rows}
    by_time = sorted(rows, key=lambda r: int(r["endNs"]) - int(r["startNs"]))
    n = len(by_time)
    return {f"fifth {k + 1}": by_time[k * n // 5 : (k + 1) * n // 5] for k in range(5)}


def print_warps(files, key):
    mib, passes, order = key
    stem = f"near-{mib}-{passes}-{order}"
    rounds = sorted(name for name in files if re.fullmatch(rf"{stem}-\d+\.csv", name))
    rows = list(csv.DictReader(io.StringIO(files[rounds[-1]])))
    shares = {}
    if f"{stem}-shares.csv" in files:
        for r in csv.DictReader(io.StringIO(files[f"{stem}-shares.csv"])):
            shares[r["warp"]] = int(r["nearChunks"]) / max(1, int(r["chunks"]))
    steps = {}
    if f"{stem}-steps.csv" in files:
        for r in csv.DictReader(io.StringIO(files[f"{stem}-steps.csv"])):
            steps[r["warp"]] = [int(r[f"from{b * STEP_BIN_CYCLES}"]) for b in range(STEP_BINS)]
    k = max(1, min(10, passes // 3))
    cells = []
    for name, group in groups_of(order, rows).items():
        times = [pass_times(r, passes) for r in group]
        first = mean(mean(t[:k]) for t in times)
        last = mean(mean(t[-k:]) for t in times)
        share = f" near {mean(shares[r['warp']] for r in group):.2f}" if shares else ""
        cells.append(f"{name} {first:.1f} → {last:.1f}{share}{step_quartiles(steps, group)}")
    print(f"  {order:8} " + " | ".join(cells))


def step_quartiles(steps, group):
    """', steps q1 / median / q3 cycles' over the group's counted steps (bins' lower edges), or ''."""
    if not steps:
        return ""
    counts = [sum(steps[r["warp"]][b] for r in group) for b in range(STEP_BINS)]
    total, edges, seen = sum(counts), [], 0
    for b, count in enumerate(counts):
        seen += count
        while len(edges) < 3 and seen >= total * (len(edges) + 1) / 4:
            edges.append(b * STEP_BIN_CYCLES)
    return f", steps {edges[0]} / {edges[1]} / {edges[2]}"


def print_kept(files, mib, passes, orders):
    maps = {}
    for order in orders:
        stem = f"near-{mib}-{passes}-{order}"
        for name in sorted(files):
            if name.startswith(stem + "-") and name.endswith(".hex"):
                maps[name] = "".join(files[name].split())
    blocks = len(next(iter(maps.values()))) // BLOCK_LINES
    votes = [[0, 0] for _ in range(blocks)]
    for digits in maps.values():
        for block in range(blocks):
            text = digits[block * BLOCK_LINES : (block + 1) * BLOCK_LINES]
            votes[block][0] += sum(text.count(d) for d in FAR_HIT_DIGITS)
            votes[block][1] += sum(text.count(d) for d in OWN_DRAM_DIGITS)
    homes = [None if far == near else int(near > far) for far, near in votes]
    unknown = sum(home is None for home in homes)
    print(f"  {mib} MiB, {passes} passes ({unknown} of {len(homes)} blocks without a home):")
    for order in orders:
        stem = f"near-{mib}-{passes}-{order}"
        digits = maps[sorted(name for name in maps if re.fullmatch(rf"{stem}-\d+\.hex", name))[-1]]
        kept = [[0, 0], [0, 0]]
        for block, home in enumerate(homes):
            if home is not None:
                text = digits[block * BLOCK_LINES : (block + 1) * BLOCK_LINES]
                kept[home][0] += sum(text.count(d) for d in NEAR_DIGITS)
                kept[home][1] += len(text)
        print(f"    {order:8} homed near {kept[1][0] / kept[1][1]:.3f}, homed far {kept[0][0] / kept[0][1]:.3f}")


def print_ncu(text):
    print("ncu: per sector read by the partition's SMs: near hits, fabric, DRAM")
    for block in text.split("== ")[1:]:
        metric = {
            name: float(value.replace(",", ""))
            for name, value in re.findall(r"^\s+([a-z_]+__\S+)\s+\S+\s+([\d,.]+)$", block, re.M)
        }
        read = metric["lts__t_sectors_srcunit_tex_op_read.sum"]
        hits = 1 - metric["lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"] / read
        fabric = metric["lts__t_sectors_srcunit_ltcfabric_op_read.sum"] / read
        dram = metric["dram__bytes_read.sum"] * 1e6 / 32 / read
        line = f"  {block.splitlines()[0]}: {hits:.3f} {fabric:.3f} {dram:.3f}"
        if block.splitlines()[0].endswith("split"):
            far_only = 1 - 2 * fabric
            line += f" (hits: far-only warps {far_only:.3f}, near-only {2 * hits - far_only:.3f})"
        print(line)


def main(folder, ncu=None):
    folder = Path(folder)
    jsonl = next(p for p in folder.glob("*.jsonl") if p.name != "smMap.jsonl").read_text()
    files = read_lines_archive(folder / "lines.txz")
    runs = runs_of(jsonl)
    print("rates: GB/s by round less the launches; the walk's near share after the last")
    for (mib, passes, order), (pass_bytes, rows) in runs.items():
        rates = []
        for row in rows:
            us = row["streamMs"] * 1000 - LAUNCH_US * row["launches"]
            rates.append(f"{row['launches'] * passes * pass_bytes / us / 1000:,.0f}")
        print(f"  {mib} MiB {passes:2} passes {order:8} {' '.join(rates)}  near {rows[-1]['nearLines'] / rows[-1]['lines']:.3f}")
    print("warps: µs per pass, first → last, by group")
    previous = None
    for key in sorted(runs, key=lambda k: (k[0], k[1])):
        if key[:2] != previous:
            print(f"  {key[0]} MiB, {key[1]} passes")
            previous = key[:2]
        print_warps(files, key)
    print("kept: share of the lines near after the last round, by home")
    for mib, passes in sorted({key[:2] for key in runs}):
        print_kept(files, mib, passes, [o for m, p, o in runs if (m, p) == (mib, passes)])
    if ncu:
        print_ncu(Path(ncu).read_text())


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
    main(*sys.argv[1:])
