import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineModule, input, output } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { clockSchedule, type ClockTimings } from '../../hw/contract/clockSchedule.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { createEngine } from '../../engines/index.ts';
import { describeDifference, runLockstep } from '../../engines/lockstep.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import { fastCheckSeed } from '../support/seed.ts';

const seed = fastCheckSeed('multiClock');

/** Three domains: the default (sync reset), `b` with an asynchronous reset, `c` sync; a memory written in `b`. */
const ThreeClocks = defineModule({
  name: 'ThreeClocks',
  defaults: {},
  ports: () => ({ x: input(4), a: output(4), b: output(4), c: output(4), word: output(4) }),
  build(m, io) {
    const b = m.domain('b', { reset: 'async' });
    const c = m.domain('c');
    const ra = m.reg('ra', 4, { reset: 1 });
    ra.set(ra.add(io.x));
    const mem = m.memory('mem', { depth: 4, width: 4, domain: b });
    const rb = m.withDomain(b, () => m.reg('rb', 4, { reset: 9 }));
    rb.set(rb.add(1));
    mem.write(rb.trunc(2), io.x);
    const rc = m.reg('rc', 4, { reset: 0, domain: c });
    rc.set(rc.xor(io.x));
    io.a.set(ra);
    io.b.set(rb);
    io.c.set(rc);
    io.word.set(mem.read(io.x.trunc(2)));
  },
});
const design = elaborate(ThreeClocks);

