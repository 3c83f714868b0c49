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

describe('DRAM refresh (h200: a 262.6-ns window in every 3.23-µs interval, four channels a window)', () => {
  const h200 = memoryProfile('h200');
  const refresh = h200.dram.refresh!;
  const dram = new DramModel(h200.dram, h200.sm.clockMHz);
  /** Each arrival time in [0, spanNs) at `stepNs`, and its wait on `channel`. */
  const waits = (channel: number, spanNs = 1_000_000, stepNs = 0.5) =>
    Array.from({ length: spanNs / stepNs }, (_, i) => dram.refreshWaitNs(channel, i * stepNs));

  it('closes each group once an interval: a read waits out what is left of the window, flat from 0 to its length', () => {
    const each = waits(0);
    const waiting = each.filter((wait) => wait > 0);
    expect(waiting.length / each.length).toBeCloseTo(refresh.windowNs / refresh.intervalNs, 2);
    expect(waiting.every((wait) => wait <= refresh.windowNs)).toBe(true);
    const halves = [0, 1].map((half) => waiting.filter((wait) => Math.floor((2 * wait) / refresh.windowNs) === half));
    expect(halves[0]!.length / halves[1]!.length).toBeCloseTo(1, 1);
  });

  it('keeps a lone read at the measured latency on average: the mean wait comes out of the fixed part', () => {
    const each = waits(5);
    const mean = each.reduce((sum, wait) => sum + wait, 0) / each.length;
    expect(mean / dram.refreshMeanNs).toBeCloseTo(1, 1);
    expect(dram.refreshMeanNs).toBeCloseTo(refresh.windowNs ** 2 / (2 * refresh.intervalNs), 9);
    expect(new DramModel(spec, profile.sm.clockMHz).refreshMeanNs).toBe(0);
  });

  it('shares a window among the channels of one group, and not with the next group', () => {
    const first = waits(0, 200_000);
    expect(waits(3, 200_000)).toEqual(first);
    const next = waits(4, 200_000);
    const both = first.filter((wait, i) => wait > 0 && next[i]! > 0).length;
    const either = first.filter((wait) => wait > 0).length;
    // Windows at hashed points of each interval: the groups overlap about as often as chance has it.
    expect(both / either).toBeLessThan(0.3);
  });

  it('adds the wait to the read, not to its bank: a later read of the same bank, past the window, does not wait', () => {
    const fresh = new DramModel(h200.dram, h200.sm.clockMHz);
    let arrival = 0;
    while (fresh.refreshWaitNs(0, arrival) < refresh.windowNs - 1) arrival += 1;
    const waited = fresh.access(0, 0, arrival);
    const after = arrival + refresh.windowNs;
    const next = fresh.access(0, 64, after);
    expect(waited - arrival).toBeGreaterThan(fresh.fixedNs + refresh.windowNs - 2);
    // A row hit: a column access and a transfer past the fixed part, not the first read's row open again.
    expect(next - after).toBeLessThan(fresh.fixedNs + 10);
  });
});
