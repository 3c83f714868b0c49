import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { defineModule, input, output, WidthMismatchError, type ModuleDefinition } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { printDesign } from '../../../hw/ir/print.ts';
import { CheckFailedError } from '../../../hw/contract/checks.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { createEngine } from '../../../engines/index.ts';
import type { EngineName, PortValues } from '../../../hw/contract/engine.ts';
import { runTool, withWorkspace } from '../../../tools/runTool.ts';
import { hasTool } from '../../../tools/toolchain.ts';

const here = fileURLToPath(import.meta.url);

/** Counts while `enable`; claims the count never reaches `limit` (false from cycle limit+1 on). */
const Counter = defineModule({
  name: 'AssertCounter',
  defaults: { limit: 5 },
  ports: () => ({ enable: input(1), value: output(4) }),
  build(m, io, p) {
    const count = m.reg('count', 4, { reset: 0 });
    m.when(io.enable, () => count.set(count.add(1)));
    m.assert(count.ne(p.limit), 'count never reaches the limit');
    m.cover(count.eq(3), 'three');
    io.value.set(count);
  },
});

/** A combinational module: its assertion is checked in every evaluation (every cycle of a stream). */
const Incrementer = defineModule({
  name: 'AssertIncrementer',
  defaults: {},
  ports: () => ({ a: input(4), b: output(4) }),
  build(m, io) {
    io.b.set(io.a.add(1));
    m.assert(io.a.ne(15), 'no overflow');
  },
});

/** Reset in cycle 0, then enabled: count is k-1 in cycle k, so it equals 5 in cycle 6. */
const stream: PortValues[] = [
  { reset: 1n, enable: 0n },
  ...Array.from({ length: 12 }, () => ({ reset: 0n, enable: 1n })),
];

const ENGINES: EngineName[] = [
  'ts',
  ...(hasTool('verilator') ? (['verilator'] as const) : []),
  ...(hasTool('iverilog') ? (['icarus'] as const) : []),
];

describe('m.assert in simulation', () => {
  it.each(ENGINES)(
    '%s: a failing assertion stops the run at its cycle, with message, values and the user line',
    async (name) => {
      const engine = await createEngine(name);
      const error = await engine.run(elaborate(Counter), stream).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(CheckFailedError);
      const failure = (error as CheckFailedError).failure;
      expect(failure).toMatchObject({
        kind: 'assert',
        cycle: 6,
        message: 'count never reaches the limit',
        values: { count: 5n },
      });
      // The location the engines report is the one the DSL recorded (that one is the user's line:
      // under vitest's transform a captured line can differ from the file's; the CLI test of
      // tests/verif/formal/prove.test.ts checks file:line as users see it).
      const recorded = elaborate(Counter).modules[0]!.checks![0]!.location;
      expect([failure.location.file, failure.location.line]).toEqual([recorded.file, recorded.line]);
      expect(failure.location.file).toBe(here);
      expect((error as Error).message).toMatch(
        new RegExp(
          `assert\\.test\\.ts:${recorded.line}: assertion failed at cycle 6 \\(${name}\\): "count never reaches the limit" \\(count=0x5\\)`,
        ),
      );
    },
  );

  it.each(ENGINES)('%s: in count mode every failing cycle is reported, and reset hides the check', async (name) => {
    const engine = await createEngine(name);
    // Reset held in cycles 6 and 7: the count is 5 in cycle 6 but the check is off there.
    const held = stream.map((cycle, index) => (index === 6 || index === 7 ? { reset: 1n, enable: 1n } : cycle));
    const long = [...held, ...Array.from({ length: 20 }, () => ({ reset: 0n, enable: 1n }))];
    const run = await engine.run(elaborate(Counter), long, { checks: 'count' });
    // Count is 0 in cycle 8 (after the reset), 5 in cycle 13, and 5 again 16 cycles later (4 bits wrap).
    expect((run.checks?.failures ?? []).map((failure) => failure.cycle)).toEqual([13, 29]);
  });

  it.each(ENGINES)('%s: a combinational assertion is checked in every evaluation', async (name) => {
    const engine = await createEngine(name);
    const inputs = [0n, 15n, 3n, 15n, 15n].map((a) => ({ a }));
    const run = await engine.run(elaborate(Incrementer), inputs, { checks: 'count' });
    const line = elaborate(Incrementer).modules[0]!.checks![0]!.location.line;
    expect(run.checks?.failures.map((failure) => [failure.cycle, failure.location.line])).toEqual([
      [1, line],
      [3, line],
      [4, line],
    ]);
  });

  it('the ts engine counts cover hits', async () => {
    const run = await (await createEngine('ts')).run(elaborate(Counter, { limit: 15 }), stream, { checks: 'count' });
    expect(run.checks?.covers).toEqual({ three: 1 });
    expect(run.checks?.failures).toEqual([]);
  });

  it('the ts engine counts a cover that holds in a cycle where an earlier assertion fails', async () => {
    // limit 3: the assertion (declared first) fails exactly when the cover holds.
    const run = await (await createEngine('ts')).run(elaborate(Counter, { limit: 3 }), stream, { checks: 'count' });
    expect(run.checks?.failures.map((failure) => failure.cycle)).toEqual([4]);
    expect(run.checks?.covers).toEqual({ three: 1 });
  });
});