describe('the multi-clock step contract', () => {
  it('orders the rising edges of all clocks in time, simultaneous ones as one step', () => {
    // In 100 ps: clk rises at 5, 15, 25, 35 ns; clk_b at 10, 24, 38 ns; samples halfway between.
    const { steps, end } = clockSchedule(['clk', 'clk_b'], { clk_b: { period: 14, phase: 3 } }, 6);
    expect(steps).toEqual([
      { mask: 1, sample: 0, edge: 50 },
      { mask: 2, sample: 75, edge: 100 },
      { mask: 1, sample: 125, edge: 150 },
      { mask: 2, sample: 195, edge: 240 },
      { mask: 1, sample: 245, edge: 250 },
      { mask: 1, sample: 300, edge: 350 },
    ]);
    expect(end).toBe(365);
    const same = clockSchedule(['clk', 'clk_b'], { clk_b: { period: 10 } }, 3);
    expect(same.steps.map((step) => step.mask)).toEqual([3, 3, 3]);
  });

  it('keeps the one-clock time base: samples at 10t, edges at 10t + 5', () => {
    const { steps, end } = clockSchedule(['clk'], undefined, 3);
    expect(steps).toEqual([
      { mask: 1, sample: 0, edge: 5 },
      { mask: 1, sample: 10, edge: 15 },
      { mask: 1, sample: 20, edge: 25 },
    ]);
    expect(end).toBe(30);
  });

  it('refuses timings of unknown clocks and odd or non-positive periods', () => {
    expect(() => clockSchedule(['clk'], { clk_x: { period: 10 } }, 1)).toThrow(/no clock 'clk_x' to time/);
    expect(() => clockSchedule(['clk'], { clk: { period: 7 } }, 1)).toThrow(/period 7 must be an even/);
    expect(() => clockSchedule(['clk'], { clk: { period: 10, phase: -1 } }, 1)).toThrow(/phase -1/);
  });

  // Before the untraced runs of this design below: they use the traced build this test makes
  // (GEN_VERILATOR_REUSE_TRACED, vitest.config.ts) instead of building it a second time.
  it('writes one waveform with every clock on a common time base on all three engines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multiclock-'));
    const clocks: ClockTimings = {
      clk: { period: 10 },
      clk_b: { period: 14, phase: 3 },
      clk_c: { period: 6, phase: 1 },
    };
    const stimulus: PortValues[] = [
      { rst_b: 1n, x: 3n },
      { rst_b: 0n },
      {},
      { x: 5n },
      {},
      { rst_b: 1n },
      { rst_b: 0n },
      {},
      {},
      {},
    ];
    const traces: string[] = [];
    for (const name of ['ts', 'verilator', 'icarus'] as const) {
      const vcd = join(dir, `${name}.vcd`);
      await (await createEngine(name)).run(design, stimulus, { clocks, vcd });
      traces.push(readFileSync(vcd, 'utf8'));
    }
    expect(traces[1]).toBe(traces[0]);
    expect(traces[2]).toBe(traces[0]);
    // In 100 ps: clk_b rises at 10 and 24 ns; clk_c at 4, 10 and 16 ns (at 10 with clk_b: one step).
    const times = (id: string): number[] => {
      const found: number[] = [];
      let time = 0;
      for (const line of traces[0]!.split('\n')) {
        if (line.startsWith('#')) time = Number(line.slice(1));
        else if (line === `1${id}`) found.push(time);
      }
      return found;
    };
    const header = traces[0]!;
    const idOf = (name: string): string => new RegExp(`\\$var wire 1 (\\S+) ${name} \\$end`).exec(header)![1]!;
    expect(times(idOf('clk_b')).slice(0, 2)).toEqual([100, 240]);
    expect(times(idOf('clk_c')).slice(0, 3)).toEqual([40, 100, 160]);
    expect(times(idOf('clk')).slice(0, 2)).toEqual([50, 150]);
  }, 300_000);

  it('is the same on ts, Verilator and Icarus at random periods, phases and asynchronous resets', async () => {
    const engines = [new TsEngine(), await createEngine('verilator'), await createEngine('icarus')];
    const timing = fc.record({ period: fc.integer({ min: 1, max: 12 }), phase: fc.nat(30) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ x: fc.nat(15), reset: fc.nat(9), rst_b: fc.nat(9), rst_c: fc.nat(9) }), {
          minLength: 1,
          maxLength: 60,
        }),
        timing,
        timing,
        timing,
        async (cycles, ta, tb, tc) => {
          const clocks: ClockTimings = {
            clk: { period: 2 * ta.period, phase: ta.phase },
            clk_b: { period: 2 * tb.period, phase: tb.phase },
            clk_c: { period: 2 * tc.period, phase: tc.phase },
          };
          const stimulus: PortValues[] = cycles.map((cycle) => ({
            x: BigInt(cycle.x),
            reset: cycle.reset === 0 ? 1n : 0n,
            rst_b: cycle.rst_b === 0 ? 1n : 0n,
            rst_c: cycle.rst_c === 0 ? 1n : 0n,
          }));
          const result = await runLockstep(engines, design, stimulus, { clocks });
          expect(result.difference && describeDifference(result.difference)).toBeUndefined();
        },
      ),
      { seed, numRuns: 6 },
    );
  }, 600_000);
});

describe('a top whose only clock is a named domain', () => {
  it('steps that clock on every engine, with the same waveform', async () => {
    const { Synchronizer } = await import('../../hw/lib/cdc/index.ts');
    const sync = elaborate(Synchronizer, { width: 3 });
    const stimulus: PortValues[] = [{ rst_dst: 1n, in: 5n }, { rst_dst: 0n }, {}, { in: 2n }, {}, {}];
    const dir = mkdtempSync(join(tmpdir(), 'oneclock-'));
    const runs: bigint[][] = [];
    const traces: string[] = [];
    for (const name of ['ts', 'verilator', 'icarus'] as const) {
      const vcd = join(dir, `${name}.vcd`);
      const run = await (await createEngine(name)).run(sync, stimulus, { vcd });
      runs.push(run.outputs.map((out) => out['out']!));
      traces.push(readFileSync(vcd, 'utf8'));
    }
    expect(runs[0]).toEqual([0n, 0n, 0n, 5n, 5n, 2n]); // two flops: two edges late
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    expect(traces[1]).toBe(traces[0]);
    expect(traces[2]).toBe(traces[0]);
  }, 300_000);
});
