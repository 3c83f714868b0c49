/**
 * printf prints the same lines, in the same order and with the same cycles, on every engine: the
 * format language (hw/core/printFormat.ts) on values of 1, 8, 64, 65 and 100 bits, signed and
 * unsigned, padded and not; the lines of one cycle in print order (a module's own before its
 * children's, declaration order within one) although Verilog runs the blocks of different modules
 * in an order of its own; nothing while reset is high; a printf under a `when` only where its
 * branch is taken; the values before the clock edge; each stream of a batch on its own; a
 * session's lines the same as a batch's. The emitted `$display` stays out of synthesis and lint.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { defineModule, input, output } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { formatPrintedLine, type PrintedLine } from '../../hw/ir/prints.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import type { Engine, EngineName, PortValues } from '../../hw/contract/engine.ts';
import { createEngine } from '../../engines/index.ts';
import { Testbench } from '../../verif/testbench.ts';
import { runTool, withWorkspace } from '../../tools/runTool.ts';
import { hasTool } from '../../tools/toolchain.ts';

/** A register of its input; prints it every cycle, and once more when it is odd. */
const Child = defineModule({
  name: 'PrintfChild',
  defaults: {},
  ports: () => ({ a: input(8), q: output(8) }),
  build(m, io) {
    const held = m.reg('held', 8, { reset: 0 });
    held.set(io.a);
    io.q.set(held);
    m.printf(m.lit(1, 1), 'held=%0d', held);
    m.when(held.bit(0), () => m.printf(m.lit(1, 1), 'odd %x', held));
  },
});

const Top = defineModule({
  name: 'PrintfTop',
  defaults: {},
  ports: () => ({
    en: input(1),
    v1: input(1),
    v8: input(8),
    v64: input(64),
    v65: input(65),
    v100: input(100),
    count: output(8),
    q: output(8),
  }),
  build(m, io) {
    const count = m.reg('counter', 8, { reset: 0 });
    count.set(count.add(1));
    io.count.set(count);
    const child = m.instance(Child, { name: 'child' });
    child.a.set(count);
    io.q.set(child.q);
    m.printf(io.en, 'count=%d v1=%b|%0d v8=%x|%0x|%b|%0b', count, io.v1, io.v1, io.v8, io.v8, io.v8, io.v8);
    m.printf(io.en, 'u64=%d|%0d|%22d s8=%i|%0i|%6i 100%%', io.v64, io.v64, io.v64, io.v8, io.v8, io.v8);
    m.printf(io.en, 'w65=%x|%d|%i w100=%0x|%i|%0b', io.v65, io.v65, io.v65, io.v100, io.v100, io.v100);
  },
});

const design = elaborate(Top, {});

const STREAMS: readonly (readonly PortValues[])[] = [
  [
    { reset: 1n, en: 1n, v1: 1n, v8: 0xfbn, v64: (1n << 64n) - 1n, v65: 1n << 64n, v100: (1n << 99n) | 5n },
    { reset: 0n },
    { v8: 5n, v64: 7n, v65: (1n << 65n) - 1n, v100: 1n },
    { en: 0n },
  ],
  [{ reset: 1n }, { reset: 0n, en: 1n, v8: 0x80n, v65: 1n }, { v1: 1n, v8: 0x7fn, v100: (1n << 100n) - 1n }],
];

const ENGINES: readonly EngineName[] = [
  'ts',
  ...(hasTool('verilator') ? (['verilator'] as const) : []),
  ...(hasTool('iverilog') ? (['icarus'] as const) : []),
];

const engines = new Map<EngineName, Engine>();
beforeAll(async () => {
  for (const name of ENGINES) engines.set(name, await createEngine(name));
});

const shown = (lines: readonly PrintedLine[] | undefined): string[] => (lines ?? []).map(formatPrintedLine);

