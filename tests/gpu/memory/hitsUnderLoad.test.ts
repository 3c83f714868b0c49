/**
 * A walk's loads beside the other SMs' stream (gpu/probes/hitsUnderLoad.cu, results/2026-12-08b, an
 * H100; gpu/probes/README.md, "Forty-fourth batch"), on the `h200` profile. One thread on SM 0 walks
 * 4 MiB of lines (L2 hits) or 1 GiB (reads from DRAM) one load at a time while SMs 1–131 stream 16 MiB
 * (every read an L2 hit) or 1 GiB (every read from DRAM), with SM 0's other blocks idle (lone) or
 * streaming too (shared). On silicon the walk's hits take what they take alone beside the L2-bound
 * stream, and its reads from DRAM a quarter more than alone beside the DRAM-bound one, on its own SM
 * among streaming warps as on an idle one, while the stream's own steps take microseconds: the
 * stream's backlog is in no queue the walk's load joins. The model's slices and DRAM channels serve
 * every request first come, first served: there the walk's load waits its turn behind the stream's.
 * The rows under a stream are held as known misses to the factor they miss by.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GPU_MEMORY_PROFILES } from '../../../gpu/memory/profiles.ts';
import { runLoop, type LoopOptions } from '../../../gpu/memory/warpLoop.ts';

const MiB = 2 ** 20;
const h200 = GPU_MEMORY_PROFILES.h200!;

interface SiliconWalk {
  readonly walkBytes: number;
  readonly streamBytes: number;
  readonly walkSmStreams: boolean;
  readonly meanCycles: number;
  readonly p50: number;
  readonly streamBlocks: number;
  readonly startedBlocks: number;
  readonly cappedWarps: number;
}

const silicon: SiliconWalk[] = readFileSync(
  join(import.meta.dirname, '../../../gpu/probes/results/2026-12-08b/hitsUnder.jsonl'),
  'utf8',
)
  .split('\n')
  .filter((line) => line.startsWith('{'))
  .map((line) => JSON.parse(line) as SiliconWalk);

/** Silicon's row of a walk of `walkMiB` beside a stream of `streamMiB` (0: none), its SM streaming or not. */
function siliconRow(walkMiB: number, streamMiB: number, shared = false): SiliconWalk {
  const row = silicon.find(
    (r) => r.walkBytes === walkMiB * MiB && r.streamBytes === streamMiB * MiB && r.walkSmStreams === shared,
  );
  expect(row, `${walkMiB} MiB walk, ${streamMiB} MiB stream${shared ? ', shared' : ''}`).toBeDefined();
  // Every stream block had started before the walk's timed steps, and none stopped early.
  expect(row!.startedBlocks).toBe(row!.streamBlocks === 0 ? 1048 : row!.streamBlocks);
  expect(row!.cappedWarps).toBe(0);
  return row!;
}

/** The model's median round trip, cycles, of a walk of `walkMiB` on SM 0 while SMs 1–131 (and SM 0 with `shared`) stream `streamMiB` over 256 MiB. */
function modelP50(walkMiB: number, streamMiB: number, shared: boolean): number {
  const result = runLoop(h200, {
    pattern: 'stream',
    bytes: streamMiB * MiB,
    totalBytes: 256 * MiB,
    sms: Array.from({ length: h200.sm.count - (shared ? 0 : 1) }, (_, i) => i + (shared ? 0 : 1)),
    walk: { sm: 0, bytes: walkMiB * MiB },
  });
  expect(result.walk!.loads).toBeGreaterThan(20);
  return result.walk!.p50;
}

const WALK_REASON =
  "the model's slices and DRAM channels serve every SM's requests first come, first served, so the walk's load waits behind the stream's backlog; on silicon it joins no queue of the stream's, on its own SM among streaming warps as on an idle one (the forty-fourth batch)";

describe("a walk's loads beside the other SMs' stream (hitsUnderLoad, an H100)", () => {
  it('reads the walk alone in the model as on silicon, within 10 %: from the L2 and from DRAM', () => {
    for (const [mib, warm] of [
      [4, true],
      [1024, false],
    ] as const) {
      const chase = runLoop(h200, { pattern: 'chase', bytes: mib * MiB, warm, loads: 2000 });
      const cycles = (chase.nsPerLoad! * h200.sm.clockMHz) / 1000;
      expect(Math.abs(cycles / siliconRow(mib, 0).meanCycles - 1), `${mib} MiB`).toBeLessThan(0.1);
    }
  });

  it('waits on silicon as alone beside the L2-bound stream, and a quarter more from DRAM beside the DRAM-bound one, whether its SM streams or not', () => {
    for (const shared of [false, true]) {
      expect(siliconRow(4, 16, shared).p50 / siliconRow(4, 0).p50, `${shared}`).toBeLessThan(1.06);
      expect(siliconRow(1024, 16, shared).p50 / siliconRow(1024, 0).p50, `${shared}`).toBeLessThan(1.05);
      const fromDram = siliconRow(1024, 1024, shared).p50 / siliconRow(1024, 0).p50;
      expect(fromDram, `${shared}`).toBeGreaterThan(1.15);
      expect(fromDram, `${shared}`).toBeLessThan(1.4);
    }
  });

  it(`holds as a known miss the L2-bound stream's: the model's hits wait 3–5 times silicon's (${WALK_REASON})`, () => {
    for (const shared of [false, true]) {
      const ratio = modelP50(4, 16, shared) / siliconRow(4, 16, shared).p50;
      expect(ratio, `${shared}`).toBeGreaterThan(3);
      expect(ratio, `${shared}`).toBeLessThan(5);
    }
  }, 60_000);

  it(`holds as a known miss the DRAM-bound stream's: the model's reads from DRAM wait 2–3.5 times silicon's (${WALK_REASON})`, () => {
    for (const shared of [false, true]) {
      const ratio = modelP50(1024, 1024, shared) / siliconRow(1024, 1024, shared).p50;
      expect(ratio, `${shared}`).toBeGreaterThan(2);
      expect(ratio, `${shared}`).toBeLessThan(3.5);
    }
  }, 90_000);
});

describe('a lone walk asked for wrongly', () => {
  const stream: LoopOptions = { pattern: 'stream', bytes: 16 * MiB, sms: [1, 2] };
  it('names the field: a walk beside no stream, on an SM that does not exist, of under two lines', () => {
    expect(() => runLoop(h200, { pattern: 'chase', bytes: 4 * MiB, walk: { sm: 0, bytes: 4096 } })).toThrow(
      /^walk a lone walk runs beside a stream, not a chase/,
    );
    expect(() => runLoop(h200, { ...stream, walk: { sm: 132, bytes: 4096 } })).toThrow(/walk\.sm 132/);
    expect(() => runLoop(h200, { ...stream, walk: { sm: 0, bytes: 128 } })).toThrow(
      /walk\.bytes 128: give 2 … 8388608 lines/,
    );
  });
});
