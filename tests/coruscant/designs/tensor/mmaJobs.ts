/**
 * Random MMA jobs for the MmaUnit tests: FP16 operands biased to finite values with a share of
 * specials (±0, subnormals, ±∞, NaNs), FP32 C with the same, and A pruned to 30–70 % sparsity.
 */
import fc from 'fast-check';
import type { MmaJob } from '../../../../coruscant/mma/mmaSchedule.ts';
import { MMA_SHAPES, type MmaMode } from '../../../../coruscant/mma/registerImages.ts';

const FP16_SPECIALS = [0x0000, 0x8000, 0x0001, 0x83ff, 0x7c00, 0xfc00, 0x7e00, 0x7d01, 0x7bff];
const FP32_SPECIALS = [0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001, 0x00000001, 0x7f7fffff];

/** FP16 values: mostly moderate magnitudes (sums stay finite), some of any pattern, some specials. */
export const fp16 = fc.oneof(
  {
    weight: 20,
    arbitrary: fc
      .record({ sign: fc.nat(1), exponent: fc.integer({ min: 8, max: 20 }), fraction: fc.nat(0x3ff) })
      .map(({ sign, exponent, fraction }) => (sign << 15) | (exponent << 10) | fraction),
  },
  { weight: 1, arbitrary: fc.nat(0xffff) },
  { weight: 1, arbitrary: fc.constantFrom(...FP16_SPECIALS) },
);
const fp32 = fc.oneof(
  {
    weight: 20,
    arbitrary: fc
      .float({ noNaN: true, min: -1e4, max: 1e4 })
      .map((x) => new Uint32Array(new Float32Array([x]).buffer)[0]!),
  },
  { weight: 1, arbitrary: fc.constantFrom(...FP32_SPECIALS) },
);

/** One MMA of `mode`; coruscant A is pruned to a sparsity drawn from 30–70 %. */
export function mmaJob(mode: MmaMode): fc.Arbitrary<MmaJob> {
  const { m, n, k } = MMA_SHAPES[mode];
  const values = (count: number) => fc.array(fp16, { minLength: count, maxLength: count });
  const a =
    mode === 'dense'
      ? values(m * k)
      : fc
          .tuple(
            values(m * k),
            fc.integer({ min: 30, max: 70 }),
            fc.array(fc.nat(99), { minLength: m * k, maxLength: m * k }),
          )
          .map(([bits, sparsity, draws]) => bits.map((bit, i) => (draws[i]! < sparsity ? 0 : bit)));
  return fc
    .record({
      A: a.map((bits) => ({ rows: m, cols: k, bits: Uint16Array.from(bits) })),
      B: values(k * n).map((bits) => ({ rows: k, cols: n, bits: Uint16Array.from(bits) })),
      C: fc
        .array(fp32, { minLength: m * n, maxLength: m * n })
        .map((bits) => ({ rows: m, cols: n, bits: Uint32Array.from(bits) })),
    })
    .map((operands) => ({ mode, ...operands }));
}
