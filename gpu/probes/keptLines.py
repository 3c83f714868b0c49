#!/usr/bin/env python3
# Reads the line maps of `h200Batch.sh partlines` (lines.txz: per run and round the walk's class of
# every line, and the warps of the round's last launch) and prints, per run, what the walk after
# the launches found near: its share, how much of it was near in the round before, by how fast the
# warp that read the line ran (fifths of the warps, fastest first), and by tenth of the footprint.
# A line is near when its class is below 5 (< 384 cycles; l2Partitions.cu, LINE_CLASS_BASE).
# Usage: python3 gpu/probes/keptLines.py gpu/probes/results/2026-12-04i/lines.txz
import csv, io, re, signal, sys
from collections import defaultdict

from linesArchive import NEAR_CLASSES, read_lines_archive


def main(path):
    files = read_lines_archive(path)
    runs = defaultdict(dict)
    for name, text in files.items():
        match = re.fullmatch(r"(\w+-\d+-\d+)-(\d+|home)\.(hex|csv)", name)
        if match:
            runs[match.group(1)][(match.group(2), match.group(3))] = text
    print("run (SMs-MiB-passes)  near share by round  near also the round before  by warp fifth, fastest first  by tenth of the footprint")
    for run in sorted(runs, key=lambda r: (r.split("-")[0], int(r.split("-")[1]), int(r.split("-")[2]))):
        parts = runs[run]
        rounds = sorted(int(k[0]) for k in parts if k[0] != "home" and k[1] == "hex")
        near = [[int(c, 16) < NEAR_CLASSES for row in parts[(str(r), "hex")].split() for c in row] for r in rounds]
        shares = [sum(n) / len(n) for n in near]
        also = [sum(a and b for a, b in zip(near[i], near[i - 1])) / max(sum(near[i]), 1) for i in range(1, len(near))]
        last = near[-1]
        warps = list(csv.DictReader(io.StringIO(parts[(str(rounds[-1]), "csv")])))
        lines_per_stride = 4 * len(warps)
        order = sorted(warps, key=lambda w: int(w["endNs"]) - int(w["startNs"]))
        fifth = {int(w["warp"]): i * 5 // len(order) for i, w in enumerate(order)}
        kept, total = [0] * 5, [0] * 5
        for line, is_near in enumerate(last):
            f = fifth[(line % lines_per_stride) // 4]
            kept[f] += is_near
            total[f] += 1
        n = len(last)
        tenths = [sum(last[k * n // 10 : (k + 1) * n // 10]) / (n // 10) for k in range(10)]
        print(
            f"{run:20}  {' '.join(f'{s:.3f}' for s in shares):20}  {' '.join(f'{a:.2f}' for a in also):26}  "
            f"{' '.join(f'{k / t:.2f}' for k, t in zip(kept, total)):28}  {' '.join(f'{t:.2f}' for t in tenths)}"
        )


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
    if len(sys.argv) != 2:
        sys.exit("usage: keptLines.py <lines.txz>")
    main(sys.argv[1])
