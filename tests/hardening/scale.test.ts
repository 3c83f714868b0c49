import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineModule, input, output, MAX_WIDTH, InvalidParameterError } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Simulator } from '../../hw/sim/simulator.ts';
import { traceToVcd } from '../../hw/sim/vcdTrace.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { WideDesign } from '../../bench/scaleDesigns.ts';
import { readVcdFile } from '../../waves/vcdReader.ts';
import { runGen, expectCleanFailure } from '../support/cli.ts';
import { checkChain, checkInstanceChain, checkWide } from './scaleLimits.ts';

// Sizes here keep `make test` quick yet past the default stack depth (~10^4 frames); `make soak`
// runs 10^5 nodes, 10^4 instances and 10^6 traced cycles (tests/soak/scale.soak.test.ts).
const scratch = mkdtempSync(join(tmpdir(), 'hardening-scale-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('designs beyond recursion depth', () => {
  it('a 10 000-operator combinational chain elaborates, simulates and emits', () => checkChain(10_000), 120_000);
  it(
    'a 1 000-instance pipeline elaborates, simulates and emits one line per instance',
    () => checkInstanceChain(1_000),
    120_000,
  );
});

describe('wide signals', () => {
  it('a 4096-bit accumulator matches bigint arithmetic, in Verilog and in the VCD', async () => {
    const width = 4096;
    const inputs = Array.from({ length: 40 }, (_, i) => ((1n << BigInt(width)) - 1n) / BigInt(i + 3));
    checkWide(width, inputs);

    const verilog = [...emitVerilog(elaborate(WideDesign, { width })).values()].join('');
    expect(verilog).toContain(`[${width - 1}:0] accumulator`);

    const simulator = new Simulator(elaborate(WideDesign, { width }));
    const path = join(scratch, 'wide.vcd');
    const trace = traceToVcd(simulator, path);
    simulator.poke('x', inputs[0]!);
    simulator.step(3);
    await trace.close();
    const read = readVcdFile(path);
    const sum = read.signals.find((signal) => signal.name === 'sum')!;
    expect(sum.width).toBe(width);
    const values = read.changes.get(sum.id)!.values;
    expect(BigInt(`0b${values[values.length - 1]}`)).toBe(simulator.peek('sum'));
  });

  it(`refuses widths beyond MAX_WIDTH (${MAX_WIDTH}) with the limit in the message`, () => {
    for (const width of [MAX_WIDTH + 1, 0, -1, 1.5, Number.NaN, 2 ** 40]) {
      const Too = defineModule({
        name: 'TooWide',
        description: 'refused',
        defaults: {},
        ports: () => ({ a: input(1), y: output(1) }),
        build: (m, io) => {
          m.wire('big', width);
          io.y.set(io.a);
        },
      });
      expect(() => elaborate(Too)).toThrow(InvalidParameterError);
      expect(() => elaborate(Too)).toThrow(`from 1 to ${MAX_WIDTH}`);
    }
    expect(() => elaborate(Counter, { width: MAX_WIDTH + 1 })).toThrow(`from 1 to ${MAX_WIDTH}`);
    expect(() => elaborate(Counter, { width: MAX_WIDTH })).not.toThrow();
  });

  it('gen refuses an oversized width in one line, writing nothing', async () => {
    const out = join(scratch, 'too-wide');
    const run = await runGen(['verilog', '--top', 'Counter', '--param', `width=${MAX_WIDTH + 1}`, '--out', out]);
    expect(expectCleanFailure(run)).toMatch(
      new RegExp(`width ${MAX_WIDTH + 1} is not a whole number from 1 to ${MAX_WIDTH}`),
    );
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
