import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { defineSuite, once } from '../../../verif/regress/suite.ts';
import { runRegression } from '../../../verif/regress/regression.ts';
import { Handshake } from '../../../verif/formal/examples/handshake.ts';
import { regressionOptions } from '../regress/regressOptions.ts';

/**
 * The handshake with bound 5 (its count reaches 5 in the 6th busy cycle) and no expected outputs:
 * only its assertion can fail a case. A case is a number of idle cycles before one start; a run
 * of 12 cycles fails exactly when the start leaves 6 busy cycles inside it.
 */
const suite = defineSuite({
  name: 'HandshakeAssert',
  arbitrary: fc.integer({ min: 0, max: 11 }),
  design: once(() => elaborate(Handshake, { bound: 5 })),
  vectors: (idle: number) => {
    const stimulus = Array.from({ length: 12 }, (_, cycle) => ({ reset: 0n, start: cycle === idle ? 1n : 0n }));
    return { stimulus, expected: stimulus.map(() => ({})) };
  },
});

describe('gen regress with assertions', () => {
  it.each(['ts', 'icarus'] as const)(
    '%s: a failing assertion fails the case, is shrunk and saved with its waveform',
    async (engine) => {
      const [run] = await runRegression(regressionOptions({ suites: [suite], engines: [engine], runs: 30, seed: 7 }));
      expect(run!.failures.length).toBeGreaterThan(0);
      const failure = run!.failures[0]!;
      expect(failure.message).toMatch(
        /verif\/formal\/examples\/handshake\.ts:\d+: assertion failed at cycle \d+.*"the count stays below bound" \(counter=0x5\)/,
      );
      // Shrunk to the earliest start (idle 0): the count is 5 in cycle 6.
      expect(failure.folder).toBeDefined();
      const caseJson = JSON.parse(readFileSync(join(failure.folder!, 'case.json'), 'utf8')) as {
        case: number;
        mismatch: { cycle: number };
      };
      expect(caseJson.case).toBe(0);
      expect(caseJson.mismatch.cycle).toBe(6);
      expect(existsSync(join(failure.folder!, 'wave.vcd'))).toBe(true);
    },
  );
});
