/**
 * A warp's round trip by the loads it keeps out, 1 to 16 (gpu/probes/README.md, "Twenty-fifth
 * batch" and "Twenty-sixth batch"): `l2Partitions smdepth` on SM 0 of the H200 (results/2026-12-06),
 * whose loop issues a step's loads before it uses any, as the model's warps do. The same step had
 * run on an H100 first (results/2026-12-05j), and every row of it is the H200's within 10 %: the SM is
 * the same GH100 SM. The rows hold the `h200` profile's growth with loads out (each row's round trip
 * over the same warps' one-out round trip). Below one SM's ceiling the model's growth is silicon's
 * within 10 %; past the model's ceiling silicon's deep loops read far more, held as misses that
 * must still miss.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { runLoop, type LoopOptions } from '../../../gpu/memory/warpLoop.ts';
import { PROBE_RESULTS, probeRecords } from '../system/support.ts';

const RESULTS = '2026-12-06';
/** The twenty-fifth batch's rows of the same step on an H100. */
const H100_DEPTH = ['2026-12-05j', 'smDepth.jsonl'] as const;
const MiB = 2 ** 20;
const GiB = 2 ** 30;
const WARP_LOAD_BYTES = 512;
/** The bytes a lone SM's warps ask at once below which neither the model's miss queue nor its line rate binds. */
const BELOW_CEILING_BYTES = 32 * 1024;

interface DepthRow {
  readonly probe: 'smdepth' | 'smstream';
  readonly level: 'DRAM' | 'L2';
  readonly warps: number;
  readonly inFlight: number;
  readonly gbps: number;
}

/** One SM's (SM 0's) rows of an `l2Partitions` JSON-lines file (results/RUN/FILE); refusals (blocks that do not fit) are skipped. */
function streamRows(run: string, file: string): DepthRow[] {
  return probeRecords(run, file)
    .filter((row) => row.list === '0')
    .map((row) => ({
      probe: row.probe === 'smdepth' ? 'smdepth' : 'smstream',
      level: Number(row.footprintBytes) >= GiB ? 'DRAM' : 'L2',
      warps: (Number(row.blocksPerSm) * Number(row.threads)) / 32,
      inFlight: Number(row.inFlight),
      gbps: Number(row.GBps),
    }));
}

const h200 = memoryProfile('h200');
/**
 * The probe's run on the model: 16 MiB of a 1 GiB footprint from DRAM, or one pass over 24 MiB after
 * a warm one from the L2. One SM reaches its steady state at once: 64 MiB or three passes give the
 * same rates within 1 % at three times the CPU.
 */
function modelRun(row: Pick<DepthRow, 'level' | 'warps' | 'inFlight'>): LoopOptions {
  const common = { pattern: 'stream', sms: [0], warpsPerSm: row.warps, inFlight: row.inFlight } as const;
  return row.level === 'DRAM'
    ? { ...common, bytes: GiB, totalBytes: 16 * MiB }
    : { ...common, bytes: 24 * MiB, warm: true, totalBytes: 24 * MiB, mapping: 'fixed' };
}

/** The bytes a lone SM's warps keep out: each warp's loads of 512 B. */
const asked = (row: DepthRow) => row.warps * row.inFlight * WARP_LOAD_BYTES;
/** Little's law: those bytes over the rate, ns. */
const roundTripNs = (row: DepthRow, gbps: number) => asked(row) / gbps;

const measured = streamRows(RESULTS, 'smDepth.jsonl');
/** The deep loops' rows that read past the model's one-SM ceiling: [level, warps, loads out]. */
const CEILING_MISSES: readonly (readonly [DepthRow['level'], number, number])[] = [
  ['DRAM', 16, 16],
  ['DRAM', 32, 8],
  ['DRAM', 32, 12],
  ['DRAM', 64, 4],
  ['L2', 16, 8],
  ['L2', 16, 12],
  ['L2', 16, 16],
  ['L2', 32, 4],
  ['L2', 32, 8],
  ['L2', 32, 12],
  ['L2', 64, 2],
  ['L2', 64, 4],
];
/**
 * Below the ceiling, the row whose growth the model misses by more than 10 %. A warp's later
 * loads of a step cost it ≈ 16 cycles each from the L2 (four warps × 16 out: silicon's round trip
 * 1.72 times the one-out's, the model's 1.91), where the model spaces them 21 cycles apart
 * (lsuBytesPerCyclePerSubCore, read off DRAM streams of four out). From DRAM they cost ≈ 37 each
 * (four warps × 12 out: 1.54); the model's 1.39 is just within 10 % since its lines are homed in
 * 4 KiB blocks (1.37 with the slice hash's homes). On the H100 that row is 1.45: its one-out round
 * trip is 402 ns against the H200's 379, and the twelve-out one the same 582–584.
 */
