#!/usr/bin/env python3
# Reads Nsight Compute's sector counts as `h200Batch.sh` writes them (l2long and the *ncu steps: a line
# "== NAME", the probe's JSON record, then the metrics of the one profiled launch) and prints, per
# launch, where the sectors its SMs read came from, each per sector read
# (lts__t_sectors_srcunit_tex_op_read):
#   - near: hits in the SMs' own partition (a home line or a copy);
#   - far: hits across the fabric, in the line's home partition (the fabric's read lookups that
#     hit; nan where the launch has no such count);
#   - DRAM: dram__bytes_read / 32;
#   - on chip: near + far;
#   - unlooked: the sectors the fabric brought to a home partition for reading that it looked up
#     neither as a hit nor as a miss (nan where the launch has no such counts). In the far walks
#     (results/2026-12-07q) DRAM is the home's read misses plus these;
# and the record's share of next readers in the same partition, and the profiled launch's GB/s (the
# record's bytes over gpu__time_duration; the record's own GB/s is its timed launches', which the
# profiler's replays of other launches disturb).
# Nsight Compute counts a set of metrics over several replays of the launch, and the replay that
# counts DRAM starts with most or all of the footprint out of the L2 (results/2026-12-07r: one
# footprint from DRAM at 24 MiB, where DRAM counted alone reads none). So a set's DRAM is high by a
# cold start, about what the far walk's unlooked reads are. A launch counted for DRAM alone (the
# dramalone step) prints only DRAM, per sector of the record's bytes; the other columns are nan.
# A block with a record and no counts at all asked for a launch the program never made (dramhistory
# asks for a sixth launch, which rothome, four launches, has not): it prints as not profiled.
# Usage: python3 gpu/probes/sectorShares.py <ncu text>...
import json, re, signal, sys

METRIC = re.compile(r"^\s+([a-z_]+__\S+)\s+(\S+)\s+([\d,.]+)$", re.M)
# Nsight Compute scales bytes to the unit it prints.
BYTES = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9}
SECTOR_BYTES = 32
REQUIRED = (
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
    "dram__bytes_read.sum",
)


def shares(path, block):
    """(name, record or None, GB/s or None, near, far, DRAM, unlooked) of one "== " block of `path`."""
    name = block.splitlines()[0].strip()
    try:
        record = next((json.loads(line) for line in block.splitlines() if line.startswith("{")), None)
    except json.JSONDecodeError as error:
        raise SystemExit(f"{path}: '{name}': its record is not JSON ({error.msg})")
    metric = {}
    for key, unit, value in METRIC.findall(block):
        metric[key] = float(value.replace(",", "")) * BYTES.get(unit, 1)
    if not metric and record:
        return name, record, None, None, None, None, None
    us = metric.get("gpu__time_duration.sum")
    rate = record["bytes"] / us / 1e3 if record and "bytes" in record and us else None
    if set(metric) == {REQUIRED[2]} and record and record.get("bytes"):
        nan = float("nan")
        return name, record, rate, nan, nan, metric[REQUIRED[2]] / record["bytes"], nan
    missing = [key for key in REQUIRED if key not in metric]
    if missing:
        raise SystemExit(f"{path}: '{name}' has no {', '.join(missing)}")
    read = metric[REQUIRED[0]]
    if read == 0:
        raise SystemExit(f"{path}: '{name}' read no sectors")
    near = metric[REQUIRED[1]] / read
    far = metric.get("lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum", float("nan")) / read
    dram = metric[REQUIRED[2]] / SECTOR_BYTES / read
    fabric = [
        metric.get(f"lts__t_sectors_srcunit_ltcfabric_op_read{kind}.sum", float("nan"))
        for kind in ("", "_lookup_hit", "_lookup_miss")
    ]
    unlooked = (fabric[0] - fabric[1] - fabric[2]) / read
    return name, record, rate, near, far, dram, unlooked


def main(paths):
    if not paths:
        raise SystemExit("usage: python3 gpu/probes/sectorShares.py <ncu text>...")
    lines = [f"{'launch':36} {'same':>6} {'GB/s':>7} {'near':>6} {'far':>6} {'DRAM':>6} {'on chip':>7} {'unlooked':>8}"]
    for path in paths:
        try:
            text = open(path, encoding="utf-8").read()
        except OSError as error:
            raise SystemExit(f"{path}: {error.strerror}")
        blocks = re.split(r"^== ", text, flags=re.M)[1:]
        if not blocks:
            raise SystemExit(f"{path}: no launch (a line starting '== ')")
        for block in blocks:
            name, record, rate, near, far, dram, unlooked = shares(path, block)
            if near is None:
                lines.append(f"{name:36} not profiled: the program made no such launch")
                continue
            same = record.get("samePartitionShare") if record else None
            same_text = f"{same:.2f}" if same is not None else "-"
            rate_text = f"{rate:,.0f}" if rate else "-"
            lines.append(f"{name:36} {same_text:>6} {rate_text:>7} {near:6.3f} {far:6.3f} {dram:6.3f} {near + far:7.3f} {unlooked:8.3f}")
    print("\n".join(lines))


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
    main(sys.argv[1:])
