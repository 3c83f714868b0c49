#!/usr/bin/env python3
# Reads which L2 partition each line of the stream's buffer is homed in off the line maps of
# `h200Batch.sh linepasses` (lines.txz), and how the warps' times go with their lines' homes.
#
# After launches of three passes by SM 0's partition at 56 MiB the walk finds almost nothing near
# (0.5 %): the other partition, whose SMs read nothing, keeps its home half and serves it across
# the link (a far hit, classes 5-8), and SM 0's own lines come from DRAM (classes 9 and up). So
# that map is a map of homes; each run allocates its buffer afresh, and the 40 MiB runs' map after
# launches of one pass (0.6 % near) gives the same homes for their 40 MiB. It prints:
#   - how pure the home is over aligned blocks of 8 to 64 lines (the granule is the largest pure one);
#   - the parity of block-number bits that gives the home within each 2 MiB page, and its fit;
#   - for every run of SM 0's partition, the correlation over its warps between the share of the
#     warp's lines homed near (the fixed stream's chunks g, g + warps, ... of 512 bytes) and the
#     warp's time, all passes and the first (where the run wrote pass ends).
# Usage: python3 gpu/probes/homeMap.py gpu/probes/results/2026-12-04i/lines.txz [home map] [other map]
# (the maps default to near-56-3-0.hex and near-40-1-0.hex; `homemap` on an H100, whose partitions
# hold less, gives near-40-1-0.hex and near-32-1-0.hex)
import csv, io, re, signal, statistics, sys, tarfile

from linesArchive import FAR_HIT, read_lines_archive

HOME_MAP = "near-56-3-0.hex"
OTHER_MAP = "near-40-1-0.hex"
CHUNK_BYTES = 512
LINE_BYTES = 128
PAGE_BLOCKS = 512


def classes(text):
    return [int(digit, 16) for row in text.split() for digit in row]


def block_homes(line_classes, lines_per_block):
    """Per aligned block: 1 when most of its lines came from DRAM (homed near), and the majority's share."""
    homes, purity = [], []
    for start in range(0, len(line_classes), lines_per_block):
        block = line_classes[start : start + lines_per_block]
        near = sum(1 for c in block if c > FAR_HIT[-1])
        far = sum(1 for c in block if c in FAR_HIT)
        homes.append(1 if near > far else 0)
        purity.append(max(near, far) / len(block))
    return homes, purity


def parity(x):
    return bin(x).count("1") & 1


def correlation(a, b):
    ma, mb = statistics.mean(a), statistics.mean(b)
    num = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    return num / (sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b)) ** 0.5


def main(path, home_map=HOME_MAP, other_map=OTHER_MAP):
    files = read_lines_archive(path)
    missing = [name for name in (home_map, other_map) if name not in files]
    if missing:
        sys.exit(f"homeMap.py: {path}: no map {', '.join(missing)} (it has {', '.join(sorted(files)) or 'none'})")
    line_classes = classes(files[home_map])
    print(f"{home_map}: {len(line_classes)} lines")
    for lines_per_block in (8, 16, 32, 64):
        _, purity = block_homes(line_classes, lines_per_block)
        purity.sort()
        print(
            f"  blocks of {lines_per_block * LINE_BYTES} B: purity median {purity[len(purity) // 2]:.3f}, "
            f"tenth percentile {purity[len(purity) // 10]:.3f}"
        )
    granule_lines = 4096 // LINE_BYTES
    homes, _ = block_homes(line_classes, granule_lines)
    other, _ = block_homes(classes(files[other_map]), granule_lines)
    same = sum(1 for a, b in zip(homes, other) if a == b) / len(other)
    print(f"  {other_map}'s 4 KiB homes: {same:.4f} the same")
    best = None
    for mask in range(PAGE_BLOCKS):
        agree, constants = 0, []
        for page in range(0, len(homes), PAGE_BLOCKS):
            blocks = homes[page : page + PAGE_BLOCKS]
            same = sum(1 for i, h in enumerate(blocks) if parity(i & mask) == h)
            agree += max(same, len(blocks) - same)
            constants.append(0 if same >= len(blocks) - same else 1)
        if best is None or agree > best[0]:
            best = (agree, mask, constants)
    agree, mask, constants = best
    print(
        f"  4 KiB homes within a 2 MiB page: parity of block bits {bin(mask)} (address bits "
        f"{[12 + b for b in range(9) if mask >> b & 1]}), {agree / len(homes):.4f} of the blocks; "
        f"each page's constant: {''.join(map(str, constants))}"
    )
    print("run (SMs-MiB-passes-round)  warps  near share of a warp's lines: mean, sd  corr with its time: all passes, first")
    for name in sorted(files):
        match = re.fullmatch(r"near-(\d+)-(\d+)-(\d+)\.csv", name)
        if not match or int(match.group(1)) > len(line_classes) * LINE_BYTES // 2**20:
            continue
        footprint = int(match.group(1)) * 2**20
        warps = list(csv.DictReader(io.StringIO(files[name])))
        shares, totals, firsts = [], [], []
        for warp in warps:
            chunk, near, count = int(warp["warp"]), 0, 0
            while chunk * CHUNK_BYTES < footprint:
                near += homes[chunk * CHUNK_BYTES // 4096]
                count += 1
                chunk += len(warps)
            start = int(warp["startNs"])
            shares.append(near / count)
            totals.append(int(warp["endNs"]) - start)
            firsts.append(int(warp["pass0EndNs"]) - start if "pass0EndNs" in warp else None)
        first = f"{correlation(shares, firsts):+.2f}" if firsts[0] is not None else "-"
        print(
            f"{name[5:-4]:>10}  {len(warps)}  {statistics.mean(shares):.3f} {statistics.pstdev(shares):.3f}  "
            f"{correlation(shares, totals):+.2f} {first}"
        )


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
    if not 2 <= len(sys.argv) <= 4:
        sys.exit("usage: python3 gpu/probes/homeMap.py <lines.txz> [home map] [other map]")
    try:
        main(*sys.argv[1:])
    except OSError as error:
        sys.exit(f"homeMap.py: {error.filename}: {error.strerror}")
    except tarfile.TarError:
        sys.exit(f"homeMap.py: {sys.argv[1]}: not a lines archive (a tar of the maps)")
