/**
 * FSM and cross coverage (verif/regress/coverage/fsmCoverage.ts, crossCoverage.ts): the states,
 * moves and crosses of one worked case equal the counts worked out by hand; ts, Verilator and
 * Icarus give the same FSM and cross coverage; shards merge to the unsharded coverage; a move an
 * enum register's declaration rules out is an assertion failure in simulation and in gen prove,
 * and an ILLEGAL line in the coverage summary.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineEnum, defineModule, enumReg, input, mux, output } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { availableEngines, createEngine } from '../../../engines/index.ts';
import type { EngineName, PortValues } from '../../../hw/contract/engine.ts';
import { defineSuite, once, type RegressSuite } from '../../../verif/regress/suite.ts';
import { runRegression } from '../../../verif/regress/regression.ts';
import { mergeCoverageFiles, type CoverageFile } from '../../../verif/regress/coverage/data.ts';
import { coverageSummary } from '../../../verif/regress/coverage/summary.ts';
import { coverageHtml } from '../../../verif/regress/coverage/coverageHtml.ts';
import { cross } from '../../../verif/regress/coverage/spec.ts';
import { fsmSuites } from '../../../verif/suites/fsmExamples.ts';
import { hasTool } from '../../../tools/toolchain.ts';
import { proveDesign } from '../../../verif/formal/prove.ts';
import { regressionOptions } from '../regress/regressOptions.ts';

const BUILD_TIMEOUT_MS = 600_000;
const transmitter = fsmSuites.find((suite) => suite.name === 'SerialTransmitter')! as RegressSuite<
  readonly { offer: boolean; byte: number }[]
>;
const offers = {
  name: 'offers',
  bins: ['none', 'some'],
  of: ({ testCase }: { testCase: readonly { offer: boolean }[] }) =>
    testCase.some((cycle) => cycle.offer) ? 'some' : 'none',
};
const coverage = {
  crosses: [
    cross({ signal: 'in_valid', bins: [0, 1] }, { signal: 'phase', bins: [0, 1, 2, 3] }),
    cross(offers, { signal: 'busy', bins: [1] }),
  ],
};

/** One byte offered in the first cycle after reset, then 12 idle cycles. */
const oneByte = defineSuite({
  ...transmitter,
  name: 'TxOneByte',
  arbitrary: fc.constant([{ offer: true, byte: 1 }, ...Array.from({ length: 12 }, () => ({ offer: false, byte: 0 }))]),
  coverage,
});
const randomBytes = defineSuite({ ...transmitter, name: 'TxRandom', coverage });

