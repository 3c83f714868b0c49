import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zerosFp32, type Fp16Matrix, type Fp32Matrix } from '../../../../coruscant/golden/matrix.ts';
import { coruscantMma, denseMma, dot4Accumulate } from '../../../../coruscant/golden/models/mma.ts';
import { spmm } from '../../../../coruscant/golden/models/spmm.ts';
import { referenceFp32Add } from '../numerics/referenceFp32Add.ts';

const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2 ** 31);
console.log(
  `golden MMA/SpMM property tests: seed ${seed} (replay with FC_SEED=${seed} npx vitest run tests/verif/golden)`,
);

const CANONICAL_NAN = 0x7fc00000;
const scratch = new DataView(new ArrayBuffer(8));

/** FP16 bits → value, written here from the IEEE definition (not the model's decoder). */
function halfValue(bits: number): number {
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  const sign = bits & 0x8000 ? -1 : 1;
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * (exponent ? 1024 + fraction : fraction) * 2 ** (Math.max(exponent, 1) - 25);
}

/** The exact product as FP32 bits: exact in double, and exactly representable in FP32. */
function productBits(a: number, b: number): number {
  const product = halfValue(a) * halfValue(b);
  if (Number.isNaN(product)) return CANONICAL_NAN;
  scratch.setFloat32(0, product);
  return scratch.getUint32(0);
}

/**
 * The plain triple loop of docs/spec.md §2, written independently of the model: per output,
 * acc = C; for k0 in 0, 4, … < kSpan: acc = acc + ((p0 + p1) + (p2 + p3)), zero-filled past K.
 */
function tripleLoop(A: Fp16Matrix, B: Fp16Matrix, C: Fp32Matrix, kSpan: number): Uint32Array {
  const out = new Uint32Array(A.rows * B.cols);
  for (let m = 0; m < A.rows; m++) {
    for (let n = 0; n < B.cols; n++) {
      let acc = C.bits[m * B.cols + n]!;
      for (let k0 = 0; k0 < kSpan; k0 += 4) {
        const p: number[] = [];
        for (let k = k0; k < k0 + 4; k++) {
          p.push(k < A.cols ? productBits(A.bits[m * A.cols + k]!, B.bits[k * B.cols + n]!) : productBits(0, 0));
        }
        acc = referenceFp32Add(acc, referenceFp32Add(referenceFp32Add(p[0]!, p[1]!), referenceFp32Add(p[2]!, p[3]!)));
      }
      out[m * B.cols + n] = acc;
    }
  }
  return out;
}

const hex = (bits: Uint32Array): string[] => [...bits].map((b) => b.toString(16));

const FP16_SPECIALS = [0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x0001, 0x03ff, 0x0400, 0x7bff, 0xfbff];
const FP32_SPECIALS = [0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00001, 0x3f800000, 0x4b800000];
/** Clears the top exponent bit, so no NaN or ∞ can appear. */
const finiteFp16 = (bits: number): number => bits & 0xbfff;
const finiteFp32 = (bits: number): number => (bits & 0xbfffffff) >>> 0;

/**
 * Mostly small exact values (which cancel and tie), pruned zeros (both signs), arbitrary
 * patterns; NaN and ∞ only in "wild" problems, since one of them swamps a whole dot product.
 */
function fp16Element(wild: boolean): fc.Arbitrary<number> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(0x0000, 0x0000, 0x8000), weight: 3 },
    { arbitrary: fc.integer({ min: -64, max: 64 }).map((v) => halfBits(v / 4)), weight: 6 },
    { arbitrary: fc.integer({ min: 0, max: 0xffff }).map((b) => (wild ? b : finiteFp16(b))), weight: 2 },
    { arbitrary: fc.constantFrom(...FP16_SPECIALS.map((b) => (wild ? b : finiteFp16(b)))), weight: wild ? 1 : 0 },
  );
}
function fp32Element(wild: boolean): fc.Arbitrary<number> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...FP32_SPECIALS.map((b) => (wild ? b : finiteFp32(b)))), weight: 1 },
    { arbitrary: fc.integer({ min: 0, max: 0xffffffff }).map((b) => (wild ? b : finiteFp32(b))), weight: 2 },
  );
}

