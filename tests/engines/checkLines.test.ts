/**
 * What the emitted check blocks print on Verilator and Icarus: nothing while every check holds
 * (a combinational one used to print a line at every change of its inputs, which slowed the
 * MmaBench twentyfold and filled the pipe of long runs), and for a false one still each failing
 * cycle with its values, also when a combinational check sits inside a clocked design.
 */
import { describe, expect, it } from 'vitest';
import { defineModule, input, output } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { formatCheckFailure } from '../../hw/contract/checks.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import { createEngine } from '../../engines/index.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { hasTool } from '../../tools/toolchain.ts';
import { checkWithYosys, lintWithVerilator } from '../../tools/lint.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';

/** Combinational: b = a + 1, claimed never to overflow. */
const Increment = defineModule({
  name: 'CheckLinesIncrement',
  defaults: {},
  ports: () => ({ a: input(4), b: output(4) }),
  build(m, io) {
    io.b.set(io.a.add(1));
    m.assert(io.a.ne(15), 'no overflow');
  },
});

/** Combinational, false while every input is 0. */
const NonZero = defineModule({
  name: 'CheckLinesNonZero',
  defaults: {},
  ports: () => ({ a: input(4), b: output(4) }),
  build(m, io) {
    io.b.set(io.a);
    m.assert(io.a.ne(0), 'never zero');
  },
});

/** Clocked: a register fed through the combinational child, so the child's check sees state. */
const Accumulate = defineModule({
  name: 'CheckLinesAccumulate',
  defaults: {},
  ports: () => ({ enable: input(1), value: output(4) }),
  build(m, io) {
    const count = m.reg('count', 4, { reset: 0 });
    const child = m.instance(Increment, {});
    child.a.set(count);
    m.when(io.enable, () => count.set(child.b));
    io.value.set(count);
  },
});

/** Combinational, a child's reduction false while the parent's input is 0 (the differential fuzz's case). */
const ReducedChild = defineModule({
  name: 'CheckLinesReducedChild',
  defaults: {},
  ports: () => ({ i: input(1), o: output(1) }),
  build(m, io) {
    io.o.set(io.i);
    m.assert(io.i.orReduce(), 'nonzero');
  },
});
const ReducedParent = defineModule({
  name: 'CheckLinesReducedParent',
  defaults: {},
  ports: () => ({ i: input(1), o: output(1) }),
  build(m, io) {
    const child = m.instance(ReducedChild, { name: 'child' });
    child.i.set(io.i);
    io.o.set(child.o);
  },
});

/** Two clocks: the combinational child false from the start, under a clocked top. */
const TwoClockReduced = defineModule({
  name: 'CheckLinesTwoClockReduced',
  defaults: {},
  ports: () => ({ i: input(1), o: output(1), p: output(1), q: output(1) }),
  build(m, io) {
    const b = m.domain('b');
    const child = m.instance(ReducedChild, { name: 'child' });
    child.i.set(io.i);
    io.o.set(child.o);
    const fast = m.reg('fast', 1, { reset: 0 });
    fast.set(io.i);
    io.p.set(fast);
    const slow = m.reg('slow', 1, { reset: 0, domain: b });
    slow.set(io.i);
    io.q.set(slow);
  },
});

/** Engines that keep what the simulator printed of each run. */
function spying<T extends new (...args: never[]) => IcarusEngine | VerilatorEngine>(base: T) {
  return class extends (base as new () => IcarusEngine) {
    readonly logs: string[] = [];
    protected override printed(log: string): void {
      this.logs.push(log);
    }
  };
}
const ENGINES = [
  ...(hasTool('iverilog') ? [['icarus', spying(IcarusEngine)] as const] : []),
  ...(hasTool('verilator') ? [['verilator', spying(VerilatorEngine)] as const] : []),
];

const checkLines = (log: string): string[] => log.split('\n').filter((line) => line.startsWith('GEN-CHECK'));

async function run(Engine: (typeof ENGINES)[number][1], design: IrDesign, stream: PortValues[]) {
  const engine = new Engine();
  const result = await engine.run(design, stream, { checks: 'count' });
  return { failures: result.checks?.failures ?? [], lines: engine.logs.flatMap(checkLines) };
}