describe('FSM and cross coverage', () => {
  it.each(availableEngines().available)(
    '%s: one byte sent gives the state, move and cross counts worked out by hand',
    async (engine) => {
      const [run] = await runRegression(
        regressionOptions({ suites: [oneByte], engines: [engine as EngineName], runs: 1, seed: 1, coverage: true }),
      );
      const bins = run!.coverage!.bins;
      // Cycles 1–13 after the reset cycle: idle (takes the byte), start, 8 × data, stop, idle, idle.
      expect(bins['phase (states)']).toEqual({
        bins: { idle: 3, start: 1, data: 8, stop: 1 },
        other: {},
        signal: 'phase',
        kind: 'fsm-states',
      });
      expect(bins['phase (transitions)']!.bins).toEqual({
        'idle->start': 1,
        'start->data': 1,
        'data->stop': 1,
        'stop->idle': 1,
      });
      expect(bins['in_valid × phase']!.bins).toEqual({
        '0 × 0': 2,
        '0 × 1': 1,
        '0 × 2': 8,
        '0 × 3': 1,
        '1 × 0': 1,
        '1 × 1': 0,
        '1 × 2': 0,
        '1 × 3': 0,
      });
      expect(bins['offers × busy']!.bins).toEqual({ 'none × 1': 0, 'some × 1': 1 });
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'ts, Verilator and Icarus give the same FSM and cross coverage of random cases',
    async () => {
      const engines = availableEngines().available;
      const runs = await runRegression(
        regressionOptions({ suites: [randomBytes], engines, runs: 4, seed: 5, coverage: true }),
      );
      const [ts, ...others] = runs.map((run) => run.coverage!.bins);
      expect(Object.keys(ts!)).toEqual(['in_valid × phase', 'offers × busy', 'phase (states)', 'phase (transitions)']);
      for (const other of others) expect(other).toEqual(ts);
    },
    BUILD_TIMEOUT_MS,
  );

  it('the FSM and cross coverage of three shards merges to that of the unsharded run', async () => {
    const file = async (index: number, count: number): Promise<CoverageFile> => ({
      format: 'gen-coverage/1',
      seed: 9,
      runs: 12,
      shards: [`${index}/${count}`],
      suites: (
        await runRegression(
          regressionOptions({ suites: [randomBytes], runs: 12, seed: 9, shard: { index, count }, coverage: true }),
        )
      ).map((run) => run.coverage!),
    });
    const whole = await file(1, 1);
    const shards = await Promise.all([1, 2, 3].map((index) => file(index, 3)));
    const merged = mergeCoverageFiles(shards.map((shard, index) => ({ name: `shard ${index + 1}`, file: shard })));
    expect(merged.suites).toEqual(whole.suites);
    expect(shards.map((shard) => JSON.stringify(shard.suites[0]!.bins))).not.toContain(
      JSON.stringify(whole.suites[0]!.bins),
    );
  });
});

const Light = defineEnum('Light', ['red', 'green', 'amber']);
/** Declared red → green → amber → red; `skip` makes green jump straight back to red, which the declaration rules out. */
const Lights = defineModule({
  name: 'DeclaredLights',
  defaults: {},
  ports: () => ({ next: input(1), skip: input(1), red: output(1) }),
  build(m, io) {
    const light = enumReg(m, 'light', Light, {
      reset: 'red',
      transitions: { red: ['green'], green: ['amber'], amber: ['red'] },
    });
    m.when(io.next, () => {
      m.when(Light.is(light, 'red'), () => light.set(Light.lit('green')))
        .elsewhen(Light.is(light, 'green'), () => light.set(mux(io.skip, Light.lit('red'), Light.lit('amber'))))
        .otherwise(() => light.set(Light.lit('red')));
    });
    io.red.set(Light.is(light, 'red'));
  },
});

describe('declared transitions', () => {
  const stream: PortValues[] = [
    { reset: 1n, next: 0n, skip: 0n },
    { reset: 0n, next: 1n, skip: 0n },
    { reset: 0n, next: 1n, skip: 1n },
    { reset: 0n, next: 0n, skip: 0n },
  ];
  const out = mkdtempSync(join(tmpdir(), 'gen-fsm-illegal-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('a move the declaration rules out fails an assertion in the cycle it lands, and is ILLEGAL in the summary', async () => {
    const design = elaborate(Lights);
    const run = await (await createEngine('ts')).run(design, stream, { checks: 'count' });
    expect(run.checks?.failures.map((failure) => [failure.cycle, failure.message])).toEqual([
      [3, "'light' moves only along its declared transitions"],
    ]);
    const suite = defineSuite({
      name: 'Lights',
      arbitrary: fc.constant(0),
      design: once(() => design),
      vectors: () => ({ stimulus: stream, expected: stream.map(() => ({})) }),
    });
    const [result] = await runRegression(regressionOptions({ suites: [suite], runs: 1, seed: 1, coverage: true }));
    const file: CoverageFile = {
      format: 'gen-coverage/1',
      seed: 1,
      runs: 1,
      shards: ['1/1'],
      suites: [result!.coverage!],
    };
    const summary = coverageSummary(file);
    expect(summary).toContain('ILLEGAL Lights on ts, light (transitions): green->red (1 times)');
    expect(summary).toContain('MISSED Lights on ts, light (transitions): green->amber');
    const page = coverageHtml(file);
    expect(page).toContain('<li class="fail">ILLEGAL Lights on ts, light (transitions): green-&gt;red (1 times)</li>');
    expect(page).toContain('<li>Lights on ts, light (transitions): green-&gt;amber</li>');
  });

  it.skipIf(!hasTool('yosys') || !hasTool('yosys-abc'))(
    'gen prove finds the same illegal move in the same cycle',
    async () => {
      const [result] = await proveDesign(elaborate(Lights), { depth: 8, seconds: 20, out });
      // From the all-zero (reset) state: next to green in cycle 0, skip back to red in cycle 1.
      expect([result!.status, result!.cycle]).toEqual(['failed', 2]);
    },
  );
});
