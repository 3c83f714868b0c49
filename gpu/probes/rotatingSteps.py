#!/usr/bin/env python3
# Which warps of the rotating stream find their lines in the L2 past its size: reads rotsteps'
# records (h200Batch.sh rotsteps: rotSteps.jsonl, and rotSteps.txz beside it with each run's
# PREFIX-warps.csv, a warp's start, end and SM, and PREFIX-steps.csv, its steps by cycles).
#
# In the rotating walk a line's next reader is another warp, `nextReaderWarps` on, so a warp whose
# lines were read a pass before by a warp it has run ahead of can find them still in the L2. For
# each run it prints:
#   - its rate against the untimed rotating loop's at the same footprint and total (the record after
#     it), and the blocks resident per SM (8: the whole grid at once);
#   - the steps' cycles (10th, 50th and 90th percentiles, each a bin's lower edge) over every warp;
#   - how the blocks were dealt: each round of as many blocks as there are SMs, on how many SMs;
#   - when the warps end, as fractions of the median warp's end (5th percentile and last, as the
#     model's warpEnds has them), and the latest start;
#   - each warp's share of short steps, under SHORT: the L2-resident run's 90th percentile (the run
#     of the smallest footprint), by tenths of warps, and how it follows the warp's lead over its
#     line's previous reader (that warp's end less its own): Pearson's r over the warps;
#   - where smSets.txt (h200Batch.sh's partition map of the same card) lies beside the records: the
#     share of warps whose lines' next reader runs in the same L2 partition as they do.
# Usage: python3 gpu/probes/rotatingSteps.py <rotSteps.jsonl>
import json, math, os, statistics, sys, tarfile

sys.dont_write_bytecode = True  # importing linesArchive leaves no __pycache__ in the folder
from linesArchive import read_lines_archive


REQUIRED = ("footprintBytes", "bytes", "nextReaderWarps", "GBps", "prefix")


def csv_rows(text, where):
    rows = [line.split(",") for line in text.splitlines() if line]
    try:
        return rows[0], [[int(value) for value in row] for row in rows[1:]]
    except (ValueError, IndexError) as error:
        sys.exit(f"{where}: not a rotsteps table ({error})")


def percentile_edge(histogram, edges, share):
    total, seen = sum(histogram), 0
    for count, edge in zip(histogram, edges):
        seen += count
        if seen >= share * total:
            return edge
    return edges[-1]


def pearson(xs, ys):
    mx, my = statistics.mean(xs), statistics.mean(ys)
    sx, sy = statistics.pstdev(xs), statistics.pstdev(ys)
    if sx == 0 or sy == 0:
        return 0.0
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / len(xs) / sx / sy


def read_run(record, files, where):
    base = os.path.basename(record["prefix"])
    try:
        header, steps = csv_rows(files[f"{base}-steps.csv"], where)
        _, warps = csv_rows(files[f"{base}-warps.csv"], where)
    except KeyError as error:
        sys.exit(f"{where}: rotSteps.txz has no {error.args[0]}")
    if len(steps) != len(warps):
        sys.exit(f"{where}: {len(steps)} warps of steps against {len(warps)} of times")
    if any(sum(row[1:]) == 0 for row in steps):
        sys.exit(f"{where}: a warp of {base}-steps.csv has no steps")
    edges = [int(name[len("from") :]) for name in header[1:]]
    return edges, [row[1:] for row in steps], warps