describe.skipIf(ENGINES.length === 0)('check lines of the external engines', () => {
  it.each(ENGINES)(
    '%s: a holding combinational check prints nothing, however often its inputs change',
    async (_, Engine) => {
      const stream = Array.from({ length: 200 }, (_unused, cycle) => ({ a: BigInt(cycle % 15) }));
      const { failures, lines } = await run(Engine, elaborate(Increment), stream);
      expect(failures).toEqual([]);
      expect(lines).toEqual([]);
    },
  );

  it.each(ENGINES)(
    '%s: a false combinational check is reported in each cycle it stays false, with values',
    async (_, Engine) => {
      const inputs = [0n, 15n, 15n, 15n, 3n, 15n, 2n].map((a) => ({ a }));
      const { failures, lines } = await run(Engine, elaborate(Increment), inputs);
      expect(failures.map((failure) => [failure.cycle, failure.values.a])).toEqual([
        [1, 15n],
        [2, 15n],
        [3, 15n],
        [5, 15n],
      ]);
      // A line when it turns false and one when it holds again, not one per cycle or change.
      expect(lines.length).toBeLessThanOrEqual(8);
    },
  );

  it.each(ENGINES)(
    '%s: a combinational check in a clocked design: silent while it holds, then every failing cycle',
    async (_, Engine) => {
      // Reset in cycle 0, then counting: count is k-1 in cycle k, 15 from cycle 16 on (enable off then).
      const stream = [
        { reset: 1n, enable: 0n },
        ...Array.from({ length: 15 }, () => ({ reset: 0n, enable: 1n })),
        ...Array.from({ length: 4 }, () => ({ reset: 0n, enable: 0n })),
      ];
      const { failures, lines } = await run(Engine, elaborate(Accumulate), stream);
      const expected = (await (await createEngine('ts')).run(elaborate(Accumulate), stream, { checks: 'count' }))
        .checks!;
      expect(expected.failures.map((failure) => [failure.cycle, failure.values.a])).toEqual(
        [16, 17, 18, 19].map((cycle) => [cycle, 15n]),
      );
      expect(failures.map((failure) => formatCheckFailure(failure))).toEqual(
        expected.failures.map((failure) => formatCheckFailure(failure)),
      );
      // The 15 holding cycles with a changing input print nothing (before: an OK line at each change).
      expect(lines.length).toBeLessThanOrEqual(8);
    },
  );

  it.each(ENGINES)(
    '%s: streams keep apart: false from cycle 0, false at the end and at the start of the next, then holding',
    async (_, Engine) => {
      const engine = new Engine();
      const streams = [[15n, 0n, 15n], [15n, 15n, 1n], [0n, 0n], [15n]].map((stream) => stream.map((a) => ({ a })));
      const runs = await engine.runMany(elaborate(Increment), streams, { checks: 'count' });
      expect(runs.map((run) => run.checks!.failures.map((failure) => failure.cycle))).toEqual([
        [0, 2],
        [0, 1],
        [],
        [0],
      ]);
    },
  );

  it.each(ENGINES)('%s: a check false with all inputs 0 from the first cycle on is reported', async (_, Engine) => {
    const { failures } = await run(
      Engine,
      elaborate(NonZero),
      [0n, 0n, 1n, 0n].map((a) => ({ a })),
    );
    expect(failures.map((failure) => failure.cycle)).toEqual([0, 1, 3]);
  });

  it('the check blocks with their time-0 print are verilator -Wall and yosys check clean', async () => {
    for (const definition of [ReducedParent, TwoClockReduced]) {
      const design = elaborate(definition);
      const files = emitVerilog(design);
      expect(await lintWithVerilator(files, design.top)).toEqual([]);
      expect(await checkWithYosys(files, design.top, { system: true })).toEqual([]);
    }
  });

  it.each(ENGINES)(
    "%s: a child's check false from time 0 under constant inputs is reported in every cycle",
    async (_, Engine) => {
      // Icarus could start the child's always @* after its wire had settled, and never print.
      const { failures } = await run(
        Engine,
        elaborate(ReducedParent),
        Array.from({ length: 4 }, () => ({ i: 0n })),
      );
      expect(failures.map((failure) => `${failure.scope}@${failure.cycle}`)).toEqual(
        [0, 1, 2, 3].map((c) => `child@${c}`),
      );
    },
  );

  it.each(ENGINES)(
    '%s: with two clocks, a combinational check false at the first settle lands in the stream (as on ts)',
    async (_, Engine) => {
      // The Verilator harness settled the model before printing the stream's marker: a ToolError.
      const design = elaborate(TwoClockReduced);
      const clocks = { clk: { period: 2, phase: 0 }, clk_b: { period: 6, phase: 1 } };
      const stream = Array.from({ length: 6 }, (_unused, step) => ({ i: step < 3 ? 0n : 1n }));
      const engine = new Engine();
      const result = await engine.run(design, stream, { checks: 'count', clocks });
      const ts = await (await createEngine('ts')).run(design, stream, { checks: 'count', clocks });
      expect(result.checks!.failures.map((failure) => failure.cycle)).toEqual([0, 1, 2]);
      expect(result.checks!.failures.map((f) => f.cycle)).toEqual(ts.checks!.failures.map((f) => f.cycle));
    },
  );
});
