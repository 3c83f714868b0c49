import { describe, expect, it } from 'vitest';
import { fp16ToNumber } from '../../../../coruscant/golden/numerics/fp16.ts';
import { Random } from '../../../../coruscant/golden/pruning/random.ts';
import { randomSparseStrips } from '../../../../coruscant/golden/pruning/randomMask.ts';
import { syntheticLlmLayer } from '../../../../coruscant/golden/pruning/synthetic.ts';

describe('seeded generators', () => {
  it('Random is deterministic per seed and roughly uniform', () => {
    const draw = (seed: number) =>
      Array.from(
        { length: 5 },
        (
          (r) => () =>
            r.nextUint32()
        )(new Random(seed)),
      );
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    const random = new Random(7);
    const samples = Array.from({ length: 20_000 }, () => random.nextFloat());
    expect(samples.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(samples.reduce((a, b) => a + b, 0) / samples.length).toBeCloseTo(0.5, 1);
  });

  it('the synthetic layer is identical for the same seed, heavy-tailed, zero-free, with outlier channels', () => {
    const a = syntheticLlmLayer(64, 256, 5);
    const b = syntheticLlmLayer(64, 256, 5);
    expect(Buffer.from(a.weights.bits.buffer).equals(Buffer.from(b.weights.bits.buffer))).toBe(true);
    expect([...a.activationNorms]).toEqual([...b.activationNorms]);
    expect(
      Buffer.from(syntheticLlmLayer(64, 256, 6).weights.bits.buffer).equals(Buffer.from(a.weights.bits.buffer)),
    ).toBe(false);

    const values = [...a.weights.bits].map(fp16ToNumber);
    expect(values.every((v) => v !== 0 && Number.isFinite(v))).toBe(true);
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
    const kurtosis = values.reduce((s, v) => s + (v - mean) ** 4, 0) / values.length / variance ** 2;
    expect(kurtosis).toBeGreaterThan(4); // a normal has 3

    expect(a.outlierChannels.length).toBe(3); // round(1 % of 256)
    const typical = [...a.activationNorms].filter((_, j) => !a.outlierChannels.includes(j));
    for (const channel of a.outlierChannels)
      expect(a.activationNorms[channel]).toBeGreaterThan(3 * Math.max(...typical));
  });

  it('random masks have exactly round(s·M·K) zeros and depend only on their seed and sparsity', () => {
    const collect = (seed: number, sparsities = [0.37], stripRows = 128) =>
      [...randomSparseStrips(300, 70, sparsities, seed, stripRows)].map((strips) => strips.map((s) => [...s.bits]));
    const mask = (seed: number, sparsities?: number[], stripRows?: number, which = 0) =>
      collect(seed, sparsities, stripRows).flatMap((strips) => strips[which]!);
    const strips = [...randomSparseStrips(300, 70, [0.37], 9, 128)];
    expect(strips.map(([s]) => s!.rows)).toEqual([128, 128, 44]);
    expect(mask(9).filter((b) => b === 0).length).toBe(Math.round(0.37 * 300 * 70));
    expect(mask(9)).toEqual(mask(9));
    expect(mask(10)).not.toEqual(mask(9));
    // Neither the strip height nor the other sparsities requested change a mask.
    expect(mask(9, [0.37], 7)).toEqual(mask(9));
    expect(mask(9, [0.8, 0.37], 128, 1)).toEqual(mask(9));
    const denser = mask(9, [0.8], 128);
    expect(denser.filter((b) => b === 0).length).toBe(Math.round(0.8 * 300 * 70));
    // Nested: every position the 37 % mask prunes, the 80 % mask prunes too.
    expect(mask(9).every((b, i) => b !== 0 || denser[i] === 0)).toBe(true);
  });
});
