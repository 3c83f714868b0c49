import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cat,
  defineModule,
  delay,
  mux,
  eventually,
  InvalidParameterError,
  output,
  seq,
  type ModuleBuilder,
  type Value,
} from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import type { CheckResults } from '../../../hw/ir/checks.ts';
import { createEngine, availableEngines } from '../../../engines/index.ts';
import type { EngineName, PortValues } from '../../../engines/engine.ts';
import { hasTool } from '../../../tools/toolchain.ts';
import { proveDesign, type PropertyResult } from '../../../verif/formal/prove.ts';

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
const OPERATORS: readonly { name: string; build: Build; holds: Waves; breaks: Waves; at: number }[] = [
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
const COVERS = [
  { name: 'reached', waves: { a: [3], b: [5] }, hits: 1 },
  { name: 'missed', waves: { a: [3], b: [8] }, hits: 0 },
];

/** The cycles run after reset; a free-running counter picks each wave's bit, then stays at 31 (all waves 0). */
const CYCLES = 24;
const mask = (cycles: readonly number[] = []): bigint => cycles.reduce((sum, cycle) => sum | (1n << BigInt(cycle)), 0n);

const Temporal = defineModule({
  name: 'TemporalOperators',
  defaults: {},
  ports: () => ({ t: output(5) }),
  build(m, io) {
    const t = m.reg('time', 5, { reset: 0 });
    t.set(mux(t.eq(31), t, t.add(1)));
    io.t.set(t);
    const wave = (cycles?: readonly number[]): Value<1> => m.lit(mask(cycles), 32).shr(t).bit(0);
    const signals = (waves: Waves): [Value<1>, Value<1>, Value<1>] => [wave(waves.a), wave(waves.b), wave(waves.c)];
    for (const operator of OPERATORS) {
      m.assert(operator.build(m, ...signals(operator.holds)), `holds: ${operator.name}`);
      m.assert(operator.build(m, ...signals(operator.breaks)), `breaks: ${operator.name}`);
    }
    for (const cover of COVERS) {
      const [a, b] = signals(cover.waves);
      m.cover(seq(a).then([1, 2], b), cover.name);
    }
  },
});

const design = elaborate(Temporal);
/** Reset in cycle 0: cycle n after reset is stream cycle n + 1. */
const stream: PortValues[] = Array.from({ length: CYCLES + 1 }, (_, cycle) => ({ reset: cycle === 0 ? 1n : 0n }));

/** The first failing cycle of each assertion (by message), from a count-mode run. */
function firstFailures(checks: CheckResults | undefined): Record<string, number> {
  const first: Record<string, number> = {};
  for (const failure of checks?.failures ?? []) first[failure.message] ??= failure.cycle;
  return first;
}

const expectedFailures = Object.fromEntries(OPERATORS.map((operator) => [`breaks: ${operator.name}`, operator.at + 1]));

describe('temporal properties in simulation', () => {
  it.each(availableEngines().available)(
    '%s: each operator holds on one waveform and fails in the cycle SVA says on the other',
    async (name) => {
      const engine = await createEngine(name as EngineName);
      const run = await engine.run(design, stream, { checks: 'count' });
      expect(firstFailures(run.checks)).toEqual(expectedFailures);
      expect(run.checks?.covers).toEqual(Object.fromEntries(COVERS.map((cover) => [cover.name, cover.hits])));
    },
  );

  it('refuses a delay outside 0..64 or a wide boolean in one line naming the call', () => {
    const Bad = (build: (m: ModuleBuilder) => void) =>
      defineModule({
        name: 'Bad',
        defaults: {},
        ports: () => ({ y: output(1) }),
        build: (m, io) => (io.y.set(0), build(m)),
      });
    expect(() => elaborate(Bad((m) => m.assert(seq(m.lit(1, 1)).implies(delay([3, 1], m.lit(1, 1))), 'x')))).toThrow(
      InvalidParameterError,
    );
    expect(() => elaborate(Bad((m) => m.assert(seq(m.lit(1, 2)).implies(m.lit(1, 1)), 'x')))).toThrow(
      /seq\(\) needs a 1-bit hardware value, got 2 bits/,
    );
    expect(() => elaborate(Bad((m) => m.cover(seq(m.lit(1, 1)).implies(m.lit(1, 1)) as never, 'x')))).toThrow(
      /takes a Value or a Sequence, not an implication/,
    );
  });
});

describe.skipIf(!hasTool('yosys') || !hasTool('yosys-abc'))('temporal properties in gen prove', () => {
  const out = mkdtempSync(join(tmpdir(), 'gen-temporal-'));
  let results: PropertyResult[];
  beforeAll(async () => {
    results = await proveDesign(design, { depth: 30, seconds: 20, out });
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('proves every true case and fails every false one in the cycle simulation fails it (from reset state)', () => {
    const verdicts = Object.fromEntries(
      results
        .filter((result) => result.kind === 'assert')
        .map((result) => [result.message, [result.status, result.cycle]]),
    );
    for (const operator of OPERATORS) {
      expect(verdicts[`holds: ${operator.name}`]).toEqual(['proved', undefined]);
      // The counterexample starts in the all-zero state, which is the state right after reset.
      expect(verdicts[`breaks: ${operator.name}`]).toEqual(['failed', operator.at]);
    }
  });

  it('finds the reachable sequence cover in the cycle simulation does and proves the other unreachable', () => {
    const covers = Object.fromEntries(
      results
        .filter((result) => result.kind === 'cover')
        .map((result) => [result.message, [result.status, result.cycle]]),
    );
    expect(covers).toEqual({ reached: ['reachable', 5], missed: ['unreachable', undefined] });
  });
});