/** Small multiples of 1/4 as FP16 bits (exact), for sums that cancel and round. */
function halfBits(value: number): number {
  if (value === 0) return 0;
  const sign = value < 0 ? 0x8000 : 0;
  const magnitude = Math.abs(value);
  const exponent = Math.floor(Math.log2(magnitude));
  return sign | ((exponent + 15) << 10) | Math.round((magnitude / 2 ** exponent - 1) * 1024);
}

function fp16Matrix(rows: number, cols: number, wild: boolean): fc.Arbitrary<Fp16Matrix> {
  return fc
    .array(fp16Element(wild), { minLength: rows * cols, maxLength: rows * cols })
    .map((v) => ({ rows, cols, bits: Uint16Array.from(v) }));
}
function fp32Matrix(rows: number, cols: number, wild: boolean): fc.Arbitrary<Fp32Matrix> {
  return fc
    .array(fp32Element(wild), { minLength: rows * cols, maxLength: rows * cols })
    .map((v) => ({ rows, cols, bits: Uint32Array.from(v) }));
}

/** A(m×k), B(k×n), C(m×n); one problem in four is "wild" (NaN, ∞ and any bit pattern). */
const problem = (m: number, k: number, n: number) =>
  fc
    .oneof({ arbitrary: fc.constant(false), weight: 3 }, { arbitrary: fc.constant(true), weight: 1 })
    .chain((wild) => fc.record({ A: fp16Matrix(m, k, wild), B: fp16Matrix(k, n, wild), C: fp32Matrix(m, n, wild) }));

describe('dot4Accumulate', () => {
  it('adds in the tree order ((p0 + p1) + (p2 + p3)), not left to right', () => {
    // p = 2^24, 1, 1, −2^24: the tree keeps one 1 (the sum is 1); a running sum would lose both (0).
    const a = [0x6c00, 0x3c00, 0x3c00, 0xec00];
    const b = [0x6c00, 0x3c00, 0x3c00, 0x6c00];
    expect(dot4Accumulate(0, a, b)).toBe(0x3f800000);
    expect(dot4Accumulate(0x80000000, [0, 0, 0, 0], [0, 0, 0, 0])).toBe(0); // −0 + (+0) = +0
    expect(dot4Accumulate(0x3f800000, [0x7c00, 0, 0, 0], [0, 0, 0, 0])).toBe(CANONICAL_NAN); // ∞ × 0
  });
});

