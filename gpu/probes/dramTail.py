#!/usr/bin/env python3
# How far past its usual latency DRAM keeps some reads: the tail of a latency histogram beyond its
# last peak. Reads l2Replacement's walks (results/2026-12-02d/replacement.jsonl: per footprint and
# pass, a histogram of 32-cycle bins from 0 whose last bin counts everything beyond) and l2Partitions
# smsteps (results/2026-12-06r/loneWarp*.jsonl, results/2026-12-06p/spacingBits.jsonl: a warp's
# steps in bins from stepBinBase, the last open too, and how far apart its loads lie).
#
# For each histogram it prints its last peak (the last bin holding a quarter of the highest), the
# share of all counts that lie more than one bin past that peak (the open last bin left out: it
# is not DRAM's), the tail's level (the median bin of its first half, per mille of all counts) and
# where the tail ends (its last bin holding a tenth of that level), in cycles. A walk is printed from MIN_MIB on.
# Usage: python3 gpu/probes/dramTail.py <file.jsonl>… [--from MIN_MIB]
import json, signal, statistics, sys


def tail_of(bins, base, width):
    """(last peak, tail share, tail level per mille, tail end), cycles at a bin's lower edge."""
    counts = bins[:-1]
    total = sum(bins)
    highest = max(counts)
    peak = max(i for i, count in enumerate(counts) if count >= highest / 4)
    tail = counts[peak + 2 :]
    if total == 0 or not tail:
        return base + peak * width, 0.0, 0.0, base + peak * width
    level = statistics.median(tail[: max(1, len(tail) // 2)])
    end = max([i for i, count in enumerate(tail) if count >= level / 10] or [0])
    return (
        base + peak * width,
        sum(tail) / total,
        1000 * level / total,
        base + (peak + 2 + end + 1) * width,
    )


def histograms(record):
    """(footprint MiB of a walk or None, label, bins, base, width) for each histogram of one JSON line."""
    if record.get("probe") == "l2Replacement":
        mib = record["footprintBytes"] >> 20
        for number, one in enumerate(record["passes"], 1):
            yield mib, f"walk {mib} MiB pass {number}", one["histogram"], 0, record["binCycles"]
    elif record.get("probe") == "smsteps":
        label = (
            f"steps {record['footprintBytes'] >> 20} MiB, {record['sms']} SMs, "
            f"{record['threads'] // 32} warps × {record['inFlight']} out {record['spacingBytes']} B apart"
        )
        yield None, label, record["stepBins"], record["stepBinBase"], record["stepBinCycles"]


def main(arguments):
    least = 0
    if "--from" in arguments:
        at = arguments.index("--from")
        value = arguments[at + 1 : at + 2]
        if not value or not value[0].isdigit():
            sys.exit("--from: give the smallest footprint to print, in MiB")
        least = int(value[0])
        arguments = arguments[:at] + arguments[at + 2 :]
    if not arguments:
        sys.exit("usage: python3 gpu/probes/dramTail.py <file.jsonl>… [--from MIN_MIB]")
    for path in arguments:
        try:
            lines = open(path).read().splitlines()
        except OSError as error:
            sys.exit(f"{path}: {error.strerror}")
        for number, line in enumerate(lines, 1):
            try:
                record = json.loads(line)
                found = [(mib, label, tail_of(*shape)) for mib, label, *shape in histograms(record)]
            except (ValueError, KeyError, TypeError) as error:
                sys.exit(f"{path}:{number}: not a walk or smsteps record ({error})")
            for mib, label, (peak, share, level, end) in found:
                if mib is not None and mib < least:
                    continue
                print(
                    f"{label}: last peak {peak} cycles, tail {100 * share:.1f} % "
                    f"(level {level:.1f} ‰ a bin) to {end} cycles"
                )


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
    main(sys.argv[1:])
