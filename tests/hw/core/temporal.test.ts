import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineModule, delay, InvalidParameterError, output, seq, type ModuleBuilder } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import type { CheckResults } from '../../../hw/contract/checks.ts';
import { createEngine, availableEngines } from '../../../engines/index.ts';
import type { EngineName } from '../../../hw/contract/engine.ts';
import { hasTool } from '../../../tools/toolchain.ts';
import { proveDesign, type PropertyResult } from '../../../verif/formal/prove.ts';
import {
  COVERS,
  expectedVerdicts,
  OPERATORS,
  TEMPORAL_STREAM,
  temporalDesign,
  verdicts,
} from '../../support/temporalOperators.ts';

const design = temporalDesign();

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
      const run = await engine.run(design, TEMPORAL_STREAM, { checks: 'count' });
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

/** The operators whose monitors have per-attempt slots and token windows: the rest are in tests/soak. */
const PROVED = OPERATORS.filter((operator) => /##\[1:3\]|eventually|##1 b \|->/.test(operator.name));

describe.skipIf(!hasTool('yosys') || !hasTool('yosys-abc'))('temporal properties in gen prove', () => {
  const out = mkdtempSync(join(tmpdir(), 'gen-temporal-'));
  let results: PropertyResult[];
  beforeAll(async () => {
    results = await proveDesign(temporalDesign(PROVED), { depth: 30, seconds: 20, out });
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('proves every true case and fails every false one in the cycle simulation fails it (from reset state)', () => {
    expect(PROVED).toHaveLength(3);
    expect(verdicts(results, 'assert')).toEqual(expectedVerdicts(PROVED));
  });

  it('finds the reachable sequence cover in the cycle simulation does and proves the other unreachable', () => {
    expect(verdicts(results, 'cover')).toEqual({ reached: ['reachable', 5], missed: ['unreachable', undefined] });
  });
});
