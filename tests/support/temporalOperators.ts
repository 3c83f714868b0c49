import {
  cat,
  defineModule,
  delay,
  eventually,
  mux,
  output,
  seq,
  type ModuleBuilder,
  type Value,
} from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import type { PropertyResult } from '../../verif/formal/prove.ts';

/** The waveforms of one case: the cycles (counted from the end of reset) in which a, b and c are 1. */
interface Waves {
  readonly a: readonly number[];
  readonly b?: readonly number[];
  readonly c?: readonly number[];
}

type Build = (m: ModuleBuilder, a: Value<1>, b: Value<1>, c: Value<1>) => Parameters<ModuleBuilder['assert']>[0];

/**
 * Each operator with a waveform it holds on and one it breaks, with the cycle the break is due
 * in (by SVA semantics, worked by hand): the cycle an attempt can no longer succeed.
 */
/** An operator, a waveform it holds on and one it breaks, with the cycle the break is due in. */
export interface Operator {
  readonly name: string;
  readonly build: Build;
  readonly holds: Waves;
  readonly breaks: Waves;
  readonly at: number;
}

export const OPERATORS: readonly Operator[] = [
  {
    name: 'a |-> b',
    build: (_, a, b) => seq(a).implies(b),
    holds: { a: [3, 8], b: [3, 8, 9] },
    breaks: { a: [3, 8], b: [3] },
    at: 8,
  },
  {
    name: 'a |=> b',
    build: (_, a, b) => seq(a).impliesNext(b),
    holds: { a: [3, 8], b: [4, 9] },
    breaks: { a: [3, 8], b: [4, 8] },
    at: 9,
  },
  {
    name: 'a |-> ##2 b',
    build: (_, a, b) => seq(a).implies(delay(2, b)),
    holds: { a: [3, 4], b: [5, 6] },
    breaks: { a: [3, 4], b: [5] },
    at: 6,
  },
  // The attempt of cycle 2 is met by b in 4; that must not discharge the attempt of cycle 4.
  {
    name: 'a |-> ##[1:3] b',
    build: (_, a, b) => seq(a).implies(delay([1, 3], b)),
    holds: { a: [2, 3], b: [5] },
    breaks: { a: [2, 4], b: [4] },
    at: 7,
  },
  {
    name: 'a ##1 b |-> ##1 c',
    build: (_, a, b, c) => seq(a).then(1, b).implies(delay(1, c)),
    holds: { a: [3, 9], b: [4, 11], c: [5] },
    breaks: { a: [3, 7], b: [4, 8], c: [5] },
    at: 9,
  },
  {
    name: 'a |=> stable({b,c})',
    build: (m, a, b, c) => seq(a).impliesNext(m.stable(cat(b, c))),
    holds: { a: [3], b: [3, 4] },
    breaks: { a: [3, 6], b: [3, 4, 6] },
    at: 7,
  },
  {
    name: 'a |=> changed({b,c})',
    build: (m, a, b, c) => seq(a).impliesNext(m.changed(cat(b, c))),
    holds: { a: [3], b: [4] },
    breaks: { a: [3, 6], b: [4] },
    at: 7,
  },
  {
    name: 'a |-> eventually(b, within 4)',
    build: (_, a, b) => seq(a).implies(eventually(b, { within: 4 })),
    holds: { a: [2, 8], b: [6, 8] },
    breaks: { a: [2, 8], b: [6] },
    at: 12,
  },
  {
    name: 'always a ##1 b',
    build: (_, a, b) => seq(a).then(1, b),
    holds: { a: [...Array(32).keys()], b: [...Array(31).keys()].map((t) => t + 1) },
    breaks: { a: [...Array(32).keys()], b: [1, 2, 3] },
    at: 4,
  },
];

/** Cover points over a sequence: one the waveform reaches (in cycle 5), one it never does. */
export const COVERS = [
  { name: 'reached', waves: { a: [3], b: [5] }, hits: 1 },
  { name: 'missed', waves: { a: [3], b: [8] }, hits: 0 },
];

/** The cycles run after reset; a free-running counter picks each wave's bit, then stays at 31 (all waves 0). */
const CYCLES = 24;
const mask = (cycles: readonly number[] = []): bigint => cycles.reduce((sum, cycle) => sum | (1n << BigInt(cycle)), 0n);

/** A design with a true and a false assertion of each operator given and the sequence covers. */
export function temporalDesign(operators: readonly Operator[] = OPERATORS): IrDesign {
  return elaborate(
    defineModule({
      name: 'TemporalOperators',
      defaults: {},
      ports: () => ({ t: output(5) }),
      build(m, io) {
        const t = m.reg('time', 5, { reset: 0 });
        t.set(mux(t.eq(31), t, t.add(1)));
        io.t.set(t);
        const wave = (cycles?: readonly number[]): Value<1> => m.lit(mask(cycles), 32).shr(t).bit(0);
        const signals = (waves: Waves): [Value<1>, Value<1>, Value<1>] => [wave(waves.a), wave(waves.b), wave(waves.c)];
        for (const operator of operators) {
          m.assert(operator.build(m, ...signals(operator.holds)), `holds: ${operator.name}`);
          m.assert(operator.build(m, ...signals(operator.breaks)), `breaks: ${operator.name}`);
        }
        for (const cover of COVERS) {
          const [a, b] = signals(cover.waves);
          m.cover(seq(a).then([1, 2], b), cover.name);
        }
      },
    }),
  );
}

/** Reset in cycle 0: cycle n after reset is stream cycle n + 1. */
export const TEMPORAL_STREAM: PortValues[] = Array.from({ length: CYCLES + 1 }, (_, cycle) => ({
  reset: cycle === 0 ? 1n : 0n,
}));

/** `gen prove`'s verdict on each check, by message: status and cycle. */
export function verdicts(results: readonly PropertyResult[], kind: 'assert' | 'cover') {
  return Object.fromEntries(
    results.filter((result) => result.kind === kind).map((result) => [result.message, [result.status, result.cycle]]),
  );
}

/** What gen prove must say of the operators: every true case proved, every false one failed where simulation fails it. */
export function expectedVerdicts(operators: readonly Operator[]) {
  return Object.fromEntries(
    operators.flatMap((operator) => [
      [`holds: ${operator.name}`, ['proved', undefined]],
      // The counterexample starts in the all-zero state, which is the state right after reset.
      [`breaks: ${operator.name}`, ['failed', operator.at]],
    ]),
  );
}
