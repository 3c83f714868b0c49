import fc from 'fast-check';
import type { Fp16Matrix } from '../../../../coruscant/golden/matrix.ts';
import { Random } from '../../../../coruscant/golden/pruning/random.ts';

/** Bit patterns a format must carry unchanged: −0, infinities, quiet and signalling NaNs, subnormals. */
const SPECIAL_HALVES = [0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x0001, 0x83ff, 0x3c00];

/**
 * Random FP16 matrices of any shape up to 200×200. The density is drawn from a set that includes 0
 * and 1, so all-zero and all-nonzero tiles occur; values mix special patterns with random bits.
 * Random fill comes from a seed inside the sample, so a failure replays from fast-check's seed.
 */
export const arbitraryFp16Matrix = (maxSide = 200): fc.Arbitrary<Fp16Matrix> =>
  fc
    .record({
      rows: fc.integer({ min: 1, max: maxSide }),
      cols: fc.integer({ min: 1, max: maxSide }),
      density: fc.constantFrom(0, 0.02, 0.3, 0.5, 0.9, 1),
      fill: fc.integer(),
    })
    .map(({ rows, cols, density, fill }) => {
      const random = new Random(fill);
      const bits = new Uint16Array(rows * cols);
      for (let i = 0; i < bits.length; i++) {
        if (random.nextFloat() >= density) continue;
        const pick = random.nextInt(SPECIAL_HALVES.length + 4);
        // Random bits may themselves be 0x0000: that is a zero, which the formats must treat as one.
        bits[i] = SPECIAL_HALVES[pick] ?? random.nextUint32() & 0xffff;
      }
      return { rows, cols, bits };
    });

/** The seed for this run's property tests; replay with FC_SEED=<seed> npx vitest run <file>. */
export function propertySeed(file: string): number {
  const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2 ** 31);
  console.log(`${file}: fast-check seed ${seed} (replay: FC_SEED=${seed} npx vitest run ${file})`);
  return seed;
}

/**
 * Index of the first differing element of two typed arrays, −1 if equal (and same length). Far
 * faster than a deep `toEqual` on 40 000-element arrays, and the index makes a failure readable.
 */
export function firstDifference(a: ArrayLike<number | bigint>, b: ArrayLike<number | bigint>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}
