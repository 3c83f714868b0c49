import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HdlError, defineBlackBox, defineModule, input, output } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { Simulator } from '../../../hw/sim/simulator.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { createEngine } from '../../../engines/index.ts';
import type { PortValues } from '../../../hw/contract/engine.ts';
import { checkWithYosys, lintWithVerilator } from '../../../tools/lint.ts';
import { Crc8Stream, crc8 } from '../../../hw/examples/crc8Stream.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const verilogFile = `${root}hw/examples/verilog/Crc8Step.v`;

/** A message of bytes, one per cycle after a reset cycle, and the CRC the top shows after it. */
const message = [0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39];
const stimulus: PortValues[] = [
  { reset: 1n, in_valid: 0n, in_data: 0n, clear: 0n },
  ...message.map((byte) => ({ reset: 0n, in_valid: 1n, in_data: BigInt(byte), clear: 0n })),
  { reset: 0n, in_valid: 0n, in_data: 0n, clear: 0n },
];

describe('black boxes', () => {
  it('the existing Verilog file goes to the backends as it is, lint clean with the generated parent', async () => {
    const design = elaborate(Crc8Stream);
    const files = emitVerilog(design);
    expect(files.get('Crc8Step.v')).toBe(readFileSync(verilogFile, 'utf8'));
    expect(files.get('Crc8Stream.v')).toMatch(/Crc8Step step \(/);
    expect(await lintWithVerilator(files, design.top)).toEqual([]);
    expect(await checkWithYosys(files, design.top, { system: true })).toEqual([]);
  });

  it('with a model: the ts engine runs the model, and the CRC of "123456789" is the standard 0xF4', async () => {
    expect(crc8(message)).toBe(0xf4);
    const run = await (await createEngine('ts')).run(elaborate(Crc8Stream), stimulus);
    expect(run.outputs[stimulus.length - 1]!.crc).toBe(0xf4n);
  });

  it('without a model: refused on ts with a clear message, run from the file on Verilator and Icarus', async () => {
    const design = elaborate(Crc8Stream, { modelled: false });
    let refused: unknown;
    try {
      new Simulator(design);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(HdlError);
    expect((refused as Error).message).toMatch(
      /^hw\/examples\/crc8Stream\.ts:\d+: Crc8Step is a black box \(hw\/examples\/verilog\/Crc8Step\.v\) without a TypeScript model: the ts engine cannot run Crc8Stream_modelled_false; use the verilator or icarus engine/,
    );
    for (const name of ['verilator', 'icarus'] as const) {
      const run = await (await createEngine(name)).run(design, stimulus);
      expect([name, run.outputs[stimulus.length - 1]!.crc]).toEqual([name, 0xf4n]);
    }
  });

  it('through gen sim on ts: one line, non-zero exit', () => {
    let stderr = '';
    try {
      execFileSync(
        'node',
        [
          'bin/gen.js',
          'sim',
          '--top',
          'Crc8Stream',
          '--param',
          'modelled=false',
          '--vectors',
          '/dev/null',
          '--engine',
          'ts',
        ],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
    } catch (error) {
      stderr = (error as { stderr: Buffer }).stderr.toString();
    }
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /gen: hw\/examples\/crc8Stream\.ts:\d+: Crc8Step is a black box .* without a TypeScript model/,
    );
  });

  it('a clocked black box without a model gets clk and reset, and runs from its file on Verilator', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'blackbox-'));
    try {
      const file = join(folder, 'Delay.v');
      writeFileSync(
        file,
        [
          'module Delay (input wire clk, input wire reset, input wire [3:0] d, output reg [3:0] q);',
          "  always @(posedge clk) if (reset) q <= 4'd0; else q <= d;",
          'endmodule',
          '',
        ].join('\n'),
      );
      const Delay = defineBlackBox({
        name: 'Delay',
        file,
        clocked: true,
        ports: () => ({ d: input(4), q: output(4) }),
      });
      const Top = defineModule({
        name: 'DelayTop',
        defaults: {},
        ports: () => ({ d: input(4), q: output(4) }),
        build(m, io) {
          const delay = m.instance(Delay, { name: 'delay' });
          delay.d.set(io.d);
          io.q.set(delay.q);
        },
      });
      const design = elaborate(Top);
      expect(design.modules.find((module) => module.name === 'Delay')!.ports.map((port) => port.name)).toEqual([
        'clk',
        'reset',
        'd',
        'q',
      ]);
      const delays = [
        { reset: 1n, d: 0n },
        { reset: 0n, d: 5n },
        { reset: 0n, d: 9n },
        { reset: 0n, d: 0n },
      ];
      const run = await (await createEngine('verilator')).run(design, delays);
      expect(run.outputs.map((cycle) => cycle.q)).toEqual([0n, 0n, 5n, 9n]);
      // Icarus starts the black box's own registers at X (the testbench zeroes only generated
      // modules, whose registers it knows): an output read before the reset edge is refused.
      await expect((await createEngine('icarus')).run(design, delays)).rejects.toThrow(
        /output 'q' has unknown bits \(x\)/,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a missing file or a file without the module is an error at the defineBlackBox line', () => {
    const user = (file: string) =>
      defineModule({
        name: 'User',
        defaults: {},
        ports: () => ({ y: output(1) }),
        build(m, io) {
          const box = m.instance(
            defineBlackBox({ name: 'Nowhere', file, ports: () => ({ a: input(1), y: output(1) }) }), // MARK-box
          );
          box.a.set(m.lit(0, 1));
          io.y.set(box.y);
        },
      });
    const line =
      readFileSync(fileURLToPath(import.meta.url), 'utf8')
        .split('\n')
        .findIndex((text) => text.endsWith('// MARK-box')) + 1;
    expect(() => elaborate(user('./no-such-file.v'))).toThrow(
      new RegExp(
        `blackBox\\.test\\.ts:${line}: black box Nowhere: cannot read its Verilog file .*no-such-file\\.v \\(ENOENT\\)`,
      ),
    );
    expect(() => elaborate(user(verilogFile))).toThrow(/has no 'module Nowhere'/);
  });
});
