import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryPathSimulator, simulateTrace } from '../../../gpu/memory/pathModel.ts';
import { patternTrace } from '../../../gpu/memory/patterns.ts';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { withoutRefresh } from './withoutRefresh.ts';
import { TraceBuilder } from '../../../gpu/memory/requestTrace.ts';
import { fastCheckSeed } from './seed.ts';
import { withSmallL2 } from './smallL2.ts';

const profile = memoryProfile('rtx4090');

function single(...requests: [sm: number, address: number, bytes: number, cycle: number][]): TraceBuilder {
  const trace = new TraceBuilder();
  for (const [sm, address, bytes, cycle] of requests) trace.push(sm, address, bytes, cycle);
  return trace;
}

describe('memory path model', () => {
  it('reproduces the measured pointer-chase latencies on an idle GPU: DRAM, L1 hit, L2 hit', () => {
    const simulator = new MemoryPathSimulator(profile);
    simulator.feed(single([0, 4096, 4, 0]).build());
    expect(simulator.result().makespanCycles).toBeCloseTo(636, 6);
    const l1 = simulateTrace(profile, single([0, 4096, 4, 0], [0, 4096, 4, 10_000]).build());
    expect(l1.maxLatencyNs).toBeCloseTo((636 * 1000) / 2520, 6);
    expect(l1.meanLatencyCycles).toBeCloseTo((636 + 36) / 2, 6);
    const l2 = simulateTrace(profile, single([0, 4096, 4, 0], [5, 4096, 4, 10_000]).build());
    expect(l2.meanLatencyCycles).toBeCloseTo((636 + 296) / 2, 6);
    expect(l2.boundingResource).toBe('latency');
  });

  it('an ld.global.cg request passes the L1: a later normal load of the line misses it, a .cg load of a cached line goes to the L2', () => {
    const simulator = new MemoryPathSimulator(profile);
    const first = simulator.request(0, 4096, 4, 0, true);
    const second = simulator.request(0, 4096, 4, 10_000);
    const third = simulator.request(0, 4096, 4, 20_000, true);
    const result = simulator.result();
    expect(result.l1.sectorHits).toBe(0);
    expect(result.l2.sectorHits).toBe(2);
    expect((first * 2520) / 1000).toBeCloseTo(636, 6);
    expect(((second - 10_000) * 2520) / 1000).toBeCloseTo(296, 0);
    expect(((third - 20_000) * 2520) / 1000).toBeCloseTo(296, 0);
  });

  it('a hit on a sector still being filled waits for the fill (miss merging)', () => {
    const result = simulateTrace(profile, single([0, 4096, 4, 0], [0, 4100, 4, 1]).build());
    expect(result.l1.sectorHits).toBe(1);
    expect(result.makespanCycles).toBeCloseTo(636, 6);
    expect(result.bytes.dramToL2).toBe(32);
  });

  it('splits a request into the 32-byte sectors it covers', () => {
    const result = simulateTrace(profile, single([0, 16, 128, 0]).build());
    expect(result.sectorRequests).toBe(5);
    expect(result.bytes.l1ToSm).toBe(160);
  });

  // h200: its 64-byte bursts at tCCDL per bank, and the far partition's crossing for half the
  // lines, leave an all-at-once stream ≈ 5 % above the ideal (the other profiles have neither).
  for (const [name, slack] of [
    ['rtx4090', 1.03],
    ['rtx6000ada', 1.03],
    ['h200', 1.07],
  ] as const) {
    it(`${name}: a DRAM-bound stream takes one idle DRAM latency + bytes / bandwidth, within ${Math.round((slack - 1) * 100)} %`, () => {
      const gpu = withoutRefresh(name);
      const bytes = 8 * 2 ** 20;
      const result = simulateTrace(gpu, patternTrace({ pattern: 'stream', bytes, smCount: gpu.sm.count }));
      const idleLatencyNs = (gpu.dram.latencyCycles * 1000) / gpu.sm.clockMHz;
      const ratio = (result.makespanNs - idleLatencyNs) / (bytes / gpu.dram.bandwidthGBps);
      expect(ratio).toBeGreaterThan(0.99);
      expect(ratio).toBeLessThan(slack);
      expect(result.boundingResource).toBe('dramChannel');
      // Even spread: the busiest channel's bus carried no more than its share of the bytes (+2 %).
      expect(result.busy.dramChannel.maxBusyNs / (bytes / gpu.dram.bandwidthGBps)).toBeLessThan(1.02);
      expect(result.dram.rowHitRate).toBeGreaterThan(0.9);
      expect(result.bytes.dramToL2).toBe(bytes);
    });
  }

  it('random sectors over a large span open a new row on nearly every read', () => {
    const result = simulateTrace(
      profile,
      patternTrace({ pattern: 'random', bytes: 2 ** 34, requests: 20_000, smCount: profile.sm.count, seed: 3 }),
    );
    expect(result.dram.rowHitRate).toBeLessThan(0.05);
    expect(result.l2.hitRate).toBeLessThan(0.05);
  });

  it('gives the same answer fed in batches as in one piece', () => {
    const trace = patternTrace({
      pattern: 'random',
      bytes: 2 ** 24,
      requests: 5000,
      smCount: profile.sm.count,
      seed: 9,
    });
    const half = 2500;
    const slice = (from: number, to: number): typeof trace => ({
      length: to - from,
      sm: trace.sm.subarray(from, to),
      address: trace.address.subarray(from, to),
      bytes: trace.bytes.subarray(from, to),
      time: trace.time.subarray(from, to),
    });
    expect(simulateTrace(profile, [slice(0, half), slice(half, trace.length)])).toEqual(simulateTrace(profile, trace));
  });

  it('a request of several sectors costs the same as its sectors requested one by one in the same cycle', () => {
    const seed = fastCheckSeed('multi-sector requests');
    const request = fc.record({
      sm: fc.integer({ min: 0, max: 3 }),
      line: fc.integer({ min: 0, max: 1023 }),
      first: fc.integer({ min: 0, max: 3 }),
      count: fc.integer({ min: 1, max: 4 }),
    });
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 300 }), (requests) => {
        const whole = new TraceBuilder();
        const split = new TraceBuilder();
        requests.forEach(({ sm, line, first, count }, cycle) => {
          const sectors = Math.min(count, 4 - first);
          whole.push(sm, line * 128 + first * 32, 32 * sectors, cycle);
          for (let s = 0; s < sectors; s++) split.push(sm, line * 128 + (first + s) * 32, 32, cycle);
        });
        // A one-way L1 and a small L2 so that lines are evicted between requests.
        const small = withSmallL2('rtx4090', 4);
        const options = { l1DataBytes: small.l1.sets * small.l1.lineBytes };
        const a = simulateTrace(small, whole.build(), options);
        const b = simulateTrace(small, split.build(), options);
        expect({ ...a, l1: { ...a.l1, sectorOnlyMisses: 0 } }).toEqual({ ...b, l1: { ...b.l1, sectorOnlyMisses: 0 } });
      }),
      { seed, numRuns: 30 },
    );
  });

  it('rejects an SM the profile does not have', () => {
    expect(() => simulateTrace(profile, single([200, 0, 4, 0]).build())).toThrow(/SM 200/);
  });
});

