/**
 * The L1's line requests on a register-staged block's chain, and co-resident blocks queueing for
 * them (mean-value analysis, timingModel.ts sharedServerCycle): the mechanism that makes the
 * software kernel's iteration grow with its nonzeros beyond Algorithm 1's chain, and three blocks
 * per SM (9216², split-K 8 on H200) slower per block than two (7168²).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldError } from '../../../common/errors.ts';
import { cliMessage } from '../../../gen/cli/optionFlags.ts';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
import { modelKernel, sharedServerCycle } from '../../../gpu/system/timingModel.ts';
import { computeProfile } from '../../../gpu/system/computeProfiles.ts';
import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { fastCheckSeed } from '../memory/seed.ts';
import { MEASURED_MMA } from './support.ts';

describe('sharedServerCycle', () => {
  it('one block never queues; a zero demand is the think time', () => {
    expect(sharedServerCycle(1000, 300, 1)).toBe(1300);
    expect(sharedServerCycle(1000, 0, 4)).toBe(1000);
  });

  it('grows with the blocks, from think + demand up to at most think + blocks × demand', () => {
    const seed = fastCheckSeed('sharedServerCycle');
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 20_000, noNaN: true }),
        fc.double({ min: 1, max: 5_000, noNaN: true }),
        fc.integer({ min: 1, max: 8 }),
        (think, demand, blocks) => {
          const cycle = sharedServerCycle(think, demand, blocks);
          const fewer = sharedServerCycle(think, demand, Math.max(1, blocks - 1));
          expect(cycle).toBeGreaterThanOrEqual(fewer - 1e-9);
          expect(cycle).toBeGreaterThanOrEqual(think + demand - 1e-9);
          expect(cycle).toBeLessThanOrEqual(think + blocks * demand + 1e-9);
        },
      ),
      { seed, numRuns: 300 },
    );
  });

  it('queues more when the shared server is a larger part of the cycle', () => {
    const light = sharedServerCycle(9000, 1000, 3) - 10_000;
    const heavy = sharedServerCycle(7000, 3000, 3) - 10_000;
    expect(light).toBeGreaterThan(0);
    expect(heavy).toBeGreaterThan(2 * light);
  });
});

describe("the L1's lines on the chain (h200, 2048×2048, N = 8, 30 %)", () => {
  const shape = { m: 2048, k: 2048, n: 8 };
  const [layout] = randomLayouts(shape.m, shape.k, [0.3], 1);
  // Cold launches: this 2048² would sit in the L2 across the harness's rotating copies, and the
  // round trips here are the DRAM's.
  const run = (kernel: SpmmKernel) =>
    modelKernel({ profile: 'h200', kernel, shape, layout: layout!, mma: MEASURED_MMA, sample: 4, rotatingCopies: 0 });
  const memory = memoryProfile('h200');
  // The round trip, measured in cycles of the profile's clock, in SM cycles while mma.sync issues.
  const roundTrip =
    ((memory.dram.latencyCycles + (memory.sm.loadStepCycles ?? 0)) * computeProfile('h200').tensorClockMHz!) /
    memory.sm.clockMHz;

  it('the software kernel and the STC wait for their value loads to leave the L1, and queue there behind co-resident blocks', () => {
    for (const kernel of ['coruscant', 'stc'] as const) {
      const timing = run(kernel);
      const it = timing.perIteration;
      expect(timing.residentBlocksPerSm, kernel).toBe(3);
      expect(it.lineWait, kernel).toBeCloseTo(it.l1Lines, 6);
      expect(it.loadWait, kernel).toBeCloseTo(2 * roundTrip + it.l1Lines, 6);
      expect(it.l1Queue, kernel).toBeGreaterThan(0);
      expect(it.chain, kernel).toBeCloseTo(
        it.loadWait + it.decompressChain + it.l1Queue + 2 * 24 - (kernel === 'stc' ? 24 : 0),
        6,
      );
    }
  });

  it("counts the SM side's cycles at the clock the SMs run at under mma.sync (h200: 1.8 GHz, not the memory path's 1.98)", () => {
    const timing = run('coruscant');
    const it = timing.perIteration;
    expect(computeProfile('h200').tensorClockMHz).toBe(1800);
    expect(timing.stagesNs.epilogue).toBeCloseTo(((it.decompressIssue + it.tensorCore) * 1000) / 1800, 6);
    // The h200 profile has the blocks' measured start and end (in the SM side's compute), so no
    // separate first load; without it the prologue is one idle DRAM round trip at the memory path's clock.
    expect(computeProfile('h200').blockStartEndCycles).toBeGreaterThan(0);
    expect(timing.stagesNs.prologue).toBe(0);
    const ada = memoryProfile('rtx6000ada');
    const plain = modelKernel({
      profile: 'rtx6000ada',
      kernel: 'coruscant',
      shape,
      layout: layout!,
      mma: MEASURED_MMA,
      sample: 4,
    });
    expect(plain.stagesNs.prologue).toBeCloseTo((ada.dram.latencyCycles * 1000) / ada.sm.clockMHz, 6);
  });

  it("the dense kernel's coalesced lines stay off its chain (its cp.async pipeline hides them)", () => {
    const it = run('dense').perIteration;
    expect(it.lineWait).toBe(0);
    expect(it.l1Queue).toBe(0);
  });
});

describe('several shared servers (the L1 and the what-if store path)', () => {
  it('a block with no think time and no demand cycles in no time (not NaN), with one server or several', () => {
    expect(sharedServerCycle(0, 0, 2)).toBe(0);
    expect(sharedServerCycle(0, [0, 0], 2)).toBe(0);
  });

  it('a second server of zero demand changes nothing; two servers cost at least their demands and at most every block’s', () => {
    const seed = fastCheckSeed('sharedServerCycle servers');
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 20_000, noNaN: true }),
        fc.double({ min: 0, max: 5_000, noNaN: true }),
        fc.double({ min: 0, max: 5_000, noNaN: true }),
        fc.integer({ min: 1, max: 8 }),
        (think, first, second, blocks) => {
          expect(sharedServerCycle(think, [first, 0], blocks)).toBeCloseTo(sharedServerCycle(think, first, blocks), 9);
          const both = sharedServerCycle(think, [first, second], blocks);
          // Each server's residence is at least its demand, and no block waits for more than all the others.
          expect(both).toBeGreaterThanOrEqual(think + first + second - 1e-6);
          expect(both).toBeLessThanOrEqual(think + blocks * (first + second) + 1e-6);
        },
      ),
      { seed, numRuns: 300 },
    );
  });
});

describe("the L1's line rate and the L2 slices' lookups by the SMs a grid occupies (h200, STC proxy, N = 8, 50 %)", () => {
  // Cold launches, as Nsight Compute (which flushes the caches before it profiles) timed the eighth
  // batch's grids; the harness's rotation keeps the small ones in the L2 (rotatingCopies.test.ts).
  const run = (m: number, splitK: number) => {
    const shape = { m, k: 4096, n: 8 };
    const [layout] = randomLayouts(shape.m, shape.k, [0.5], 1);
    return modelKernel({
      profile: 'h200',
      kernel: 'stc',
      shape,
      layout: layout!,
      mma: MEASURED_MMA,
      splitK,
      sample: 8,
      rotatingCopies: 0,
    });
  };
  const { l2 } = memoryProfile('h200');
  const lookups = l2.slices * l2.lookupsPerCyclePerSlice!;

  it("an SM's misses leave its L1 at its own rate on any grid; the lookups bound the grid's mean rate at its share of the slices", () => {
    // 8 row blocks × split-K: 64 blocks on 64 of the 132 SMs, 256 on all of them.
    const half = run(2048, 8);
    const full = run(2048, 32);
    expect([half.blocks, full.blocks]).toEqual([64, 256]);
    const perSm = computeProfile('h200').l1LinesPerCycle;
    const share = lookups / 132;
    expect(share).toBeLessThan(perSm);
    expect(perSm * 64).toBeLessThan(lookups);
    // The same block-iterations (lines per iteration to within the traces' sampling) take the L1 as long on both grids…
    expect(half.perIteration.l1Lines / full.perIteration.l1Lines).toBeCloseTo(1, 1);
    // …while the lookups cost the full grid 0.96 / 0.57 times the L1's time, and the half grid less than it.
    expect(full.perIteration.l2Lookups / full.perIteration.l1Lines).toBeCloseTo(perSm / share, 1);
    expect(half.perIteration.l2Lookups).toBeLessThan(half.perIteration.l1Lines);
    expect(full.perIteration.effective).toBeGreaterThanOrEqual(full.perIteration.l2Lookups);
  }, 120_000);

  it('a block-iteration costs the same on 32 and 128 SMs (silicon: 2,659 and 2,723 cycles per iteration, Nsight Compute, eighth batch)', () => {
    // 4 and 16 row blocks × split-K 8: one block per SM either way, its lines on its own chain.
    const few = run(1024, 8);
    const many = run(4096, 8);
    expect([few.blocks, many.blocks]).toEqual([32, 128]);
    // The same iterations per block (K / split-K), so the SM side's time compares iteration for iteration.
    const ratio = many.stagesNs.compute / few.stagesNs.compute;
    expect(ratio).toBeGreaterThan(0.95);
    expect(ratio).toBeLessThan(1.05);
    // The busiest SM holds one block and waits on its own chain (its loads' round trips), not on the lookups.
    expect([few.bound, many.bound]).toEqual(['load latency (MLP)', 'load latency (MLP)']);
  }, 120_000);
});

describe('the store path (storeCycles, h200, 2048×2048, N = 8, 30 %)', () => {
  const shape = { m: 2048, k: 2048, n: 8 };
  const [layout] = randomLayouts(shape.m, shape.k, [0.3], 1);
  const run = (kernel: SpmmKernel, storeCycles?: number) =>
    modelKernel({
      profile: 'h200',
      kernel,
      shape,
      layout: layout!,
      mma: MEASURED_MMA,
      sample: 4,
      ...(storeCycles === undefined ? {} : { storeCycles }),
    });

  it("slows the kernels that scatter 16-bit stores, and only them, by every co-resident block's stores; the profile's measured 3.1 cycles is the default", () => {
    for (const kernel of ['flashllm', 'coruscant'] as const) {
      const none = run(kernel);
      expect(run(kernel, 3.1).timeNs).toBe(none.timeNs);
      // At the measured rate the blocks' one store window may stay inside their extract chain.
      expect(run(kernel, 0).perIteration.chain).toBeLessThanOrEqual(none.perIteration.chain);
      const slow = run(kernel, 13);
      expect(slow.perIteration.storeWait).toBeGreaterThan(0);
      // h200's blocks burst in lockstep, so an SM's blocks decompress together and the path takes
      // all of their stores in one window: once it binds, that window is the decompression.
      expect(slow.perIteration.decompressChain).toBeCloseTo(slow.residentBlocksPerSm * slow.perIteration.storeWait, 6);
      // The block's chain grows; the kernel's time may not (the memory side can bound it).
      expect(slow.perIteration.chain).toBeGreaterThan(none.perIteration.chain);
      expect(slow.timeNs).toBeGreaterThanOrEqual(none.timeNs);
    }
    for (const kernel of ['dense', 'stc'] as const) expect(run(kernel, 13).timeNs).toBe(run(kernel).timeNs);
  }, 120_000);

  it('refuses a negative or non-finite rate with a FieldError naming the field, not a flag', () => {
    for (const rate of [-1, Number.NaN]) {
      const error = (() => {
        try {
          run('flashllm', rate);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(FieldError);
      expect((error as FieldError).field).toBe('storeCycles');
      expect((error as Error).message).toMatch(new RegExp(`^storeCycles ${rate}: `));
      expect(cliMessage(error as Error)).toMatch(new RegExp(`^--store-cycles ${rate}: `));
    }
  });
});
