/**
 * The two ways a stream's passes meet the footprint (gpu/memory/warpLoop.ts STREAM_MAPPINGS, the
 * readings gpu/probes/l2Partitions.cu measures on silicon): `rotating` is one grid-stride walk
 * over the total, whole steps of every warp's loads, so a footprint smaller than a step is read
 * past its end and around; `fixed` is whole passes, each load past the footprint not issued, so
 * three passes read exactly three footprints.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { smsOfPartition } from '../../../gpu/memory/smTopology.ts';
import { gridWarpSms, runLoop } from '../../../gpu/memory/warpLoop.ts';
import { probeRecords } from '../system/support.ts';
import { fastCheckSeed } from './seed.ts';
import { withoutRefresh } from './withoutRefresh.ts';

const profile = memoryProfile('h200');
const MiB = 2 ** 20;
/** Bytes of one step of every warp: 132 SMs × 64 warps × 4 loads × 512 bytes. */
const STEP = profile.sm.count * 64 * 4 * 512;

describe('stream mappings', () => {
  it('fixed reads whole passes; rotating whole steps (a 1 MiB footprint, three passes)', () => {
    const footprint = 1 * MiB;
    const run = (mapping: 'fixed' | 'rotating') =>
      runLoop(profile, { pattern: 'stream', bytes: footprint, totalBytes: 3 * footprint, mapping, warm: true });
    expect(run('fixed').bytes).toBe(3 * footprint);
    expect(run('rotating').bytes).toBe(STEP);
  });

  it('over a footprint of several steps, fixed stops each pass at its end and rotating runs on to a whole step', () => {
    const footprint = 20 * MiB;
    const run = (mapping: 'fixed' | 'rotating') => runLoop(profile, { pattern: 'stream', bytes: footprint, mapping });
    expect(run('fixed').bytes).toBe(footprint);
    expect(run('rotating').bytes).toBe(Math.ceil(footprint / STEP) * STEP);
  }, 120_000);
});

describe("the warps' end times (`warpEnds`, as l2Partitions.cu streamsms writes per warp)", () => {
  it('puts the last warp at the timed span and the fifth percentile at or below the median', () => {
    const run = runLoop(profile, { pattern: 'stream', bytes: 4 * MiB, totalBytes: 8 * MiB, mapping: 'fixed' });
    const ends = run.warpEnds!;
    expect(ends.medianNs * ends.last).toBeCloseTo(run.timeNs, 6);
    expect(ends.fifthPercentile).toBeGreaterThan(0);
    expect(ends.fifthPercentile).toBeLessThanOrEqual(1);
    expect(ends.last).toBeGreaterThanOrEqual(1);
    expect(runLoop(profile, { pattern: 'chase', bytes: MiB, loads: 100 }).warpEnds).toBeUndefined();
  });
});

describe('the SMs that run a stream (`sms`, as l2Partitions.cu streamsms)', () => {
  const footprint = 8 * MiB;
  const run = (sms?: number[]) =>
    runLoop(profile, {
      pattern: 'stream',
      bytes: footprint,
      totalBytes: 2 * footprint,
      mapping: 'fixed',
      warm: true,
      ...(sms ? { sms } : {}),
    });

  it("reads the same bytes with any set of SMs; one partition's SMs read them at about half the rate of as many SMs from both", () => {
    const onePartition = smsOfPartition(profile, 0);
    const halfOfEach = [0, 1].flatMap((partition) => smsOfPartition(profile, partition).slice(0, 33));
    const one = run(onePartition);
    const both = run(halfOfEach);
    expect(one.bytes).toBe(2 * footprint);
    expect(both.bytes).toBe(2 * footprint);
    // A partition's slices serve its own SMs' lines and copies: 48 of the 96.
    expect(one.GBps / both.GBps).toBeGreaterThan(0.4);
    expect(one.GBps / both.GBps).toBeLessThan(0.6);
  }, 120_000);

  it('refuses an SM list with a repeat or an SM the profile lacks, naming the option', () => {
    expect(() => run([0, 0])).toThrow(/sms.*distinct SM numbers below 132/);
    expect(() => run([132])).toThrow(/sms.*distinct SM numbers below 132/);
    expect(() => run([])).toThrow(/sms.*none: give distinct SM numbers/);
  });
});

