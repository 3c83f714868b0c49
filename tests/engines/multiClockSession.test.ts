import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { TwoClockFifo } from '../../hw/examples/twoClockFifo.ts';
import { clockSchedule, type ClockTimings } from '../../hw/contract/clockSchedule.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import type { Engine, PortValues } from '../../hw/contract/engine.ts';
import { hasTool } from '../../tools/toolchain.ts';
import { Testbench, type ReactiveTestbench } from '../../verif/testbench.ts';
import { fastCheckSeed } from '../support/seed.ts';

/*
 * A session on a design of two clock domains (TwoClockFifo: a producer in `prod`, a consumer in
 * `cons`, asynchronous resets) walks the steps of the clock schedule one poke / peek / step at a
 * time, as a batch run of the same stimulus does all at once: per engine the outputs of every
 * step it peeked and the VCD, byte for byte, are the batch run's; and ts, Verilator and Icarus
 * agree with each other, in outputs and waveform. The session also takes several steps in one
 * `step(n)` and pokes an input, peeks, and pokes it back within a step (only a step's final inputs
 * count). Engines whose tool is missing are left out.
 */

const seed = fastCheckSeed('multiClockSession');
const design = elaborate(TwoClockFifo, { width: 8, depth: 4 });

const ENGINES: readonly (readonly [string, () => Engine])[] = [
  ['ts', () => new TsEngine()],
  ...(hasTool('verilator') ? [['verilator', () => new VerilatorEngine()] as const] : []),
  ...(hasTool('iverilog') ? [['icarus', () => new IcarusEngine()] as const] : []),
];

/** What one engine gave for a stimulus: batch outputs and VCD, the session's peeks (by step) and VCD. */
interface Runs {
  readonly batch: PortValues[];
  readonly batchVcd: string;
  readonly peeked: Map<number, PortValues>;
  readonly sessionVcd: string;
}

/**
 * Runs `stimulus` as a batch and as a session. The session peeks every step except inside runs
 * of empty entries, which it takes as one `step(n)`; every third step it first pokes `produce`
 * and `consume` to their opposites, peeks, and pokes them back (synchronous inputs: only their
 * value at the edge matters, so the batch run is unaffected).
 */
async function runBoth(engine: Engine, stimulus: readonly PortValues[], clocks: ClockTimings): Promise<Runs> {
  const dir = mkdtempSync(join(tmpdir(), `multiclock-session-${engine.name}-`));
  const batchPath = join(dir, 'batch.vcd');
  const sessionPath = join(dir, 'session.vcd');
  const batch = await engine.run(design, stimulus, { clocks, vcd: batchPath });
  const session = await engine.open(design, { clocks, vcd: sessionPath });
  const peeked = new Map<number, PortValues>();
  const held = { produce: 0n, consume: 0n };
  let step = 0;
  while (step < stimulus.length) {
    const inputs = stimulus[step]!;
    if (step % 3 === 2) {
      session.poke('produce', 1n - held.produce);
      session.poke('consume', 1n - held.consume);
      await session.peekAll();
      session.poke('produce', held.produce);
      session.poke('consume', held.consume);
    }
    for (const [name, value] of Object.entries(inputs)) {
      session.poke(name, value);
      if (name === 'produce' || name === 'consume') held[name] = value;
    }
    let idle = 1;
    while (step + idle < stimulus.length && Object.keys(stimulus[step + idle]!).length === 0) idle++;
    if (idle > 1) {
      await session.step(idle);
    } else {
      peeked.set(step, await session.peekAll());
      await session.step();
    }
    step += idle;
    expect(session.cycle).toBe(step);
  }
  await session.close();
  return {
    batch: batch.outputs,
    batchVcd: readFileSync(batchPath, 'latin1'),
    peeked,
    sessionVcd: readFileSync(sessionPath, 'latin1'),
  };
}

/** The first line where two VCDs differ, or undefined when they are the same bytes. */
function vcdDifference(expected: string, actual: string): string | undefined {
  if (expected === actual) return undefined;
  const [want, got] = [expected.split('\n'), actual.split('\n')];
  const line = want.findIndex((text, index) => text !== got[index]);
  const at = line < 0 ? want.length : line;
  return `line ${at + 1}: expected ${JSON.stringify(want[at])}, got ${JSON.stringify(got[at])}`;
}

/** Runs every engine; checks each session against its batch run and every engine against ts. */
async function checkAll(stimulus: readonly PortValues[], clocks: ClockTimings): Promise<Runs> {
  const runs: Runs[] = [];
  for (const [name, create] of ENGINES) {
    const run = await runBoth(create(), stimulus, clocks);
    expect(run.batch, name).toHaveLength(stimulus.length);
    for (const [step, outputs] of run.peeked) expect(outputs, `${name} step ${step}`).toEqual(run.batch[step]);
    expect(
      vcdDifference(run.batchVcd, run.sessionVcd),
      `${name}: the session's VCD is the batch run's`,
    ).toBeUndefined();
    runs.push(run);
  }
  for (const [index, run] of runs.entries()) {
    const name = ENGINES[index]![0];
    expect(run.batch, `${name} against ts`).toEqual(runs[0]!.batch);
    expect(vcdDifference(runs[0]!.batchVcd, run.batchVcd), `${name}: the same VCD as ts`).toBeUndefined();
  }
  return runs[0]!;
}

/**
 * A reactive testbench across the two domains: reset both, produce, wait for the consumer's
 * head word, then take words reacting to `head_valid` step by step (consume high only while a
 * word is there), noting each word when `received` moves. The testbench cannot know ahead which
 * steps raise clk_cons: it reads the outputs every step.
 */
