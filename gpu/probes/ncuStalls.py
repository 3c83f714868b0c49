#!/usr/bin/env python3
# Warp stall reasons of an Nsight Compute source page (ncu -i R --page source --csv --print-source sass):
# the share of each reason over all samples, and the instructions with the most samples.
#
# The page's header row starts with "Address"; above it the profiler names the kernel, and a page
# of several launches repeats both. The "(Not Issued)" columns split the same samples again, so
# they are left out of the shares.
# Usage: python3 gpu/probes/ncuStalls.py <kernel>.sass.csv…
import collections, csv, signal, sys

STALL = "stall_"
TOP_REASONS = 8
TOP_INSTRUCTIONS = 8
SOURCE_WIDTH = 60


def instructions(rows):
    """Each instruction row of the page: (its samples, its source, its samples by reason)."""
    header_at = next((i for i, row in enumerate(rows) if row and row[0] == "Address"), None)
    if header_at is None:
        raise ValueError('no header row ("Address", "Source", …)')
    header = rows[header_at]
    reasons = [name for name in header if name.startswith(STALL) and "Not Issued" not in name]
    for row in rows[header_at + 1 :]:
        if not row or row[0] in ("Kernel Name", "Address") or len(row) < len(header):
            continue
        cells = dict(zip(header, row))
        by_reason = {name[len(STALL) :]: int(cells[name] or 0) for name in reasons}
        samples = int(cells["Warp Stall Sampling (All Samples)"] or 0)
        yield samples, cells["Source"].strip(), by_reason


def report(name, rows):
    """The page's lines: its samples, the most common reasons' shares, the instructions waited at most."""
    found = list(instructions(rows))
    totals = collections.Counter()
    for _, _, by_reason in found:
        totals.update(by_reason)
    samples = sum(totals.values())
    if samples == 0:
        raise ValueError("no stall samples")
    lines = [f"== {name} samples {samples}"]
    lines.append("   " + ", ".join(f"{r} {n / samples * 100:.1f}%" for r, n in totals.most_common(TOP_REASONS)))
    found.sort(key=lambda instruction: -instruction[0])
    for count, source, by_reason in found[:TOP_INSTRUCTIONS]:
        most = dict(sorted(((r, n) for r, n in by_reason.items() if n), key=lambda kv: -kv[1])[:3])
        lines.append(f"   {count / samples * 100:5.1f}%  {source[:SOURCE_WIDTH]:{SOURCE_WIDTH}s} {most}")
    return lines


def main(paths):
    for path in paths:
        with open(path, newline="") as page:
            rows = list(csv.reader(page))
        try:
            lines = report(path, rows)
        except (KeyError, ValueError) as error:
            sys.exit(f"ncuStalls.py: {path}: not an Nsight Compute source page ({type(error).__name__}: {error})")
        print("\n".join(lines))


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
    if not sys.argv[1:]:
        sys.exit("usage: python3 gpu/probes/ncuStalls.py <kernel>.sass.csv…")
    try:
        main(sys.argv[1:])
    except OSError as error:
        sys.exit(f"ncuStalls.py: {error.filename}: {error.strerror}")
