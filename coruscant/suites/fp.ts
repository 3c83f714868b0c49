import fc from 'fast-check';
import { elaborate } from '../../api/ir.ts';
import { Fp16Multiplier } from '../designs/fp/fp16Multiplier.ts';
import { Fp32Adder } from '../designs/fp/fp32Adder.ts';
import { DotProduct4 } from '../designs/tensor/dotProduct4.ts';
import { TensorLane, tensorLaneLatency } from '../designs/tensor/tensorLane.ts';
import type { PortValues } from '../../api/engines.ts';
import { dot4Accumulate } from '../golden/models/mma.ts';
import { fp16Product, fp32Add } from '../golden/numerics/fp32.ts';
import { defineSuite, once, type RegressSuite } from '../../api/regress.ts';
import { fp16Bits, fp16CancellingChunk, fp16Quad, fp32Bits, fp32Pair } from './fpOperands.ts';
import { cancellationBins, classPairBins, FP16, FP32 } from './coverageGoals.ts';
import type { CoverageSpec } from '../../api/regress.ts';

/** Up to this many operand sets per case, one per cycle: a case shrinks to the one that fails. */
const MAX_VECTORS_PER_CASE = 8;
const vectorsOf = <T>(item: fc.Arbitrary<T>): fc.Arbitrary<T[]> =>
  fc.array(item, { minLength: 1, maxLength: MAX_VECTORS_PER_CASE });

/** A combinational two-operand unit: each cycle's output is the golden function of that cycle's operands. */
function binaryUnitSuite(
  name: string,
  design: () => ReturnType<typeof elaborate>,
  output: string,
  pair: fc.Arbitrary<readonly [number, number]>,
  golden: (a: number, b: number) => number,
  coverage: CoverageSpec<readonly (readonly [number, number])[]>,
): RegressSuite {
  return defineSuite({
    name,
    groups: ['fp'],
    description: `${name} (comb) = golden ${golden.name}`,
    arbitrary: vectorsOf(pair),
    design,
    coverage,
    vectors: (pairs) => ({
      stimulus: pairs.map(([a, b]) => ({ a: BigInt(a), b: BigInt(b) })),
      expected: pairs.map(([a, b]) => ({ [output]: BigInt(golden(a, b) >>> 0) })),
    }),
  });
}

const operandPorts = (a: readonly number[], b: readonly number[]): PortValues =>
  Object.fromEntries([
    ...a.map((value, k) => [`a_${k}`, BigInt(value)]),
    ...b.map((value, k) => [`b_${k}`, BigInt(value)]),
  ]);

/** The FEDP alone in docs/spec.md §2 order: (p0 + p1) + (p2 + p3). */
function goldenDot(a: readonly number[], b: readonly number[]): number {
  const p = a.map((value, k) => fp16Product(value, b[k]!));
  return fp32Add(fp32Add(p[0]!, p[1]!), fp32Add(p[2]!, p[3]!)) >>> 0;
}

interface LaneCycle {
  readonly a: readonly number[];
  readonly b: readonly number[];
  readonly enable: boolean;
  readonly loadC: boolean;
  readonly c: number;
}

/** One chunk of dot-product operands: two quads, or (one in five) products that cancel in all but their last bits. */
const dotChunk: fc.Arbitrary<[number[], number[]]> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fp16Quad, fp16Quad) },
  { weight: 1, arbitrary: fp16CancellingChunk },
);

/** Largest distance, in FP32 units in the last place, of a cancelling C from −dot. */
const CANCEL_C_ULPS = 8;
const FP32_SIGN = 0x80000000;
const FP32_INFINITY = 0x7f800000;
const FP32_LARGEST_FINITE = 0x7f7fffff;

/**
 * A lane cycle. One in four loads C near −dot of its own chunk (a few ulps off), so the
 * accumulate adder cancels all but the last bits — the deep renormalization a random C never
 * reaches (a mutant of that adder's leading-zero count survived without it).
 */
const laneCycle: fc.Arbitrary<LaneCycle> = fc
  .record({
    operands: dotChunk,
    enable: fc.boolean(),
    loadC: fc.boolean(),
    c: fp32Bits,
    cancel: fc.nat(3),
    ulps: fc.integer({ min: -CANCEL_C_ULPS, max: CANCEL_C_ULPS }),
  })
  .map(({ operands: [a, b], cancel, ulps, c, ...control }) => {
    const dot = goldenDot(a, b);
    const magnitude = dot & 0x7fffffff;
    // Stepping the magnitude's pattern moves by ulps (kept finite); a NaN or ∞ dot has nothing to cancel.
    const nearNegative =
      (((dot ^ FP32_SIGN) & FP32_SIGN) | Math.min(FP32_LARGEST_FINITE, Math.max(0, magnitude + ulps))) >>> 0;
    return { a, b, ...control, c: cancel === 0 && magnitude < FP32_INFINITY ? nearNegative : c };
  });
