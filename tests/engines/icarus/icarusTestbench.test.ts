/**
 * The Icarus testbench is a static Verilog file plus a generated port table: the table declares
 * every protocol number from harnessStimulus.ts (the Verilog repeats none by hand), and the two
 * compile with iverilog for a wide, several-clock, checked design with a VCD window, for several
 * instances, and for a design with nothing to sample; a port named like a task's argument is still
 * the port the task drives.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_NUMBERS } from '../../../hw/contract/harnessProtocol.ts';
import type { HarnessPorts } from '../../../engines/harness/harnessStimulus.ts';
import {
  PORT_TABLE,
  TESTBENCH,
  testbenchFiles,
  testbenchPortTable,
  type TestbenchSpec,
} from '../../../engines/icarus/icarusTestbench.ts';
import { hasTool } from '../../../tools/toolchain.ts';

const WIDE: HarnessPorts = {
  top: 'Wide',
  inputs: [
    { name: 'a', width: 100 },
    { name: 'b', width: 40 },
    { name: 'c', width: 9 },
  ],
  outputs: [
    { name: 'y', width: 70 },
    { name: 'z', width: 16 },
  ],
  clocked: true,
  clocks: ['clk', 'clk_b'],
  checked: true,
};
const WIDE_VERILOG = `module Wide(input clk, input clk_b, input [99:0] a, input [39:0] b, input [8:0] c,
  output reg [69:0] y, output reg [15:0] z);
  always @(posedge clk) y <= a[69:0] ^ {30'b0, b};
  always @(posedge clk_b) z <= {7'b0, c};
endmodule
`;
const ARGUMENTS: HarnessPorts = {
  top: 'Arguments',
  inputs: [{ name: 'index', width: 8 }],
  outputs: [{ name: 'level', width: 8 }],
  clocked: false,
};
const ARGUMENTS_VERILOG =
  'module Arguments(input [7:0] index, output [7:0] level); assign level = index + 1; endmodule\n';

/** The words of the commands, little-endian. */
const words = (...values: number[]): Buffer => Buffer.from(new Uint32Array(values).buffer);

/** Compiles `spec`'s testbench with `verilog` in a fresh folder; runs it on `input` when given. */
function compile(spec: TestbenchSpec, verilog: string, input?: Buffer): { status: number | null; stdout: Buffer } {
  const work = mkdtempSync(join(tmpdir(), 'gen-testbench-'));
  try {
    for (const [name, text] of testbenchFiles(spec)) writeFileSync(join(work, name), text);
    writeFileSync(join(work, 'design.v'), verilog);
    const compiled = spawnSync('iverilog', ['-g2012', '-s', 'TOP', '-o', 'design.vvp', TESTBENCH, 'design.v'], {
      cwd: work,
      encoding: 'utf8',
    });
    expect(compiled.stderr).toBe('');
    expect(compiled.status).toBe(0);
    if (!input) return { status: 0, stdout: Buffer.alloc(0) };
    // The testbench opens /dev/stdin, which a socket (Node's pipes) is not: the commands come from a file.
    writeFileSync(join(work, 'commands.bin'), input);
    const commands = openSync(join(work, 'commands.bin'), 'r');
    const ran = spawnSync('vvp', ['-n', 'design.vvp'], { cwd: work, stdio: [commands, 'pipe', 'pipe'] });
    closeSync(commands);
    return { status: ran.status, stdout: ran.stdout };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

describe('the Icarus testbench', () => {
  it('takes every protocol number from the port table, which declares them as harnessStimulus.ts defines them', () => {
    const table = testbenchPortTable({ ports: WIDE });
    for (const [name, value] of Object.entries(PROTOCOL_NUMBERS))
      expect(table).toContain(`localparam [31:0] ${name} = 32'h${value.toString(16)};`);
    const testbench = testbenchFiles({ ports: WIDE }).get(TESTBENCH)!;
    for (const value of Object.values(PROTOCOL_NUMBERS).filter((value) => value > 0xff))
      expect(testbench).not.toMatch(new RegExp(`'h0*${value.toString(16)}\\b`, 'i'));
    expect(testbench).toContain(`\`include "${PORT_TABLE}"`);
  });

  it.skipIf(!hasTool('iverilog'))(
    'compiles for a wide design of two clocks with a VCD window, for two instances, and for nothing to sample',
    () => {
      compile({ ports: WIDE, dump: { fromCycle: 3, signals: ['TOP.Wide.y'] } }, WIDE_VERILOG);
      const single = { ...WIDE, clocks: undefined, clocked: true };
      compile(
        {
          ports: { ...single, top: 'Wide' },
          instances: [
            { module: 'Wide', name: 'rtl' },
            { module: 'Wide', name: 'gates' },
          ],
        },
        WIDE_VERILOG.replace('input clk_b,', '').replace('posedge clk_b', 'posedge clk'),
      );
      compile({ ports: { top: 'Empty', inputs: [], outputs: [], clocked: false } }, 'module Empty(); endmodule\n');
    },
    120_000,
  );

  it.skipIf(!hasTool('iverilog'))('pokes and samples ports named like its tasks’ arguments', () => {
    // OP_STREAM, OP_POKE index 0 = 41, OP_PEEK, OP_END.
    const { status, stdout } = compile(
      { ports: ARGUMENTS },
      ARGUMENTS_VERILOG,
      words(
        PROTOCOL_NUMBERS.OP_STREAM,
        PROTOCOL_NUMBERS.OP_POKE,
        41,
        PROTOCOL_NUMBERS.OP_PEEK,
        PROTOCOL_NUMBERS.OP_END,
      ),
    );
    expect(status).toBe(0);
    // One 4-state outputs frame: the header, then `level` as its value and unknown words.
    expect([...new Uint32Array(stdout.buffer, stdout.byteOffset, stdout.length / 4)]).toEqual([
      PROTOCOL_NUMBERS.FRAME_OUTPUTS_4,
      42,
      0,
    ]);
  });
});
