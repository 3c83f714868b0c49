/**
 * gpu/probes/loopBody.py reads what each stream loop issues per step off the SASS of the
 * twenty-fifth batch (gpu/probes/README.md, "The bounds-tested loops' LDCs"): the bounds-tested
 * loops reload their pointer parameter with an LDC before each load, the whole-step loops and the
 * one-out bounds-tested loop have none. The twenty-seventh batch's `smconst` (results/2026-12-06d, an
 * H100's SM, which reads these loops as the H200's) put an LDC before each load of the whole-step
 * loop, and read the three loops side by side.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeRecords } from './system/support.ts';

const PROBES = join(import.meta.dirname, '../../gpu/probes');

/** Each kernel's innermost load loop, by the start of its mangled name: [instructions, LDG, LDC]. */
function loopsOf(file: string): [string, [number, number, number]][] {
  const text = execFileSync('python3', [join(PROBES, 'loopBody.py'), join(PROBES, 'results', file)], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return [...text.matchAll(/^\S+ {2}(\S+) {2}(\d+) instructions {2}(\d+) LDG {2}(\d+) LDC$/gm)].map((m) => [
    m[1]!,
    [Number(m[2]), Number(m[3]), Number(m[4])],
  ]);
}

const loops = loopsOf('2026-12-05j/streamLoops.sass');
const loop = (prefix: string) => loops.find(([name]) => name.startsWith(prefix))?.[1];
const SMCONST = '2026-12-06d';

it('counts an LDC before each load in the bounds-tested loops and none in the whole-step ones', () => {
  expect(loop('_Z12streamListedILi4E')).toEqual([52, 4, 5]);
  expect(loop('_Z12streamListedILi2E')).toEqual([28, 2, 2]);
  expect(loop('_Z11streamOnSms')).toEqual([50, 4, 5]);
  expect(loop('_Z11streamFixedILi4E')).toEqual([51, 4, 4]);
  expect(loop('_Z10streamDeepILi4E')).toEqual([28, 4, 0]);
  expect(loop('_Z10streamDeepILi2E')).toEqual([15, 2, 0]);
});

it('counts no LDC in the one-out bounds-tested loop, which reads as the whole-step one', () => {
  expect(loop('_Z12streamListedILi1E')).toEqual([10, 1, 0]);
  expect(loop('_Z10streamDeepILi1E')).toEqual([9, 1, 0]);
});

it('counts an LDC before each load in the whole-step loop built with one (smconst)', () => {
  const built = loopsOf(`${SMCONST}/streamLoops.sass`);
  const of = (prefix: string) => built.find(([name]) => name.startsWith(prefix))?.[1];
  expect(of('_Z15streamDeepConstILi1E')).toEqual([12, 1, 1]);
  expect(of('_Z15streamDeepConstILi4E')).toEqual([39, 4, 4]);
  expect(of('_Z15streamDeepConstILi8E')).toEqual([75, 8, 8]);
  expect(of('_Z10streamDeepILi4E')).toEqual([28, 4, 0]);
});

describe("the LDCs' share of the bounds-tested loop's slowness (smconst)", () => {
  /** GB/s of one SM's loop by probe, level, warps and loads out: the mean of the step's two rounds. */
  const rate = (() => {
    const rows = probeRecords(SMCONST, 'smConst.jsonl');
    return (probe: string, level: 'DRAM' | 'L2', warps: number, inFlight: number): number => {
      const runs = rows.filter(
        (row) =>
          row.probe === probe &&
          Number(row.footprintBytes) >= 2 ** 30 === (level === 'DRAM') &&
          (Number(row.blocksPerSm) * Number(row.threads)) / 32 === warps &&
          row.inFlight === inFlight,
      );
      expect(runs, `${probe} ${level} ${warps} × ${inFlight}`).toHaveLength(2);
      return runs.reduce((sum, row) => sum + Number(row.GBps), 0) / runs.length;
    };
  })();
  /** How much of the bounds-tested loop's shortfall against the whole-step loop the LDCs alone give. */
  const share = (level: 'DRAM' | 'L2', warps: number, inFlight: number): number =>
    (rate('smdepth', level, warps, inFlight) - rate('smconst', level, warps, inFlight)) /
    (rate('smdepth', level, warps, inFlight) - rate('smstream', level, warps, inFlight));

  it.each([
    ['DRAM', 8, 8],
    ['L2', 8, 8],
    ['L2', 64, 2],
  ] as const)('give most of it where few warps keep many loads out: %s, %i warps × %i', (level, warps, inFlight) => {
    expect(share(level, warps, inFlight)).toBeGreaterThan(0.8);
  });

  it.each([
    ['DRAM', 64, 4],
    ['L2', 32, 4],
    ['L2', 32, 8],
  ] as const)("give under half of it at the SM's ceiling: %s, %i warps × %i", (level, warps, inFlight) => {
    expect(share(level, warps, inFlight)).toBeLessThan(0.5);
  });
});