const IDLE_LANE: LaneCycle = { a: [0, 0, 0, 0], b: [0, 0, 0, 0], enable: false, loadC: false, c: 0 };
const LANE_PIPELINED = 1;
const lanePorts = (cycle: LaneCycle, reset: boolean): PortValues => ({
  ...operandPorts(cycle.a, cycle.b),
  enable: BigInt(cycle.enable),
  loadC: BigInt(cycle.loadC),
  c: BigInt(cycle.c),
  reset: BigInt(reset),
});

/** The lane: reset, the case's chunks, then idle cycles until the last chunk shows on acc. */
function laneVectors(cycles: readonly LaneCycle[]): { stimulus: PortValues[]; expected: PortValues[] } {
  const latency = tensorLaneLatency(LANE_PIPELINED);
  const stimulus = [
    lanePorts(IDLE_LANE, true),
    ...cycles.map((cycle) => lanePorts(cycle, false)),
    ...Array.from({ length: latency }, () => lanePorts(IDLE_LANE, false)),
  ];
  const expected: PortValues[] = stimulus.map(() => ({}));
  let acc = 0;
  cycles.forEach(({ a, b, enable, loadC, c }, index) => {
    acc = enable ? dot4Accumulate(loadC ? c : acc, a, b) >>> 0 : acc;
    expected[1 + index + latency] = { acc: BigInt(acc) };
  });
  return { stimulus, expected };
}

/** FP units and the tensor lane, each against its golden model (golden/numerics, golden/models/mma.ts). */
export const fpSuites: readonly RegressSuite[] = [
  binaryUnitSuite(
    'Fp16Multiplier',
    once(() => elaborate(Fp16Multiplier)),
    'p',
    fc.tuple(fp16Bits, fp16Bits),
    fp16Product,
    {
      bins: [
        classPairBins(
          FP16,
          (pairs: readonly (readonly [number, number])[]) => pairs,
          'both operands special: fp16Bits draws one in about 10 operands, so this pair is about 1 in 1000–5000 pairs; --runs 1000 reaches every pair',
        ),
      ],
    },
  ),
  binaryUnitSuite(
    'Fp32Adder',
    once(() => elaborate(Fp32Adder)),
    's',
    fp32Pair,
    fp32Add,
    {
      bins: [
        classPairBins(
          FP32,
          (pairs: readonly (readonly [number, number])[]) => pairs,
          'both operands special: fp32Pair draws two of its 12 specials in 1 pair of 9, so this pair is about 1 in 300–600 pairs; --runs 1000 reaches every pair',
        ),
        cancellationBins(''),
      ],
    },
  ),
  defineSuite({
    name: 'DotProduct4',
    groups: ['fp', 'tensor'],
    description: 'DotProduct4 (comb) = (p0 + p1) + (p2 + p3), docs/spec.md §2',
    arbitrary: vectorsOf(dotChunk),
    design: once(() => elaborate(DotProduct4)),
    coverage: {
      bins: [
        classPairBins(FP16, (chunks: readonly [number[], number[]][]) =>
          chunks.flatMap(([a, b]) => a.map((value, k): readonly [number, number] => [value, b[k]!])),
        ),
        cancellationBins('sum01'),
        cancellationBins('sumAll', {
          '16–26':
            'the cancelling chunk cancels p0 + p1 and p2 + p3 each; the last adder cancels 16 bits or more only when the two half sums nearly cancel each other, which no generator aims at',
        }),
      ],
    },
    vectors: (chunks) => ({
      stimulus: chunks.map(([a, b]) => operandPorts(a, b)),
      expected: chunks.map(([a, b]) => ({ dot: BigInt(goldenDot(a, b)) })),
    }),
  }),
  defineSuite({
    name: 'TensorLane',
    groups: ['fp', 'tensor'],
    description: `TensorLane (pipelined=${LANE_PIPELINED}) accumulator = golden lane step per enabled chunk`,
    arbitrary: fc.array(laneCycle, { minLength: 1, maxLength: 16 }),
    design: once(() => elaborate(TensorLane, { pipelined: LANE_PIPELINED })),
    coverage: {
      bins: [
        cancellationBins('accumulate', {
          '8–15':
            'C is drawn within 8 ulps of −dot (a cancellation of 20 bits or more) or at random (a few bits); 8–15 bits need C within 2^8–2^16 ulps of −dot, about 1 cycle in 2000; --runs 1000 reaches it',
        }),
      ],
    },
    vectors: laneVectors,
  }),
];