describe("a line's L2 home by its address bits (the h200 profile's homeAddressBits)", () => {
  const h200 = memoryProfile('h200');
  const farExtraNs = (h200.l2.partitions!.farExtraCycles * 1000) / h200.sm.clockMHz;
  /** One cold read of a line by SM 0 on an idle GPU, ns: the DRAM latency, less or more half a far home. */
  const coldNs = (address: number) => simulateTrace(h200, single([0, address, 4, 0]).build()).maxLatencyNs;
  const withHomeBits = (bits: number[], count = 2) => ({
    ...h200,
    l2: { ...h200.l2, partitions: { ...h200.l2.partitions!, count, homeAddressBits: bits } },
  });

  it("a 4 KiB block's lines share a home; bit 12 moves it to the other partition (±farExtraCycles), bit 14 does not", () => {
    const seed = fastCheckSeed('L2 homes');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 14 - 1 }), fc.integer({ min: 1, max: 31 }), (block, line) => {
        const start = block * 4096;
        const ns = coldNs(start);
        expect(coldNs(start + line * 128)).toBeCloseTo(ns, 6);
        expect(Math.abs(coldNs(start ^ (2 ** 12)) - ns)).toBeCloseTo(farExtraNs, 6);
        expect(coldNs(start ^ (2 ** 14))).toBeCloseTo(ns, 6);
      }),
      { seed, numRuns: 8 },
    );
  });

  it('refuses home bits for other than two partitions, below a line, or repeated', () => {
    expect(() => simulateTrace(withHomeBits([12], 4), single([0, 0, 4, 0]).build())).toThrow(/2 L2 partitions/);
    expect(() => simulateTrace(withHomeBits([5]), single([0, 0, 4, 0]).build())).toThrow(/address bits 7 … 52/);
    expect(() => simulateTrace(withHomeBits([12, 12]), single([0, 0, 4, 0]).build())).toThrow(/distinct/);
  });
});

describe('miss queue', () => {
  it('a full queue frees a warp load once as many misses as it needs have returned', () => {
    const h200 = memoryProfile('h200');
    const slots = h200.l1.missQueueSectors!;
    const simulator = new MemoryPathSimulator(h200, { trackMissQueue: true });
    // One 4-byte load per line from SM 0, all at time 0: every one a sector miss holding a slot.
    const done = Array.from({ length: slots }, (_, i) => simulator.request(0, i * 128 * 7, 4, 0));
    done.sort((a, b) => a - b);
    expect(done[31]).toBeGreaterThan(done[0]!);
    expect(simulator.missQueueFreeAt(0, 0, 1)).toBe(done[0]);
    expect(simulator.missQueueFreeAt(0, 0, 32)).toBe(done[31]);
    // After the first 10 are back, a 32-sector load needs 22 more.
    expect(simulator.missQueueFreeAt(0, done[9]!, 32)).toBe(done[31]);
    expect(simulator.missQueueFreeAt(0, done[31]!, 32)).toBe(done[31]);
  });

  it('is kept only when asked for, and a question about an untracked queue is refused', () => {
    const h200 = memoryProfile('h200');
    const simulator = new MemoryPathSimulator(h200);
    simulator.request(0, 0, 4, 0);
    expect(() => simulator.missQueueFreeAt(0, 0, 1)).toThrow(/trackMissQueue/);
    // A profile without a queue has nothing to track: every load may issue at once.
    const unbounded = { ...h200, l1: { ...h200.l1, missQueueSectors: undefined } };
    expect(new MemoryPathSimulator(unbounded).missQueueFreeAt(0, 5, 32)).toBe(5);
  });
});
