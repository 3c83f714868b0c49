import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { TwoClockFifo } from '../../../hw/examples/twoClockFifo.ts';
import { checkFifoTraffic } from '../../../hw/lib/cdc/index.ts';
import { clockSchedule, type ClockTimings } from '../../../hw/contract/clockSchedule.ts';
import { TsEngine } from '../../../engines/ts/tsEngine.ts';
import { createEngine } from '../../../engines/index.ts';
import { describeDifference, runLockstep } from '../../../engines/lockstep.ts';
import type { CycleRun, PortValues } from '../../../hw/contract/engine.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { checkWithYosys, lintWithVerilator } from '../../../tools/lint.ts';
import { fastCheckSeed } from '../../support/seed.ts';

const seed = fastCheckSeed('twoClockFifo');
const WIDTH = 8;
const DEPTH = 4;
const design = elaborate(TwoClockFifo, { width: WIDTH, depth: DEPTH });
const CLOCKS = ['clk_prod', 'clk_cons'];
const PROD = 1; // mask bit of clk_prod
const CONS = 2; // mask bit of clk_cons

/**
 * Reset both domains in step 0, random produce/consume, then a drain with consume held high for
 * enough clk_cons edges to empty the FIFO (its words plus the synchronizer latency).
 */
function stimulusOf(traffic: readonly { produce: boolean; consume: boolean }[], timings: ClockTimings): PortValues[] {
  const start = traffic.length + 2;
  const { steps } = clockSchedule(CLOCKS, timings, start + 4000);
  let drain = 0;
  for (let consEdges = 0; consEdges < 2 * DEPTH + 6; drain++) if (steps[start + drain]!.mask & CONS) consEdges++;
  return [
    { rst_prod: 1n, rst_cons: 1n },
    { rst_prod: 0n, rst_cons: 0n },
    ...traffic.map(({ produce, consume }) => ({ produce: produce ? 1n : 0n, consume: consume ? 1n : 0n })),
    ...Array.from({ length: drain }, () => ({ produce: 0n, consume: 1n })),
  ];
}

/**
 * The golden check: the producer offers 0, 1, 2, …, so the FIFO must deliver exactly the words
 * it accepted (`sent` of them), in order, none lost or twice, never more than DEPTH in flight;
 * a word is delivered at a step where clk_cons rises with consume and head_valid high.
 */
function checkRun(run: CycleRun, stimulus: readonly PortValues[], timings: ClockTimings): void {
  const { steps } = clockSchedule(CLOCKS, timings, stimulus.length);
  const delivered: bigint[] = [];
  let consume = 0n;
  let produce = 0n;
  let offers = 0;
  run.outputs.forEach((out, index) => {
    consume = stimulus[index]!['consume'] ?? consume;
    produce = stimulus[index]!['produce'] ?? produce;
    if (steps[index]!.mask & PROD && produce === 1n) offers++;
    const sent = Number(out['sent']);
    const accepted = Array.from({ length: sent }, (_, word) => BigInt(word));
    expect(checkFifoTraffic({ accepted, delivered }, DEPTH)).toBeUndefined();
    expect(out['received']).toBe(BigInt(delivered.length));
    if (steps[index]!.mask & CONS && consume === 1n && out['head_valid'] === 1n) delivered.push(out['head']!);
  });
  const last = run.outputs[run.outputs.length - 1]!;
  expect(last['head_valid']).toBe(0n);
  expect(delivered.length).toBe(Number(last['sent']));
  // Offered words get through (a FIFO stuck full or empty would pass the checks above vacuously).
  if (offers >= 10) expect(delivered.length).toBeGreaterThan(0);
}

const trafficArbitrary = fc.array(fc.record({ produce: fc.boolean(), consume: fc.boolean() }), {
  minLength: 20,
  maxLength: 120,
});
const timingArbitrary = fc
  .record({
    prod: fc.integer({ min: 1, max: 20 }),
    cons: fc.integer({ min: 1, max: 20 }),
    prodPhase: fc.nat(40),
    consPhase: fc.nat(40),
  })
  .map(({ prod, cons, prodPhase, consPhase }): ClockTimings => ({
    clk_prod: { period: 2 * prod, phase: prodPhase % (2 * prod) },
    clk_cons: { period: 2 * cons, phase: consPhase % (2 * cons) },
  }));

describe('TwoClockFifo: producer and consumer in two clock domains', () => {
  it('delivers every accepted word once and in order at random clock period ratios (ts engine)', async () => {
    const engine = new TsEngine();
    await fc.assert(
      fc.asyncProperty(trafficArbitrary, timingArbitrary, async (traffic, timings) => {
        const stimulus = stimulusOf(traffic, timings);
        checkRun(await engine.run(design, stimulus, { clocks: timings }), stimulus, timings);
      }),
      { seed, numRuns: 60 },
    );
  });

  it('is equal on ts, Verilator and Icarus, step by step, and to the golden check', async () => {
    const engines = [new TsEngine(), await createEngine('verilator'), await createEngine('icarus')];
    await fc.assert(
      fc.asyncProperty(trafficArbitrary, timingArbitrary, async (traffic, timings) => {
        const stimulus = stimulusOf(traffic, timings);
        const result = await runLockstep(engines, design, stimulus, { clocks: timings });
        expect(result.difference && describeDifference(result.difference)).toBeUndefined();
        checkRun(result.runs['verilator']!, stimulus, timings);
      }),
      { seed, numRuns: 4 },
    );
  }, 600_000);

  it('is lint-clean: verilator -Wall and Yosys check -assert', async () => {
    const files = emitVerilog(design);
    const [verilator, yosys] = await Promise.all([
      lintWithVerilator(files, design.top),
      checkWithYosys(files, design.top, { system: true }),
    ]);
    expect(verilator).toEqual([]);
    expect(yosys).toEqual([]);
  }, 300_000);
});