describe('printf', () => {
  it('prints what the format language defines, in print order, with the values before the edge (ts)', async () => {
    const [first] = await engines.get('ts')!.runMany(design, STREAMS);
    expect(shown(first!.prints)).toEqual([
      '[1] count=  0 v1=1|1 v8=fb|fb|11111011|11111011',
      '[1] u64=18446744073709551615|18446744073709551615|  18446744073709551615 s8=  -5|-5|    -5 100%',
      '[1] w65=10000000000000000|18446744073709551616|-18446744073709551616 w100=8000000000000000000000005|-633825300114114700748351602683|1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000101',
      '[1] child: held=0',
      '[2] count=  1 v1=1|1 v8=05|5|00000101|101',
      '[2] u64=                   7|7|                     7 s8=   5|5|     5 100%',
      '[2] w65=1ffffffffffffffff|36893488147419103231|                   -1 w100=1|                              1|1',
      '[2] child: held=0',
      '[3] child: held=1',
      '[3] child: odd 01',
    ]);
  });

  it.each(ENGINES.filter((name) => name !== 'ts'))('%s prints byte for byte what ts prints', async (name) => {
    const expected = (await engines.get('ts')!.runMany(design, STREAMS)).map((run) => run.prints);
    const runs = await engines.get(name)!.runMany(design, STREAMS);
    expect(runs.map((run) => run.prints)).toEqual(expected);
  });

  it.each(ENGINES)('a %s session prints what a batch run of the same stimulus prints', async (name) => {
    const engine = engines.get(name)!;
    const [batch] = await engine.runMany(design, [STREAMS[0]!]);
    const session = await engine.open(design);
    for (const row of STREAMS[0]!) {
      for (const [port, value] of Object.entries(row)) session.poke(port, value);
      await session.step();
    }
    expect(shown(session.printed)).toEqual(shown(batch!.prints));
    await session.close();
  });

  it('a Testbench and a reactive one capture the lines', async () => {
    const ts = engines.get('ts')!;
    const bench = new Testbench(design).reset().poke('en', 1).step(2);
    await bench.run(ts);
    // The recorded cycles and the current one: reset, then three cycles out of reset.
    expect(shown(bench.printed).filter((line) => line.includes('count='))).toEqual([
      '[1] count=  0 v1=0|0 v8=00|0|00000000|0',
      '[2] count=  1 v1=0|0 v8=00|0|00000000|0',
      '[3] count=  2 v1=0|0 v8=00|0|00000000|0',
    ]);
    const reactive = await Testbench.open(design, ts);
    await reactive.reset();
    reactive.poke('en', 1);
    await reactive.step(3);
    expect(shown(reactive.printed)).toEqual(shown(bench.printed));
    await reactive.close();
  });

  it('a design without printf has no prints in its results', async () => {
    const Plain = defineModule({
      name: 'PrintfPlain',
      defaults: {},
      ports: () => ({ a: input(1), y: output(1) }),
      build(m, io) {
        io.y.set(io.a);
      },
    });
    const run = await engines.get('ts')!.run(elaborate(Plain, {}), [{ a: 1n }]);
    expect(run.prints).toBeUndefined();
  });
});

describe.skipIf(!hasTool('verilator') || !hasTool('yosys'))('emitted printf', () => {
  it('is simulation-only: verilator -Wall clean, and Yosys with SYNTHESIS defined sees no $display', async () => {
    const files = Object.fromEntries(emitVerilog(design));
    expect(files['PrintfTop.v']).toMatch(
      /`ifndef SYNTHESIS\n {2}always @\(posedge clk\) begin\n {4}if \(!reset\) begin/,
    );
    await withWorkspace('printf-lint', files, async (dir) => {
      const { stderr } = await runTool('verilator', ['--lint-only', '-Wall', 'PrintfTop.v', 'PrintfChild.v'], {
        cwd: dir,
      });
      expect(stderr).toBe('');
      const { stdout } = await runTool(
        'yosys',
        ['-p', 'read_verilog -DSYNTHESIS PrintfChild.v PrintfTop.v; prep -top PrintfTop; check -assert; stat'],
        { cwd: dir },
      );
      expect(stdout).not.toMatch(/\$print|Warning/);
    });
  });
});
