/**
 * The same loads in flight spread over more or fewer SMs (gpu/probes/README.md, "Twenty-ninth
 * batch"): `l2Partitions smdepth` (whole steps) with a fixed total of 128, 256 or 512 warps on
 * 8 … 128 SMs, and 4 warps an SM on 8 … 128 SMs, from DRAM and from the L2, on an H100 (4 loads
 * out a warp: results/2026-12-06l; 1 and 2 out: 2026-12-06m; no H200 came for it). A kernel's lone
 * blocks wait longer on larger grids (iterationParts.test.ts); these rows ask whether a load's
 * round trip follows the SMs that ask or only what is in flight. Silicon's follows what is in
 * flight, and so does the model's; but silicon's steps of four loads slow down from the least
 * traffic on, where its single loads and the model's steps do not.
 */
import { describe, expect, it } from 'vitest';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { runLoop } from '../../../gpu/memory/warpLoop.ts';
import { H200_SILICON_ROWS } from '../h200Silicon.ts';
import { spreadBytesOut, spreadRows, type SpreadConfiguration, type SpreadRow } from '../system/support.ts';

const MiB = 2 ** 20;
const GiB = 2 ** 30;
/** A round trip on every number of SMs at one total stays this close to the total's median. */
const SAME_TOTAL = 0.03;

/** As the step lists them: one SM of each TPC while there are TPCs enough, else SMs 0 … S − 1. */
function spreadList(sms: number): number[] {
  return Array.from({ length: sms }, (_, i) => (sms <= 66 ? 2 * Math.floor((i * 66) / sms) : i));
}

const h200 = memoryProfile('h200');
/** Each configuration's model run, once (a run is half a second of CPU or more). */
const modelRuns = new Map<string, number>();
/**
 * The model's round trip in the same configuration: 32 MiB of the 1 GiB footprint from DRAM (within
 * 1.5 % of 128 MiB), or one pass over 24 MiB after a warm one from the L2.
 */
function modelRoundTripNs(row: SpreadConfiguration): number {
  const key = `${row.level} ${row.sms} ${row.warpsPerSm} ${row.inFlight}`;
  let ns = modelRuns.get(key);
  if (ns === undefined) {
    const common = { pattern: 'stream', sms: spreadList(row.sms), warpsPerSm: row.warpsPerSm } as const;
    const { GBps } = runLoop(
      h200,
      row.level === 'DRAM'
        ? { ...common, inFlight: row.inFlight, bytes: GiB, totalBytes: 32 * MiB }
        : { ...common, inFlight: row.inFlight, bytes: 24 * MiB, warm: true, totalBytes: 24 * MiB, mapping: 'fixed' },
    );
    modelRuns.set(key, (ns = spreadBytesOut(row) / GBps));
  }
  return ns;
}

const silicon = [...spreadRows('2026-12-06l'), ...spreadRows('2026-12-06m')];
const total = (row: SpreadConfiguration) => row.sms * row.warpsPerSm;
function find(configuration: SpreadConfiguration): SpreadRow {
  const row = silicon.find(
    (r) =>
      r.level === configuration.level &&
      r.sms === configuration.sms &&
      r.warpsPerSm === configuration.warpsPerSm &&
      r.inFlight === configuration.inFlight,
  );
  if (!row) throw new Error(`no spread row of ${JSON.stringify(configuration)}`);
  return row;
}
/** The largest departure of a set of round trips from their median. */
function departure(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return Math.max(...sorted.map((value) => Math.abs(value / median - 1)));
}
const LEVELS = ['DRAM', 'L2'] as const;
/** 4 warps an SM on 8 and on 32 SMs: 16 and 64 KiB of single loads in flight, 64 and 256 KiB of steps of four. */
const fewAndMore = (inFlight: number) =>
  [8, 32].map((sms) => find({ level: 'DRAM', sms, warpsPerSm: 4, inFlight })) as [SpreadRow, SpreadRow];

