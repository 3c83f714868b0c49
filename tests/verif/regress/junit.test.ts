import { describe, expect, it } from 'vitest';
import { junitXml } from '../../../verif/regress/junit.ts';
import type { SuiteRun } from '../../../verif/regress/regression.ts';
import { junitCounts } from './junitCounts.ts';

const run = (suite: string, engine: SuiteRun['engine'], cases: number, failing: number[]): SuiteRun => ({
  suite,
  engine,
  cases,
  milliseconds: 1234,
  span: { first: 0, step: 3, count: cases },
  runSeed: 1,
  failures: failing.map((caseIndex) => ({
    caseIndex,
    caseSeed: 1000 + caseIndex / 3,
    message: `cycle 2: s = 0x1 <"&'> golden 0x2 \u0001`,
    replay: `gen regress --case ${caseIndex}`,
    folder: 'out/x',
  })),
});

describe('JUnit XML', () => {
  it('is well-formed, with one testsuite per suite × engine and the right test and failure counts', () => {
    const xml = junitXml([
      run('Fp32Adder', 'ts', 5, [3, 9]),
      run('Fp32Adder', 'icarus', 4, []),
      run('AdderChain', 'verilator', 2, [0]),
    ]);
    expect(junitCounts(xml)).toEqual([
      ['Fp32Adder.ts', 5, 2, 5, 2],
      ['Fp32Adder.icarus', 4, 0, 4, 0],
      ['AdderChain.verilator', 2, 1, 2, 1],
    ]);
    expect(xml).toContain('replay: gen regress --case 9');
    expect(xml).toMatch(/<testsuites name="gen regress" tests="11" failures="3"/);
  });
});