def placement(record, warps):
    """How the block scheduler dealt the grid: every block on one SM, and how many SMs each round of
    as many blocks as there are SMs reached (all of them when dealt in turn, a few when SM by SM)."""
    per_block = max(1, record["threads"] // 32)
    sms = [row[1] for row in sorted(warps)]
    blocks = [sms[start : start + per_block] for start in range(0, len(sms), per_block)]
    split = sum(len(set(block)) > 1 for block in blocks)
    count = len(set(sms))
    reached = [len({block[0] for block in blocks[start : start + count]}) for start in range(0, len(blocks), count)]
    by_sm = min(count, math.ceil(count * count / len(blocks)))
    return (
        f"  blocks: {len(blocks)} of {per_block} warps, {split} split over SMs; each round of {count} blocks on "
        f"{min(reached)}–{max(reached)} SMs ({by_sm} if dealt SM by SM)"
    )


def near_sms(folder):
    """SM 0's L2 partition from smSets.txt's `near` line, or None where the folder has no map."""
    try:
        lines = open(os.path.join(folder, "smSets.txt")).read().splitlines()
    except FileNotFoundError:
        return None
    near = [line.split()[1] for line in lines if line.startswith("near ") and len(line.split()) == 2]
    try:
        return {int(sm) for sm in near[0].split(",")}
    except (IndexError, ValueError):
        sys.exit(f"{folder}/smSets.txt: no near line of SM numbers")


def same_partition_share(record, warps, near):
    """The share of warps whose next reader, `nextReaderWarps` on, runs in their own L2 partition."""
    in_near = {row[0]: row[1] in near for row in warps}
    count, shift = len(in_near), record["nextReaderWarps"]
    return sum(in_near[warp] == in_near[(warp + shift) % count] for warp in range(count)) / count


def describe(record, untimed, edges, steps, warps, short, near):
    mib, count = record["footprintBytes"] >> 20, len(warps)
    histogram = [sum(column) for column in zip(*steps)]
    ends = sorted(row[3] for row in warps)
    median = ends[count // 2]
    resident = record.get("residentBlocksPerSm", "?")
    lines = [
        f"{mib} MiB over {record['bytes'] / 2**20:.0f} MiB ({record['bytes'] / record['footprintBytes']:.1f} passes), "
        f"{resident} blocks resident per SM, next reader {record['nextReaderWarps']} warps on: "
        f"{record['GBps']:,.0f} GB/s (the untimed loop {untimed:,.0f})",
        f"  steps: {percentile_edge(histogram, edges, 0.1)} / {percentile_edge(histogram, edges, 0.5)} / "
        f"{percentile_edge(histogram, edges, 0.9)} cycles (10th / 50th / 90th); {100 * histogram[-1] / sum(histogram):.1f} % "
        f"at {edges[-1]} and more",
        f"  warps end at {ends[count // 20] / median:.3f} / {ends[-1] / median:.3f} of the median "
        f"({median / 1000:.1f} µs; 5th percentile / last); the latest start {max(row[2] for row in warps) / 1000:.1f} µs",
    ]
    if "threads" in record:
        lines.append(placement(record, warps))
    if near is not None:
        lines.append(
            f"  next reader in the same L2 partition: {100 * same_partition_share(record, warps, near):.1f} % of the warps"
        )
    if short is not None:
        shares = [sum(c for c, edge in zip(row, edges) if edge < short) / sum(row) for row in steps]
        tenths = [0] * 10
        for share in shares:
            tenths[min(int(share * 10), 9)] += 1
        by_end = {row[0]: row[3] for row in warps}
        leads = [by_end[(warp - record["nextReaderWarps"]) % count] - by_end[warp] for warp in range(count)]
        lines.append(
            f"  steps under {short} cycles: {100 * statistics.mean(shares):.1f} % of a warp's on average; warps by "
            f"tenths of theirs: {' '.join(map(str, tenths))}; r against the lead over the line's previous reader "
            f"{pearson(shares, leads):+.2f}"
        )
    return lines


def main(arguments):
    if len(arguments) != 1:
        sys.exit("usage: python3 gpu/probes/rotatingSteps.py <rotSteps.jsonl>")
    path = arguments[0]
    try:
        records = [json.loads(line) for line in open(path).read().splitlines() if line.startswith("{")]
    except (OSError, ValueError) as error:
        sys.exit(f"{path}: {getattr(error, 'strerror', None) or error}")
    found = []
    for number, record in enumerate(records):
        if record.get("probe") != "rotsteps":
            continue
        where = f"{path}: rotsteps record {number + 1}"
        missing = [key for key in REQUIRED if key not in record]
        if missing:
            sys.exit(f"{where}: no {', '.join(missing)}")
        after = records[number + 1] if number + 1 < len(records) else {}
        if not (after.get("probe") == "stream" and after.get("footprintBytes") == record["footprintBytes"]):
            sys.exit(f"{where}: no untimed rotating stream after it")
        if "GBps" not in after:
            sys.exit(f"{where}: the untimed stream after it has no GBps")
        found.append((where, record, after["GBps"]))
    if not found:
        sys.exit(f"{path}: no rotsteps record")
    archive_path = os.path.join(os.path.dirname(path), "rotSteps.txz")
    try:
        files = read_lines_archive(archive_path)
    except (OSError, tarfile.TarError) as error:
        sys.exit(f"{archive_path}: {getattr(error, 'strerror', None) or error}")
    runs = [(record, untimed, *read_run(record, files, where)) for where, record, untimed in found]
    reference = min(runs, key=lambda run: run[0]["footprintBytes"])
    histogram = [sum(column) for column in zip(*reference[3])]
    short = percentile_edge(histogram, reference[2], 0.9)
    near = near_sms(os.path.dirname(path))
    for record, untimed, edges, steps, warps in runs:
        print("\n".join(describe(record, untimed, edges, steps, warps, short, near)))


if __name__ == "__main__":
    main(sys.argv[1:])
