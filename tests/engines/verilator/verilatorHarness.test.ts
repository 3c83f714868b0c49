/**
 * The Verilator harness is a static C++ file plus a generated port table: the table declares every
 * protocol number from harnessStimulus.ts (the C++ repeats none by hand), the C++ compiles without
 * a warning under g++ -Wall -Wextra against the tables of a wide, several-clock, checked design
 * and of one with no ports to drive or sample, and a changed table is a new cached build.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_NUMBERS } from '../../../hw/contract/harnessProtocol.ts';
import type { HarnessPorts } from '../../../engines/harness/harnessStimulus.ts';
import { PORT_TABLE_HEADER, verilatorPortTable } from '../../../engines/verilator/verilatorHarness.ts';
import { hasTool } from '../../../tools/toolchain.ts';
import { buildVerilator } from '../../../tools/verilator.ts';

const source = readFileSync(new URL('../../../engines/verilator/harness.cpp', import.meta.url), 'utf8');

const WIDE: HarnessPorts = {
  top: 'Wide',
  inputs: [
    { name: 'a', width: 100 },
    { name: 'b', width: 40 },
    { name: 'c', width: 9 },
    { name: 'd', width: 20 },
    { name: 'e', width: 32 },
  ],
  outputs: [
    { name: 'y', width: 70 },
    { name: 'z', width: 16 },
    { name: 'q', width: 64 },
  ],
  clocked: true,
  clocks: ['clk', 'clk_b'],
  checked: true,
};
const WIDE_VERILOG = `module Wide(input clk, input clk_b, input [99:0] a, input [39:0] b, input [8:0] c, input [19:0] d,
  input [31:0] e, output reg [69:0] y, output [15:0] z, output [63:0] q);
  reg [63:0] r;
  always @(posedge clk) y <= a[69:0] ^ {30'b0, b};
  always @(posedge clk_b) r <= {b, 24'b0};
  assign z = {7'b0, c} ^ d[15:0] ^ e[15:0];
  assign q = r;
endmodule
`;
const EMPTY: HarnessPorts = { top: 'Empty', inputs: [], outputs: [], clocked: false };
const EMPTY_VERILOG = 'module Empty(input unused); endmodule\n';

describe('the Verilator harness', () => {
  it('takes every protocol number from the port table, which declares them as harnessStimulus.ts defines them', () => {
    const table = verilatorPortTable(WIDE);
    for (const [name, value] of Object.entries(PROTOCOL_NUMBERS))
      expect(table).toContain(`constexpr uint32_t ${name} = 0x${value.toString(16)}u;`);
    for (const value of Object.values(PROTOCOL_NUMBERS).filter((value) => value > 0xff))
      expect(source).not.toMatch(new RegExp(`0x0*${value.toString(16)}\\b`, 'i'));
    expect(source).not.toMatch(/\bop == \d/);
    expect(source).toContain(`#include "${PORT_TABLE_HEADER}"`);
  });

  it.skipIf(!hasTool('verilator'))(
    'compiles without a warning under g++ -Wall -Wextra, traced or not, for a wide and an empty design',
    () => {
      const work = mkdtempSync(join(tmpdir(), 'gen-harness-lint-'));
      try {
        const root = spawnSync('verilator', ['--getenv', 'VERILATOR_ROOT'], { encoding: 'utf8' }).stdout.trim();
        for (const [ports, verilog] of [
          [WIDE, WIDE_VERILOG],
          [EMPTY, EMPTY_VERILOG],
        ] as const) {
          const dir = join(work, ports.top);
          writeFileSync(join(work, `${ports.top}.v`), verilog);
          const verilated = spawnSync(
            'verilator',
            ['--cc', '--trace', '-Wno-fatal', '-Wno-lint', '-Wno-style', '-Mdir', dir, `${ports.top}.v`],
            { encoding: 'utf8', cwd: work },
          );
          expect(verilated.status, verilated.stderr).toBe(0);
          writeFileSync(join(dir, PORT_TABLE_HEADER), verilatorPortTable(ports));
          for (const trace of ['0', '1']) {
            const compiled = spawnSync(
              'g++',
              [
                '-std=c++17',
                '-fsyntax-only',
                '-Wall',
                '-Wextra',
                '-Werror',
                `-DVM_TRACE=${trace}`,
                '-I',
                dir,
                '-isystem',
                join(root, 'include'),
                '-isystem',
                join(root, 'include', 'vltstd'),
                new URL('../../../engines/verilator/harness.cpp', import.meta.url).pathname,
              ],
              { encoding: 'utf8' },
            );
            expect(compiled.stderr).toBe('');
            expect(compiled.status).toBe(0);
          }
        }
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    // Four compiles of the Verilated headers: minutes on a loaded machine.
    600_000,
  );

  it.skipIf(!hasTool('verilator'))(
    'is a new cached build when only its port table changes',
    async () => {
      const cacheRoot = mkdtempSync(join(tmpdir(), 'gen-harness-key-'));
      try {
        const files = new Map([['Key.v', 'module Key(input clk); endmodule\n']]);
        const main = `#include "${PORT_TABLE_HEADER}"\nint main() { return EXIT; }\n`;
        const build = (exit: number) =>
          buildVerilator(
            files,
            { top: 'Key', source: main, includes: { [PORT_TABLE_HEADER]: `#define EXIT ${exit}\n` } },
            { cacheRoot },
          );
        const first = await build(0);
        const second = await build(3);
        expect(second.built).toBe(true);
        expect(second.binary).not.toBe(first.binary);
        expect(spawnSync(second.binary).status).toBe(3);
        expect((await build(0)).built).toBe(false);
      } finally {
        rmSync(cacheRoot, { recursive: true, force: true });
      }
    },
    600_000,
  );
});
