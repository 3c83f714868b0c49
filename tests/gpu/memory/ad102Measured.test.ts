/**
 * The `rtx6000ada` profile against the AD102 measurements that are public: the NVIDIA L40 (the
 * same die and configuration as the RTX 6000 Ada — 142 SMs, 96 MB L2, GDDR6) in the RRZE-HPC
 * gpu-benches (github.com/te42kyfo/gpu-benches: gpu-latency/l40.txt, gpu-cache/l40.txt,
 * gpu-l2-cache/l40.txt, gpu-stream/l40.txt, measured at 2,490 MHz, 864 GB/s). Per-SM figures are
 * compared per SM cycle (the clocks differ: 2,490 against 2,505 MHz), DRAM latency in ns and DRAM
 * bandwidth as a fraction of the peak (864 against 960 GB/s). The rows are reruns of the
 * benchmarks through the same closed loop as the H200 rows (gpu/memory/warpLoop.ts).
 */
import { describe, expect, it } from 'vitest';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { runLoop, type LoopOptions, type LoopResult } from '../../../gpu/memory/warpLoop.ts';

const profile = memoryProfile('rtx6000ada');
const MiB = 2 ** 20;
const perCycle = (result: LoopResult): number => (result.GBps * 1000) / profile.sm.clockMHz;

const rows: readonly {
  readonly name: string;
  readonly l40: number;
  readonly run: LoopOptions;
  readonly model: (result: LoopResult) => number;
}[] = [
  {
    // gpu-latency: one warp's pointer walk, 36.0–36.3 cycles at 8–84 kB.
    name: 'L1 hit latency, cycles',
    l40: 36.0,
    run: { pattern: 'chase', bytes: 16 * 1024, warm: true, loads: 2000 },
    model: (r) => (r.nsPerLoad! * profile.sm.clockMHz) / 1000,
  },
  {
    // gpu-latency: 276.5 cycles from 0.2 to 27 MB.
    name: 'L2 hit latency at 16 MiB, cycles',
    l40: 276.5,
    run: { pattern: 'chase', bytes: 16 * MiB, warm: true, loads: 2000 },
    model: (r) => (r.nsPerLoad! * profile.sm.clockMHz) / 1000,
  },
  {
    // gpu-latency: 631.7 cycles at 2,490 MHz over a 702 MB walk = 253.7 ns.
    name: 'DRAM latency over 1 GiB, ns',
    l40: 253.7,
    run: { pattern: 'chase', bytes: 1024 * MiB, loads: 2000 },
    model: (r) => r.nsPerLoad!,
  },
  {
    // gpu-cache: one block of 256 threads per SM re-reading an L1-resident buffer with 4-byte
    // loads, 22,620 GB/s = 64.0 B per SM cycle on 142 SMs at 2,490 MHz.
    name: 'L1 read bandwidth (4-byte loads, 8 warps per SM), B per SM cycle',
    l40: 64.0,
    run: { pattern: 'stride', strideBytes: 4, bytes: 16 * 1024, warpsPerSm: 8, inFlight: 8, loadsPerThread: 256 },
    model: (r) => perCycle(r) / profile.sm.count,
  },
  {
    // gpu-l2-cache: all SMs reading an L2-resident buffer, 5,100–5,330 GB/s from 1.5 to 92 MB
    // (≈ 5,200) = 2,088 B per cycle at 2,490 MHz.
    name: 'L2 read bandwidth at 16 MiB, B per cycle',
    l40: 2088,
    run: { pattern: 'stream', bytes: 16 * MiB, warm: true, totalBytes: 16 * MiB },
    model: perCycle,
  },
  {
    // gpu-stream: the read kernel at full occupancy, 844 of 864 GB/s.
    name: 'DRAM read bandwidth, fraction of the peak',
    l40: 844 / 864,
    run: { pattern: 'stream', bytes: 1024 * MiB, totalBytes: 32 * MiB },
    model: (r) => r.GBps / profile.dram.bandwidthGBps,
  },
];

describe('rtx6000ada profile against the L40 (AD102) measurements', () => {
  it.each(rows.map((row) => ({ ...row, label: row.name })))('$label within 5 %', (row) => {
    const model = row.model(runLoop(profile, row.run));
    expect(Math.abs(model / row.l40 - 1), `model ${model.toFixed(2)}, L40 ${row.l40}`).toBeLessThan(0.05);
  });
});
