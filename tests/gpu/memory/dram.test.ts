import { describe, expect, it } from 'vitest';
import { DramModel } from '../../../gpu/memory/dram.ts';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';

const profile = memoryProfile('rtx4090');
const spec = profile.dram;

function freshDram(): DramModel {
  return new DramModel(spec, profile.sm.clockMHz);
}

describe('DRAM banks and row buffers', () => {
  it('one idle read takes exactly the measured DRAM latency', () => {
    const dram = freshDram();
    expect(dram.access(0, 0, 0)).toBeCloseTo((spec.latencyCycles * 1000) / profile.sm.clockMHz, 9);
  });

  it('a row-hit stream in one bank costs activate + column once, then one column access per read', () => {
    const dram = freshDram();
    const n = 32;
    const done = Array.from({ length: n }, (_, i) => dram.access(0, i * 32, 0));
    for (let i = 0; i < n; i++) {
      // Hand-computed: bank busy act + (i+1)·col; the 32-byte bus transfer (0.38 ns) hides under the 3.4 ns column time.
      expect(done[i]).toBeCloseTo(23.8 + (i + 1) * 3.4 + dram.transferNs + dram.fixedNs, 9);
    }
    expect(dram.rowHits).toBe(n - 1);
    expect(dram.rowEmpty).toBe(1);
    expect(done[1]! - done[0]!).toBeCloseTo(3.4, 9);
  });

  it('a row-conflict stream (alternating rows of one bank) pays precharge + activate + column every read', () => {
    const dram = freshDram();
    let other = spec.mapping.rowWindowBytes;
    while (dram.bankOf(other) !== dram.bankOf(0)) other += spec.mapping.rowWindowBytes;
    expect(dram.rowOf(other)).not.toBe(dram.rowOf(0));
    const n = 16;
    const done = Array.from({ length: n }, (_, i) => dram.access(0, i % 2 === 0 ? 0 : other, 0));
    for (let i = 0; i < n; i++) {
      expect(done[i]).toBeCloseTo(23.8 + 3.4 + i * (23.8 + 23.8 + 3.4) + dram.transferNs + dram.fixedNs, 9);
    }
    expect(dram.rowConflicts).toBe(n - 1);
    // The seed: a new row costs about 15 times a read in the open row.
    expect((done[2]! - done[1]!) / 3.4).toBeCloseTo(15, 9);
  });

  it('different banks work in parallel; their transfers share the channel bus', () => {
    const dram = freshDram();
    let other = spec.mapping.rowWindowBytes;
    while (dram.bankOf(other) === dram.bankOf(0)) other += spec.mapping.rowWindowBytes;
    const a = dram.access(0, 0, 0);
    const b = dram.access(0, other, 0);
    expect(b - a).toBeCloseTo(dram.transferNs, 9);
  });

  it('spreads consecutive row windows over all banks', () => {
    const dram = freshDram();
    const banks = new Set<number>();
    for (let w = 0; w < spec.banksPerChannel; w++) banks.add(dram.bankOf(w * spec.mapping.rowWindowBytes));
    expect(banks.size).toBe(spec.banksPerChannel);
  });
});