describe("how far apart a warp's loads lie (`loadSpacingBytes`, as l2Partitions.cu's whole-step loop with a spacing)", () => {
  const sms = [0, 2, 4, 6];
  const run = (loadSpacingBytes?: number) =>
    runLoop(profile, {
      pattern: 'stream',
      bytes: 4 * MiB,
      totalBytes: 4 * MiB,
      mapping: 'fixed',
      sms,
      warpsPerSm: 4,
      inFlight: 4,
      ...(loadSpacingBytes === undefined ? {} : { loadSpacingBytes }),
    });

  it("defaults to the grid's warps × 512 B (the grid-stride loop), and reads every byte once at any spacing", () => {
    const grid = sms.length * 4 * 512;
    expect(run(grid).timeNs).toBe(run().timeNs);
    // Cold, each line comes from DRAM once: a line read twice would leave another unread.
    for (const spacing of [512, 2048, grid]) expect(run(spacing).path.bytes.dramToL2).toBe(4 * MiB);
  });

  it("a warp's four loads side by side (2 KiB) wait on DRAM less than loads 8 KiB apart", () => {
    expect(run(512).stepNs!.p50).toBeLessThan(run(8192).stepNs!.p50);
  });

  it("refuses a spacing that is no whole warp's load or does not divide the grid's, naming the option", () => {
    expect(() => run(256)).toThrow(/loadSpacingBytes.*256: give a multiple of 512 that divides the grid's 8192/);
    expect(() => run(1536)).toThrow(/loadSpacingBytes.*1536/);
  });
});

describe("the steps' times (`stepNs`, as l2Partitions.cu smsteps counts them)", () => {
  it("orders its percentiles, and puts a lone warp's single loads from an idle DRAM at its load latency less half a far home (its own partition's 4 KiB blocks) or more (the other's)", () => {
    const lone = runLoop(withoutRefresh('h200'), {
      pattern: 'stream',
      bytes: 1 * MiB,
      sms: [0],
      warpsPerSm: 1,
      inFlight: 1,
    }).stepNs!;
    const latencyNs = (profile.dram.latencyCycles * 1000) / profile.sm.clockMHz;
    const halfFarNs = (profile.l2.partitions!.farExtraCycles * 500) / profile.sm.clockMHz;
    expect(Math.abs(lone.p10 / (latencyNs - halfFarNs) - 1)).toBeLessThan(0.08);
    expect(Math.abs(lone.p90 / (latencyNs + halfFarNs) - 1)).toBeLessThan(0.05);
    const busy = runLoop(profile, { pattern: 'stream', bytes: 8 * MiB }).stepNs!;
    expect(busy.p10).toBeLessThanOrEqual(busy.p50);
    expect(busy.p50).toBeLessThanOrEqual(busy.p90);
    expect(busy.p50).toBeGreaterThan(lone.p50);
    expect(runLoop(profile, { pattern: 'chase', bytes: MiB, loads: 100 }).stepNs).toBeUndefined();
  });
});

describe("the grid's blocks dealt to the SMs in turn (gridWarpSms)", () => {
  it("as the H200's scheduler deals the probe's grid: its first 132 blocks on 116 SMs, its first 264 on all", () => {
    const [map] = probeRecords<{ probe: string; blocks: number; firstSms: number[] }>(
      '2026-12-02',
      'probes.jsonl',
    ).filter((record) => record.probe === 'blockmap');
    const sms = map!.firstSms.slice(0, 264);
    expect(map!.blocks).toBe(1056);
    expect(new Set(sms.slice(0, 132)).size).toBe(116);
    expect(new Set(sms).size).toBe(132);
    // The model's rule: every SM once per 132 blocks; SM by SM, 17 and 33 SMs.
    const model = gridWarpSms([...Array(132).keys()], 64, 8).sm.filter((_, g) => g % 8 === 0);
    expect(new Set(model.slice(0, 132)).size).toBe(132);
  });

  it('puts block b on the (b mod n)-th SM, its warps together, every SM its share', () => {
    const placed = gridWarpSms([5, 9, 2], 16, 8);
    // Blocks 0 … 5 of 8 warps: SMs 5, 9, 2, 5, 9, 2.
    expect([...placed.sm].filter((_, g) => g % 8 === 0)).toEqual([5, 9, 2, 5, 9, 2]);
    expect([...placed.slot.slice(24, 32)]).toEqual([8, 9, 10, 11, 12, 13, 14, 15]);
    const seed = fastCheckSeed('gridWarpSms');
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 131 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 8 }),
        (sms, blockBits, blocksPerSm) => {
          const warpsPerBlock = 2 ** blockBits;
          const { sm, slot } = gridWarpSms(sms, warpsPerBlock * blocksPerSm, warpsPerBlock);
          for (const id of sms) {
            const mine = [...sm.keys()].filter((g) => sm[g] === id).map((g) => slot[g]);
            // Each SM its warps, each in its own place among them.
            expect(mine.sort((a, b) => a! - b!)).toEqual([...Array(warpsPerBlock * blocksPerSm).keys()]);
          }
          for (let g = 0; g < sm.length; g++) {
            expect(sm[g]).toBe(sm[g - (g % warpsPerBlock)]);
            // The first round of blocks reaches every SM once.
            if (g < sms.length * warpsPerBlock) expect(sm[g]).toBe(sms[Math.floor(g / warpsPerBlock)]);
          }
        },
      ),
      { seed, numRuns: 100 },
    );
  });
});
