import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeStc, stcThreadRegisters } from '../../../../coruscant/golden/formats/stcFormat.ts';
import { coruscantMma } from '../../../../coruscant/golden/models/mma.ts';
import { coruscantMmaFromRegisters } from '../../../../coruscant/golden/models/stcMma.ts';
import type { Fp16Matrix, Fp32Matrix } from '../../../../coruscant/golden/matrix.ts';

const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2 ** 31);
console.log(
  `STC MMA property test: seed ${seed} (replay with FC_SEED=${seed} npx vitest run tests/golden/models/stcMma.test.ts)`,
);

/** The 32 threads' registers for a 32×64 weight tile, through the STC encoder. */
const registersOf = (A: Fp16Matrix) => encodeStc(A).tiles.map(stcThreadRegisters);

const sparseElement = fc.oneof(
  { arbitrary: fc.constant(0x0000), weight: 5 }, // pruned
  {
    arbitrary: fc
      .tuple(fc.integer({ min: 0x3000, max: 0x4400 }), fc.boolean())
      .map(([b, negative]) => b | (negative ? 0x8000 : 0)),
    weight: 4,
  },
  { arbitrary: fc.constantFrom(0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x7bff), weight: 1 }, // −0 is a stored value
);
const elements = (length: number, element: fc.Arbitrary<number>) =>
  fc.array(element, { minLength: length, maxLength: length });

describe('Coruscant MMA from STC registers (the sparse path)', () => {
  it('equals coruscantMma of the decompressed, zero-filled weights bit for bit', () => {
    fc.assert(
      fc.property(
        elements(32 * 64, sparseElement),
        elements(64, fc.oneof(sparseElement, fc.constantFrom(0x7c00, 0x3c00))),
        elements(32, fc.constantFrom(0, 0x80000000, 0x3f800000, 0xc1200000, 0x7f800000)),
        (a, b, c) => {
          const A: Fp16Matrix = { rows: 32, cols: 64, bits: Uint16Array.from(a) };
          const B: Fp16Matrix = { rows: 64, cols: 1, bits: Uint16Array.from(b) };
          const C: Fp32Matrix = { rows: 32, cols: 1, bits: Uint32Array.from(c) };
          expect([...coruscantMmaFromRegisters(registersOf(A), B, C).bits]).toEqual([...coruscantMma(A, B, C).bits]);
        },
      ),
      { seed, numRuns: 60 },
    );
  });

  it('multiplies a pruned slot as +0 and a stored −0 as −0, exactly as the zero-filled dense MMA', () => {
    const A = { rows: 32, cols: 64, bits: new Uint16Array(32 * 64) };
    A.bits[1] = 0x3c00; // row 0 keeps column 1 only; row 1 is fully pruned
    A.bits.fill(0x8000, 2 * 64, 3 * 64); // row 2 stores −0 in every column
    const B = { rows: 64, cols: 1, bits: new Uint16Array(64).fill(0x3c00) };
    B.bits[0] = 0x7c00; // column 0 is pruned in rows 0 and 1: 0 × ∞
    const C = { rows: 32, cols: 1, bits: new Uint32Array(32).fill(0x80000000) };
    const D = coruscantMmaFromRegisters(registersOf(A), B, C).bits;
    expect(D[0]).toBe(0x7fc00000); // pruned 0 × ∞ = NaN
    expect(D[2]).toBe(0x7fc00000); // −0 × ∞ = NaN too
    expect([...D]).toEqual([...coruscantMma(A, B, C).bits]);
  });

  it('turns an accumulated −0 into +0 on fully pruned steps but keeps it for stored −0 weights', () => {
    const A = { rows: 32, cols: 64, bits: new Uint16Array(32 * 64) };
    A.bits.fill(0x8000, 0, 64); // row 0: stored −0 everywhere; row 1: fully pruned
    const B = { rows: 64, cols: 1, bits: new Uint16Array(64).fill(0x3c00) };
    const C = { rows: 32, cols: 1, bits: new Uint32Array(32).fill(0x80000000) };
    const D = coruscantMmaFromRegisters(registersOf(A), B, C).bits;
    expect([D[0], D[1]]).toEqual([0x80000000, 0x00000000]); // −0·1 sums stay −0; +0 fill makes +0
    expect([...D]).toEqual([...coruscantMma(A, B, C).bits]);
  });
});