describe('golden SpMM', () => {
  it('equals the plain triple loop bit for bit on random shapes (any M, K, N), NaN/∞ included', () => {
    const shapes = fc.tuple(
      fc.integer({ min: 0, max: 9 }),
      fc.integer({ min: 0, max: 150 }),
      fc.integer({ min: 0, max: 4 }),
    );
    fc.assert(
      fc.property(
        shapes.chain(([m, k, n]) => problem(m, k, n)),
        ({ A, B, C }) => {
          const kSpan = Math.ceil(A.cols / 64) * 64;
          expect(hex(spmm(A, B, C).bits)).toEqual(hex(tripleLoop(A, B, C, kSpan)));
        },
      ),
      { seed, numRuns: 150 },
    );
  });

  it('walks whole 64-wide K tiles: the zero-filled steps turn an accumulated −0 into +0', () => {
    // Every product is −0 (1 × −0), so the first step leaves acc = −0 + −0 = −0; the 15 padded
    // steps then add +0 (0 × 0) and the result is +0, as on the hardware.
    const A: Fp16Matrix = { rows: 1, cols: 4, bits: new Uint16Array(4).fill(0x3c00) };
    const B: Fp16Matrix = { rows: 4, cols: 1, bits: new Uint16Array(4).fill(0x8000) };
    const C: Fp32Matrix = { rows: 1, cols: 1, bits: Uint32Array.from([0x80000000]) };
    expect([...spmm(A, B, C).bits]).toEqual([0x00000000]);
    const A64: Fp16Matrix = { rows: 1, cols: 64, bits: new Uint16Array(64).fill(0x3c00) };
    const B64: Fp16Matrix = { rows: 64, cols: 1, bits: new Uint16Array(64).fill(0x8000) };
    expect([...spmm(A64, B64, C).bits]).toEqual([0x80000000]);
  });

  it('defaults C to +0 and returns C untouched (payloads too) when K = 0', () => {
    const A: Fp16Matrix = { rows: 2, cols: 3, bits: Uint16Array.from([0x3c00, 0x4000, 0x4200, 0xbc00, 0, 0x3800]) };
    const B: Fp16Matrix = { rows: 3, cols: 1, bits: Uint16Array.from([0x3c00, 0x3c00, 0x3c00]) };
    expect([...spmm(A, B).bits]).toEqual([0x40c00000, 0xbf000000]); // 1+2+3 = 6, −1+0+0.5 = −0.5
    const C = { rows: 2, cols: 1, bits: Uint32Array.from([0x7fc00123, 0x80000000]) };
    expect([
      ...spmm({ rows: 2, cols: 0, bits: new Uint16Array(0) }, { rows: 0, cols: 1, bits: new Uint16Array(0) }, C).bits,
    ]).toEqual([0x7fc00123, 0x80000000]);
  });

  it('rejects shapes that do not chain', () => {
    expect(() =>
      spmm({ rows: 1, cols: 2, bits: new Uint16Array(2) }, { rows: 3, cols: 1, bits: new Uint16Array(3) }),
    ).toThrow(RangeError);
  });

  it('is the Coruscant MMA chained over 32-row blocks, 64-wide K tiles and single columns', () => {
    fc.assert(
      fc.property(
        fc
          .tuple(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 3 }))
          .chain(([m, k, n]) => problem(m, k, n)),
        ({ A, B, C }) => {
          const D = zerosFp32(A.rows, B.cols);
          for (let m0 = 0; m0 < A.rows; m0 += 32) {
            for (let n = 0; n < B.cols; n++) {
              let acc: Fp32Matrix = {
                rows: 32,
                cols: 1,
                bits: Uint32Array.from({ length: 32 }, (_, r) =>
                  m0 + r < A.rows ? C.bits[(m0 + r) * B.cols + n]! : 0,
                ),
              };
              for (let k0 = 0; k0 < A.cols; k0 += 64) {
                // The decompressed, zero-filled STC row tiles of this block, and the matching B chunk.
                const tile = Uint16Array.from({ length: 32 * 64 }, (_, i) => {
                  const [r, c] = [m0 + Math.floor(i / 64), k0 + (i % 64)];
                  return r < A.rows && c < A.cols ? A.bits[r * A.cols + c]! : 0;
                });
                const chunk = Uint16Array.from({ length: 64 }, (_, c) =>
                  k0 + c < A.cols ? B.bits[(k0 + c) * B.cols + n]! : 0,
                );
                acc = coruscantMma({ rows: 32, cols: 64, bits: tile }, { rows: 64, cols: 1, bits: chunk }, acc);
              }
              for (let r = 0; r < 32 && m0 + r < A.rows; r++) D.bits[(m0 + r) * B.cols + n] = acc.bits[r]!;
            }
          }
          expect(hex(spmm(A, B, C).bits)).toEqual(hex(D.bits));
        },
      ),
      { seed, numRuns: 40 },
    );
  });
});

describe('golden MMAs', () => {
  it('coruscantMma (m32n1k64) equals the triple loop and spmm on its shape', () => {
    fc.assert(
      fc.property(problem(32, 64, 1), ({ A, B, C }) => {
        const D = coruscantMma(A, B, C).bits;
        expect(hex(D)).toEqual(hex(tripleLoop(A, B, C, 64)));
        expect(hex(D)).toEqual(hex(spmm(A, B, C).bits));
      }),
      { seed, numRuns: 40 },
    );
  });

  it('denseMma (m16n8k16) equals the triple loop over K = 16, and spmm up to the −0 its 48 zero-filled steps turn to +0', () => {
    fc.assert(
      fc.property(problem(16, 16, 8), ({ A, B, C }) => {
        const D = denseMma(A, B, C).bits;
        expect(hex(D)).toEqual(hex(tripleLoop(A, B, C, 16)));
        expect(hex(spmm(A, B, C).bits)).toEqual(hex(D.map((bits) => (bits === 0x80000000 ? 0 : bits))));
      }),
      { seed, numRuns: 40 },
    );
  });

  it('rejects operands of the wrong shape', () => {
    const a = { rows: 16, cols: 16, bits: new Uint16Array(256) };
    const b = { rows: 16, cols: 8, bits: new Uint16Array(128) };
    expect(() => denseMma(a, b, zerosFp32(16, 4))).toThrow(/dense MMA C must be 16×8, got 16×4/);
    expect(() => coruscantMma(a, b, zerosFp32(32, 1))).toThrow(/Coruscant MMA A must be 32×64, got 16×16/);
  });
});
