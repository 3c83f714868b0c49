import { describe, expect, it } from 'vitest';
import { decodeMma } from '../../../coruscant/golden/models/decoder.ts';
import { prunedMmaStream } from '../../../coruscant/workloads/prunedOperands.ts';
import { sparseWorkloadTops, sparseWorkloadVectors } from '../../../coruscant/workloads/sparseWorkload.ts';

const popcount = (value: bigint): number => value.toString(2).replaceAll('0', '').length;

describe('prunedMmaStream', () => {
  it.each([0.3, 0.5, 0.7])('holds Wanda-pruned row tiles at %s sparsity, values matching their bitmaps', (sparsity) => {
    const stream = prunedMmaStream({ sparsity, seed: 7, threads: 4, tileLength: 64 });
    let kept = 0;
    let total = 0;
    for (let mma = 0; mma < 40; mma++) {
      const operands = stream.next().value;
      expect(operands.bitmaps).toHaveLength(4);
      expect(operands.b).toHaveLength(64);
      operands.bitmaps.forEach((bitmap, thread) => {
        expect(bitmap >> 64n).toBe(0n);
        expect(operands.values[thread]).toHaveLength(popcount(bitmap));
        expect([...operands.values[thread]!].every((half) => half !== 0)).toBe(true);
        kept += popcount(bitmap);
        total += 64;
      });
    }
    // Wanda prunes exactly round(s·K) per row of the 1024-column layer; a 64-column window varies around it.
    expect(kept / total).toBeGreaterThan(1 - sparsity - 0.05);
    expect(kept / total).toBeLessThan(1 - sparsity + 0.05);
  });

  it('walks K tiles of one row block, then the next block', () => {
    const stream = prunedMmaStream({ sparsity: 0.5, seed: 3, threads: 32, tileLength: 64 });
    const first = Array.from({ length: 17 }, () => stream.next().value);
    // 16 K tiles per 1024-column row: MMA 16 starts the second row block, different rows entirely.
    expect(new Set(first.slice(0, 16).map((mma) => mma.bitmaps[0])).size).toBeGreaterThan(12);
    expect(first[16]!.bitmaps).not.toEqual(first[0]!.bitmaps);
  });

  it('refuses a sparsity outside [0, 1)', () => {
    expect(() => prunedMmaStream({ sparsity: 1, seed: 1, threads: 1, tileLength: 64 }).next()).toThrow(/sparsity/);
  });
});

describe('sparseWorkloadVectors', () => {
  it('drives the decoder with start after reset and in every last cycle, bitmaps only with start', () => {
    const vectors = sparseWorkloadVectors('BitmapDecoder', { threads: 2 }, { sparsity: 0.5, seed: 1, cycles: 60 });
    expect(vectors).toHaveLength(60);
    const starts = vectors.flatMap((vector, cycle) => (vector['start'] === 1n ? [cycle] : []));
    expect(starts).toEqual([2, 18, 34, 50]);
    expect(vectors.slice(0, 2).every((vector) => vector['reset'] === 1n)).toBe(true);
    expect(vectors.slice(2).every((vector) => vector['reset'] === 0n)).toBe(true);
    for (const [cycle, vector] of vectors.entries()) {
      if (!starts.includes(cycle)) expect([vector['bitmap_0'], vector['bitmap_1']]).toEqual([0n, 0n]);
      else expect(vector['bitmap_0']).not.toBe(0n);
    }
  });

  it('feeds the lane the zero-filled A operands the golden decoder selects, and B from the dense pointer', () => {
    const bitmaps = sparseWorkloadVectors('BitmapThreadSlice', {}, { sparsity: 0.7, seed: 5, cycles: 40 });
    const lane = sparseWorkloadVectors('TensorLane', {}, { sparsity: 0.7, seed: 5, cycles: 40 });
    const selects = decodeMma([bitmaps[2]!['bitmap']!], { threads: 1, tileLength: 64, slots: 4 });
    let zeros = 0;
    selects.forEach((cycle, chunk) => {
      const vector = lane[3 + chunk]!;
      expect(vector['enable']).toBe(1n);
      expect(vector['loadC']).toBe(chunk === 0 ? 1n : 0n);
      cycle.slots[0]!.forEach((select, slot) => {
        if (select.zero) zeros++;
        expect(vector[`a_${slot}`] === 0n).toBe(select.zero);
      });
    });
    expect(zeros).toBeGreaterThan(20);
    expect(lane[2]!['enable']).toBe(0n);
  });

  it('gives every other block its share of the same stream', () => {
    for (const top of sparseWorkloadTops) {
      const vectors = sparseWorkloadVectors(top, { threads: 2 }, { sparsity: 0.5, seed: 2, cycles: 24 });
      expect(vectors, top).toHaveLength(24);
      expect(
        Object.values(vectors[10]!).every((value) => value >= 0n),
        top,
      ).toBe(true);
    }
    const chain = sparseWorkloadVectors('AdderChain', {}, { sparsity: 0.5, seed: 2, cycles: 24 });
    const detector = sparseWorkloadVectors('LaneDetector', {}, { sparsity: 0.5, seed: 2, cycles: 24 });
    chain.forEach((vector, cycle) => expect(vector['count']).toBe(BigInt(popcount(detector[cycle]!['bits']!))));
  });

  it('answers every MmaUnit read port with the register the decoder addresses, and B pairs from the pointer', () => {
    const vectors = sparseWorkloadVectors('MmaUnit', {}, { sparsity: 0.5, seed: 4, cycles: 2 + 16 + 1 });
    const mma = prunedMmaStream({ sparsity: 0.5, seed: 4, threads: 32, tileLength: 64 }).next().value;
    expect(vectors[2]!['bitmap_5']).toBe(mma.bitmaps[5]);
    expect(vectors[2]!['mode']).toBe(1n);
    const selects = decodeMma([...mma.bitmaps]);
    selects.forEach((cycle, chunk) => {
      const vector = vectors[3 + chunk]!;
      for (const thread of [0, 13, 31]) {
        cycle.slots[thread]!.forEach((select, slot) => {
          if (select.zero) return;
          const data = vector[`read_${thread}_${slot}_data`]!;
          const half = Number((data >> BigInt(16 * select.half)) & 0xffffn);
          // The selected half is the thread's nonzero at this column: its value index in the row tile.
          expect(half).toBe(mma.values[thread]![select.valueIndex]);
        });
      }
      for (const port of [0, 1]) {
        const data = vector[`vector_${port}_data`]!;
        expect([Number(data & 0xffffn), Number(data >> 16n)]).toEqual([
          mma.b[cycle.pointer + 2 * port],
          mma.b[cycle.pointer + 2 * port + 1],
        ]);
      }
    });
  });

  it('refuses a top without a sparse workload', () => {
    expect(() => sparseWorkloadVectors('Counter', {}, { sparsity: 0.5, seed: 1, cycles: 10 })).toThrow(
      /no sparse workload/,
    );
  });
});
