import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { L1Caches } from '../../../gpu/memory/l1Cache.ts';
import { simulateTrace } from '../../../gpu/memory/pathModel.ts';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { HIT, LINE_MISS, SECTOR_MISS } from '../../../gpu/memory/sectoredCache.ts';
import { TraceBuilder } from '../../../gpu/memory/requestTrace.ts';
import { fastCheckSeed } from './seed.ts';

const profile = memoryProfile('rtx4090');
const { ways } = profile.l1;

/** The first `count` line addresses that the L1's parity hash puts into set 0 (a minimal conflict set). */
function linesInSetZero(count: number): number[] {
  const l1 = new L1Caches(profile.l1, 1);
  const lines: number[] = [];
  for (let address = 0; lines.length < count; address += profile.l1.lineBytes)
    if (l1.setOf(address) === 0) lines.push(address);
  return lines;
}

/** One SM reads one sector of each line, `rounds` times over, one request per cycle. */
function roundsTrace(lines: readonly number[], rounds: number): TraceBuilder {
  const trace = new TraceBuilder();
  let cycle = 0;
  for (let round = 0; round < rounds; round++) for (const line of lines) trace.push(0, line, 4, cycle++);
  return trace;
}

describe('L1 cache', () => {
  it('holds `ways` lines of one set: all hits after the first round', () => {
    const rounds = 10;
    const result = simulateTrace(profile, roundsTrace(linesInSetZero(ways), rounds).build());
    expect(result.l1.sectorMisses).toBe(ways);
    expect(result.l1.sectorHits).toBe(ways * (rounds - 1));
  });

  it('thrashes with `ways + 1` lines of one set under LRU: every access misses', () => {
    const rounds = 10;
    const result = simulateTrace(profile, roundsTrace(linesInSetZero(ways + 1), rounds).build());
    expect(result.l1.sectorHits).toBe(0);
    expect(result.l1.sectorMisses).toBe((ways + 1) * rounds);
  });

  it('the same lines spread over other sets do not conflict', () => {
    const lines = Array.from({ length: ways + 1 }, (_, i) => i * profile.l1.lineBytes);
    const result = simulateTrace(profile, roundsTrace(lines, 10).build());
    expect(result.l1.sectorMisses).toBe(ways + 1);
  });

  it('a missing sector of a present line is a sector miss that moves 32 bytes, not 128', () => {
    const l1 = new L1Caches(profile.l1, 1);
    expect(l1.access(0, 0x1000)).toBe(LINE_MISS);
    expect(l1.access(0, 0x1000 + 32)).toBe(SECTOR_MISS);
    expect(l1.access(0, 0x1000 + 40)).toBe(HIT);

    const trace = new TraceBuilder();
    trace.push(0, 0x1000, 4, 0);
    trace.push(0, 0x1000 + 32, 4, 1000);
    const result = simulateTrace(profile, trace.build());
    expect(result.l1.sectorOnlyMisses).toBe(1);
    expect(result.l1.sectorMisses).toBe(2);
    expect(result.bytes.l2ToL1).toBe(64);
    expect(result.bytes.dramToL2).toBe(64);
    expect(result.bytes.l1ToSm).toBe(64);
  });

  it('a multi-sector request to an absent line is one line miss, not sector-only misses', () => {
    const trace = new TraceBuilder();
    trace.push(0, 0x2000, 128, 0);
    trace.push(0, 0x3000, 32, 1);
    trace.push(0, 0x3020, 96, 2);
    const result = simulateTrace(profile, trace.build());
    expect(result.l1.sectorMisses).toBe(8);
    expect(result.l1.sectorOnlyMisses).toBe(3);
    expect(result.bytes.l2ToL1).toBe(256);
  });

  it('the same-line fast path gives the outcomes of a full tag lookup', () => {
    const seed = fastCheckSeed('L1 same-line fast path');
    const oneWay = { ...profile.l1, ways: 1 };
    // Few lines and runs of the same line, so the fast path, hits, sector misses and evictions all occur.
    const line = fc.oneof(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 2000 }));
    const run = fc.record({
      sm: fc.integer({ min: 0, max: 1 }),
      line,
      sectors: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(run, { minLength: 1, maxLength: 200 }), (runs) => {
        const fast = new L1Caches(oneWay, 2);
        const full = new L1Caches(oneWay, 2);
        for (const { sm, line, sectors } of runs) {
          for (const sector of sectors) {
            const address = line * 128 + sector * 32;
            expect(fast.access(sm, address)).toBe(full.store.access(sm, full.setOf(address), line, sector));
          }
        }
      }),
      { seed, numRuns: 200 },
    );
  });

  it('keeps separate caches per SM', () => {
    const trace = new TraceBuilder();
    trace.push(0, 0, 4, 0);
    trace.push(1, 0, 4, 1000);
    const result = simulateTrace(profile, trace.build());
    expect(result.l1.sectorHits).toBe(0);
    expect(result.l2.sectorHits).toBe(1);
  });
});