const GROWTH_MISSES = [{ level: 'L2', warps: 4, inFlight: 16, tolerance: 0.15 }] as const;
const rows = measured.filter((row) => row.probe === 'smdepth');
const oneOut = (row: DepthRow) =>
  rows.find((other) => other.level === row.level && other.warps === row.warps && other.inFlight === 1)!;
const modelRates = new Map<DepthRow, number>();
/** The model's rate for a row, run once per row (a DRAM row is a second or two of CPU). */
function modelGbps(row: DepthRow): number {
  let gbps = modelRates.get(row);
  if (gbps === undefined) modelRates.set(row, (gbps = runLoop(h200, modelRun(row)).GBps));
  return gbps;
}
/** A row's round trip over its warps' one-out round trip: [silicon, model]. */
function growth(row: DepthRow): [number, number] {
  const base = oneOut(row);
  return [
    roundTripNs(row, row.gbps) / roundTripNs(base, base.gbps),
    roundTripNs(row, modelGbps(row)) / roundTripNs(base, modelGbps(base)),
  ];
}
const label = (row: DepthRow) => `from ${row.level}, ${row.warps} warps × ${row.inFlight} out`;

describe("a warp's round trip by its loads out (smdepth, the H200's SM 0)", () => {
  it('the probe loops keep every load of a step out (loadWindow.py on their SASS)', () => {
    const windows = readFileSync(join(PROBE_RESULTS, RESULTS, 'loadWindow.txt'), 'utf8');
    for (const n of [1, 2, 4, 8, 12, 16]) expect(windows).toMatch(new RegExp(`streamDeepILi${n}E\\S*\\s+${n} out`));
    expect(rows.filter((row) => row.inFlight === 12).length).toBeGreaterThanOrEqual(4);
  });

  it("the H100's rows of the same step are the H200's within 10 % (both loops, both levels)", () => {
    const pairs = streamRows(...H100_DEPTH).flatMap((h100) => {
      const h200 = measured.find(
        (row) =>
          row.probe === h100.probe &&
          row.level === h100.level &&
          row.warps === h100.warps &&
          row.inFlight === h100.inFlight,
      );
      return h200 ? [{ h200, h100 }] : [];
    });
    expect(pairs.length).toBeGreaterThanOrEqual(90);
    for (const { h200, h100 } of pairs)
      expect(
        Math.abs(h100.gbps / h200.gbps - 1),
        `${h200.probe} ${label(h200)}: H100 ${h100.gbps}, H200 ${h200.gbps} GB/s`,
      ).toBeLessThan(0.1);
  });

  const below = rows.filter((row) => row.inFlight > 1 && asked(row) <= BELOW_CEILING_BYTES);
  it.each(below.map((row) => ({ ...row, name: label(row) })))(
    'below the ceiling, $name: the round trip grows as silicon within 10 % (or its known miss)',
    (row) => {
      const [silicon, model] = growth(row);
      const miss = GROWTH_MISSES.find(
        (known) => row.level === known.level && row.warps === known.warps && row.inFlight === known.inFlight,
      );
      if (miss) {
        expect(Math.abs(model / silicon - 1)).toBeGreaterThan(0.1);
        expect(Math.abs(model / silicon - 1)).toBeLessThan(miss.tolerance);
        return;
      }
      expect(Math.abs(model / silicon - 1), `silicon ×${silicon.toFixed(2)}, model ×${model.toFixed(2)}`).toBeLessThan(
        0.1,
      );
    },
    120_000,
  );

  // One SM's ceiling: the model stops one SM at ≈ 137 GB/s from DRAM (its miss queue of 1,424
  // sectors, read off smstream's loops, which the same warps and loads out in whole steps pass by
  // 72 % at 64 warps × 4) and ≈ 189 from the L2; silicon's deep loops read 182–245 in these rows
  // (docs/system-model.md, "A warp's loads out").
  const ceiling = rows.filter((row) =>
    CEILING_MISSES.some(
      ([level, warps, inFlight]) => row.level === level && row.warps === warps && row.inFlight === inFlight,
    ),
  );
  it('every named ceiling miss was measured', () => expect(ceiling).toHaveLength(CEILING_MISSES.length));
  it.each(ceiling.map((row) => ({ ...row, name: label(row) })))(
    'known miss, one SM ceiling, $name: silicon reads at least 15 % more than the model',
    (row) => {
      const model = modelGbps(row);
      expect(row.gbps / model - 1, `silicon ${row.gbps} GB/s, model ${model.toFixed(1)}`).toBeGreaterThan(0.15);
    },
    120_000,
  );
});