describe('the same loads in flight on more or fewer SMs (spread, an H100)', () => {
  it('holds every configuration the step ran, both rounds, at 1, 2 and 4 loads out', () => {
    expect(silicon).toHaveLength(90);
  });

  // 16 warps on one SM wait longer at the L2 (+3 … +8 % on silicon at 4 out, +4 … +10 % in the
  // model: its sub-cores' issue), so the comparison by SMs keeps to 1 … 8 warps an SM.
  it.each(LEVELS.flatMap((level) => [1, 2, 4].map((inFlight) => ({ level, inFlight }))))(
    "from $level with $inFlight out, silicon's round trip at a fixed total is the same on every number of SMs (within 3 %)",
    ({ level, inFlight }) => {
      for (const warps of [128, 256, 512]) {
        const rows = silicon.filter(
          (row) => row.level === level && row.inFlight === inFlight && total(row) === warps && row.warpsPerSm <= 8,
        );
        expect(rows.length).toBeGreaterThanOrEqual(2);
        expect(
          departure(rows.map((row) => row.roundTripNs)),
          rows.map((row) => `${row.sms} SMs ${row.roundTripNs.toFixed(0)} ns`).join(', '),
        ).toBeLessThan(SAME_TOTAL);
      }
    },
  );

  it.each(LEVELS)(
    "from %s with 4 out, so is the model's: 128 warps on 32, 64 and 128 SMs, 512 on 64 and 128",
    (level) => {
      for (const configurations of [
        [
          [32, 4],
          [64, 2],
          [128, 1],
        ],
        [
          [64, 8],
          [128, 4],
        ],
      ]) {
        const ns = configurations.map(([sms, warpsPerSm]) =>
          modelRoundTripNs({ level, sms: sms!, warpsPerSm: warpsPerSm!, inFlight: 4 }),
        );
        expect(departure(ns), ns.map((value) => value.toFixed(0)).join(', ')).toBeLessThan(SAME_TOTAL);
      }
    },
    60_000,
  );

  it("the H100's all-SMs rows of 1 and 2 warps × 4 out are the H200's calibration rows within 2 % (the cards' DRAM differs past them)", () => {
    for (const warpsPerSm of [1, 2]) {
      const h200Row = H200_SILICON_ROWS.find((row) => row.name === `stream 1 GiB, ${warpsPerSm} warps × 4 in flight`)!;
      const h200Ns = spreadBytesOut({ level: 'DRAM', sms: h200.sm.count, warpsPerSm, inFlight: 4 }) / h200Row.silicon;
      const h100Ns = find({ level: 'DRAM', sms: 128, warpsPerSm, inFlight: 4 }).roundTripNs;
      expect(Math.abs(h100Ns / h200Ns - 1), `H100 ${h100Ns.toFixed(0)} ns, H200 ${h200Ns.toFixed(0)} ns`).toBeLessThan(
        0.02,
      );
    }
  });

  it("single loads from DRAM: silicon's round trip and the model's are flat within 3 % from 16 to 64 KiB in flight, the model's within 10 % of silicon's", () => {
    const rows = fewAndMore(1);
    const model = rows.map(modelRoundTripNs);
    expect(rows[1].roundTripNs / rows[0].roundTripNs).toBeLessThan(1.03);
    expect(model[1]! / model[0]!).toBeLessThan(1.03);
    rows.forEach((row, i) => expect(Math.abs(model[i]! / row.roundTripNs - 1)).toBeLessThan(0.1));
  });

  it("known miss: from DRAM silicon's steps of four loads take 13 % longer at 256 KiB in flight than at 64 (4 warps on 32 and on 8 SMs), the model's no longer; both within 10 % of silicon", () => {
    const rows = fewAndMore(4);
    const model = rows.map(modelRoundTripNs);
    expect(rows[1].roundTripNs / rows[0].roundTripNs).toBeGreaterThan(1.1);
    expect(model[1]! / model[0]!).toBeLessThan(1.02);
    rows.forEach((row, i) =>
      expect(
        Math.abs(model[i]! / row.roundTripNs - 1),
        `model ${model[i]!.toFixed(0)}, silicon ${row.roundTripNs.toFixed(0)} ns`,
      ).toBeLessThan(0.1),
    );
  }, 30_000);
});