describe('m.assert in the DSL and IR', () => {
  it('refuses a condition wider than 1 bit at the user line', () => {
    const Wide = defineModule({
      name: 'WideAssert',
      defaults: {},
      ports: () => ({ a: input(4), b: output(4) }),
      build(m, io) {
        io.b.set(io.a);
        m.assert(io.a, 'wide');
      },
    });
    expect(() => elaborate(Wide)).toThrow(WidthMismatchError);
    expect(() => elaborate(Wide)).toThrow(/assert\.test\.ts:\d+: assert condition must be 1 bit, got 4 bits/);
  });

  it('prints checks, keeps what they read through dead-code removal, and guards them by their when', () => {
    const Guarded = defineModule({
      name: 'GuardedAssert',
      defaults: {},
      ports: () => ({ a: input(4), valid: input(1), b: output(1) }),
      build(m, io) {
        io.b.set(io.valid);
        // Only the check reads a.add(1): dead-code removal must keep it.
        m.when(io.valid, () => m.assert(io.a.add(1).ne(0), 'a is not all ones when valid'));
        m.cover(m.rose(io.valid), 'valid_rises');
      },
    });
    const text = printDesign(elaborate(Guarded));
    expect(text).toContain('register past0_1: 1 <= valid reset=0x0');
    expect(text).toMatch(/cell \d+ _n\d+: 4 = add a, _n\d+/);
    expect(text).toMatch(/assert _n\d+ "a is not all ones when valid" reads a\n/);
    expect(text).toMatch(/cover _n\d+ "valid_rises" reads valid, past0_1\n/);
  });

  it('past(x, n) delays by n cycles; stable and fell compare with the last cycle', async () => {
    const Delays = defineModule({
      name: 'PastDelays',
      defaults: {},
      ports: () => ({ x: input(4), d2: output(4), same: output(1), fell: output(1) }),
      build(m, io) {
        io.d2.set(m.past(io.x, 2));
        io.same.set(m.stable(io.x));
        io.fell.set(m.fell(io.x.bit(0)));
      },
    });
    const run = await (
      await createEngine('ts')
    ).run(
      elaborate(Delays),
      [1n, 2n, 2n, 3n, 4n].map((x) => ({ x })),
    );
    expect(run.outputs.map((o) => [o.d2, o.same, o.fell])).toEqual([
      [0n, 0n, 0n],
      [0n, 0n, 1n],
      [1n, 1n, 0n],
      [2n, 0n, 0n],
      [2n, 0n, 1n],
    ]);
  });
});

describe.skipIf(!hasTool('verilator') || !hasTool('yosys'))('emitted checks', () => {
  it('lint clean: verilator -Wall with and without -DFORMAL, Yosys read_verilog -formal + check -assert', async () => {
    for (const definition of [Counter, Incrementer] as ModuleDefinition[]) {
      const design = elaborate(definition);
      const files = Object.fromEntries(emitVerilog(design));
      expect(files[`${design.top}.v`]).toContain('`ifdef FORMAL');
      await withWorkspace('assert-lint', files, async (dir) => {
        for (const extra of [[], ['-DFORMAL']]) {
          const { stderr } = await runTool('verilator', ['--lint-only', '-Wall', ...extra, `${design.top}.v`], {
            cwd: dir,
          });
          expect(stderr).toBe('');
        }
        const { stdout } = await runTool(
          'yosys',
          ['-p', `read_verilog -formal -DSYNTHESIS ${design.top}.v; prep -top ${design.top}; check -assert; stat`],
          { cwd: dir },
        );
        expect(stdout).toMatch(/\$assert +1/);
        expect(stdout).not.toMatch(/Warning/);
      });
    }
  });
});