async function takeWords(tb: ReactiveTestbench, count: number): Promise<{ firstValid: number; words: bigint[] }> {
  await tb.reset();
  tb.poke('produce', 1);
  const firstValid = await tb.waitFor(async () => (await tb.peek('head_valid')) === 1n, { limit: 40 });
  const words: bigint[] = [];
  while (words.length < count) {
    const [head, valid, received] = [await tb.peek('head'), await tb.peek('head_valid'), await tb.peek('received')];
    tb.poke('consume', valid);
    await tb.step();
    if ((await tb.peek('received')) !== received) words.push(head);
    if (tb.cycle > 400) throw new Error(`only ${words.length} words by cycle ${tb.cycle}`);
  }
  await tb.expect('received', count);
  return { firstValid, words };
}

describe('a session on two clock domains', () => {
  // Before the untraced runs of this design below: they use the traced build this test makes
  // (GEN_VERILATOR_REUSE_TRACED, vitest.config.ts) instead of building it a second time.
  it(`gives the batch run's outputs and VCD on ${ENGINES.map(([name]) => name).join(', ')}, which agree`, async () => {
    // clk_prod rises at 5 + 10k ns, clk_cons at 5 + 6j: both at once every 30 ns (one step).
    const clocks: ClockTimings = { clk_prod: { period: 10 }, clk_cons: { period: 6, phase: 2 } };
    const stimulus: PortValues[] = [
      { rst_prod: 1n, rst_cons: 1n },
      { rst_prod: 0n, rst_cons: 0n },
      { produce: 1n },
      {},
      {},
      {},
      { consume: 1n },
      {},
      { produce: 0n },
      {},
      {},
      {},
      {},
      { produce: 1n, consume: 0n },
      {},
      {},
      { consume: 1n },
      // An asynchronous reset in mid-traffic, and out of it again.
      { rst_prod: 1n, rst_cons: 1n },
      { rst_prod: 0n, rst_cons: 0n },
      {},
      {},
      {},
      {},
      {},
      { produce: 0n },
      {},
      {},
      {},
      {},
      {},
    ];
    const masks = clockSchedule(['clk_prod', 'clk_cons'], clocks, stimulus.length).steps.map((step) => step.mask);
    expect(masks).toContain(3);
    const ts = await checkAll(stimulus, clocks);
    // Not vacuous: words went through the FIFO before and after the reset.
    const received = ts.batch.map((outputs) => outputs['received']!);
    expect(received[16]).toBeGreaterThan(0n);
    expect(received[19]).toBe(0n);
    expect(received[stimulus.length - 1]).toBeGreaterThan(0n);
  }, 300_000);

  it(`runs one reactive testbench on ${ENGINES.map(([name]) => name).join(', ')}, step for step the same`, async () => {
    const clocks: ClockTimings = { clk_prod: { period: 10 }, clk_cons: { period: 14, phase: 3 } };
    const results: { firstValid: number; words: bigint[]; cycle: number }[] = [];
    for (const [name, create] of ENGINES) {
      const tb = await Testbench.open(design, create(), { clocks });
      try {
        results.push({ ...(await takeWords(tb, 10)), cycle: tb.cycle });
      } finally {
        await tb.close();
      }
      expect(results.at(-1), `${name} against ts`).toEqual(results[0]);
    }
    // Every word once and in order, through a FIFO that fills (depth 4) while the consumer is slower.
    expect(results[0]!.words).toEqual(Array.from({ length: 10 }, (_, word) => BigInt(word)));
    // The first word crosses the synchronizers in 6 steps; 36 steps in all at these clock rates.
    expect(results[0]).toMatchObject({ firstValid: 6, cycle: 36 });
  }, 120_000);

  it.each(ENGINES)(
    '%s: a peek sees an asynchronous reset poked in the same step, as the batch run samples it',
    async (_name, create) => {
      const session = await create().open(design, { clocks: { clk_cons: { period: 14 } } });
      session.poke('rst_prod', 1);
      session.poke('rst_cons', 1);
      await session.step();
      session.poke('rst_prod', 0);
      session.poke('rst_cons', 0);
      session.poke('produce', 1);
      await session.step(4);
      const before = await session.peekAll();
      expect(before['sent']).toBeGreaterThan(0n);
      // Held high, the reset clears the producer's registers at once, with no clock edge.
      session.poke('rst_prod', 1);
      expect(await session.peek('sent')).toBe(0n);
      session.poke('rst_prod', 0);
      expect(await session.peek('sent')).toBe(0n);
      await session.step();
      expect(await session.peek('sent')).toBe(1n);
      await session.close();
    },
    60_000,
  );

  it('does so at random periods and phases', async () => {
    const timing = fc.record({ period: fc.integer({ min: 1, max: 9 }), phase: fc.nat(20) });
    const entry = fc.oneof(
      { weight: 3, arbitrary: fc.constant({}) },
      { weight: 4, arbitrary: fc.record({ produce: fc.constantFrom(0n, 1n), consume: fc.constantFrom(0n, 1n) }) },
      { weight: 1, arbitrary: fc.constant({ rst_prod: 1n, rst_cons: 1n }) },
      { weight: 1, arbitrary: fc.constant({ rst_prod: 0n, rst_cons: 0n }) },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { minLength: 1, maxLength: 40 }),
        timing,
        timing,
        async (entries: PortValues[], prod, cons) => {
          const clocks: ClockTimings = {
            clk_prod: { period: 2 * prod.period, phase: prod.phase },
            clk_cons: { period: 2 * cons.period, phase: cons.phase },
          };
          await checkAll([{ rst_prod: 1n, rst_cons: 1n }, { rst_prod: 0n, rst_cons: 0n }, ...entries], clocks);
        },
      ),
      { seed, numRuns: 3 },
    );
  }, 300_000);
});
