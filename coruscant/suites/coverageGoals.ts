import type { CaseBins, SignalBins } from '../../api/regress.ts';
import { log2Bins } from '../../api/regress.ts';

/**
 * The Coruscant regressions' coverage goals (docs/regressions.md, "Coverage closure"): every
 * popcount of a 4-slot chunk, every bitmap density class, every FP operand class pair, and the
 * adders' cancellation depths. The suites in decoder.ts and fp.ts declare them.
 */

/** Every popcount of a 4-bit chunk: the lane detector's `count` (the adder chain's input). */
export const popcountBins = (signal: string): SignalBins => ({
  name: `popcount (${signal})`,
  signal,
  bins: [0, 1, 2, 3, 4],
});

/** The dense pointer of an MMA: 0, 4, …, 60 in the cycles that belong to one. */
export const densePointerBins = (signal: string, when: string, tileLength: number, slots: number): SignalBins => ({
  name: 'dense pointer',
  signal,
  when,
  bins: Array.from({ length: tileLength / slots }, (_, chunk) => chunk * slots),
});

/** Density classes of a K-bit bitmap row (the paper's range is 30–70 % dense). */
export function densityClass(bitmap: bigint, tileLength: number): string {
  let ones = 0;
  for (let rest = bitmap; rest > 0n; rest &= rest - 1n) ones++;
  if (ones === 0) return 'empty';
  if (ones === 1) return 'one nonzero';
  if (ones === tileLength) return 'full';
  const percent = (100 * ones) / tileLength;
  return percent < 30 ? 'under 30 %' : percent <= 70 ? '30–70 %' : 'over 70 %';
}

export const DENSITY_CLASSES = ['empty', 'one nonzero', 'under 30 %', '30–70 %', 'over 70 %', 'full'] as const;

/** Bins of every bitmap a stream starts an MMA with. */
export function densityBins(
  tileLength: number,
): CaseBins<readonly { readonly start?: boolean; readonly bitmaps?: readonly bigint[] }[]> {
  return {
    name: 'bitmap density class',
    bins: [...DENSITY_CLASSES],
    of: ({ testCase }) =>
      testCase.flatMap((cycle) =>
        cycle.start ? (cycle.bitmaps ?? []).map((bitmap) => densityClass(bitmap, tileLength)) : [],
      ),
    why: {
      'under 30 %': 'drawn only by the 30–70 % generator at its low end (a 64-bit row under 20 ones)',
      'over 70 %': 'drawn only by the 30–70 % generator at its high end (a 64-bit row over 44 ones)',
    },
  };
}

/** IEEE classes of an operand pattern. */
export const FP_CLASSES = ['zero', 'subnormal', 'normal', 'infinity', 'NaN'] as const;

export function fpClass(bits: number, exponentBits: number, fractionBits: number): (typeof FP_CLASSES)[number] {
  const fraction = bits % 2 ** fractionBits;
  const exponent = Math.floor(bits / 2 ** fractionBits) % 2 ** exponentBits;
  if (exponent === 2 ** exponentBits - 1) return fraction === 0 ? 'infinity' : 'NaN';
  if (exponent === 0) return fraction === 0 ? 'zero' : 'subnormal';
  return 'normal';
}

export const FP16 = { exponentBits: 5, fractionBits: 10 } as const;
export const FP32 = { exponentBits: 8, fractionBits: 23 } as const;

/**
 * Every pair of operand classes, `normal×NaN` …, of the operand pairs a case gives. `rarePairs`
 * says why a pair of two non-normal operands may be missed at the default 100 runs.
 */
export function classPairBins<Case>(
  format: { readonly exponentBits: number; readonly fractionBits: number },
  pairsOf: (testCase: Case) => readonly (readonly [number, number])[],
  rarePairs?: string,
): CaseBins<Case> {
  const cls = (bits: number): string => fpClass(bits, format.exponentBits, format.fractionBits);
  const bins = FP_CLASSES.flatMap((a) => FP_CLASSES.map((b) => `${a}×${b}`));
  return {
    name: 'operand class pair',
    bins,
    of: ({ testCase }) => pairsOf(testCase).map(([a, b]) => `${cls(a)}×${cls(b)}`),
    ...(rarePairs === undefined
      ? {}
      : { why: Object.fromEntries(bins.filter((bin) => !isNormalPair(bin)).map((bin) => [bin, rarePairs])) }),
  };
}

/** Whether a class pair has a normal operand (such pairs are common in every generator). */
const isNormalPair = (bin: string): boolean => bin.split('×').includes('normal');

/**
 * An FP32 adder's normalization left shift: how many leading bits of its 27-bit working sum
 * cancelled (0, 1, 2–3, …, 16–26), and 27 when the sum is exactly zero (a − a).
 */
export const cancellationBins = (adder: string, why?: Readonly<Record<string, string>>): SignalBins => ({
  name: `cancellation depth (${adder === '' ? 'adder' : adder})`,
  signal: adder === '' ? 'normalizeShift' : `${adder}.normalizeShift`,
  bins: [...log2Bins(26), { name: 'zero sum (27)', min: 27, max: 27 }],
  ...(why ? { why } : {}),
});
