/**
 * The stratified block-iteration sample of the timing model. Replay a failing random case with
 * FC_SEED=<seed> npx vitest run tests/gpu/system/iterationSample.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sampleIterations } from '../../../gpu/system/iterationSample.ts';
import { fastCheckSeed } from '../../support/seed.ts';

/** Per SM, `length` iterations tagged [sm, index] so a pick can be traced back. */
const grid = (lengths: readonly number[]): Array<Array<[number, number]>> =>
  lengths.map((length, sm) => Array.from({ length }, (_, i): [number, number] => [sm, i]));

describe('sampleIterations', () => {
  it('draws exactly one iteration per stratum of the issue order, in issue order, with the exact fraction', () => {
    const seed = fastCheckSeed('stratified sample');
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 20 }),
        fc.double({ min: 1, max: 50, noNaN: true }),
        (lengths, sample) => {
          const sequences = grid(lengths);
          const order = sequences
            .flatMap((_, sm) => sequences[sm]!.map((_item, round) => ({ sm, round })))
            .sort((a, b) => a.round - b.round || a.sm - b.sm);
          const total = order.length;
          const { picks, total: counted, timeScale } = sampleIterations(sequences, sample);
          expect(counted).toBe(total);
          const strata = Math.ceil(total / sample);
          expect(picks.length).toBe(strata);
          expect(timeScale).toBe(total === 0 ? 1 : strata / total);
          const positions = picks.map((p) => order.findIndex((o) => o.sm === p.sm && o.round === p.round));
          positions.forEach((position, j) => {
            expect(position).toBeGreaterThanOrEqual(Math.floor((j * total) / strata));
            expect(position).toBeLessThan(Math.floor(((j + 1) * total) / strata));
            const pick = picks[j]!;
            expect([pick.rowBlock, pick.kTile]).toEqual([pick.sm, pick.round]);
          });
        },
      ),
      { seed, numRuns: 100 },
    );
  });

  it('takes every iteration when sample ≤ 1', () => {
    const sequences = grid([3, 5, 0, 2]);
    const { picks, total, timeScale } = sampleIterations(sequences, 1);
    expect(total).toBe(10);
    expect(picks.length).toBe(10);
    expect(timeScale).toBe(1);
    expect(picks.slice(0, 4).map((p) => [p.sm, p.round])).toEqual([
      [0, 0],
      [1, 0],
      [3, 0],
      [0, 1],
    ]);
  });
});
