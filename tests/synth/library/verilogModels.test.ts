import { describe, expect, it } from 'vitest';
import { nangate45 } from '../../../synth/library/nangate45.ts';
import { cellModelsVerilog } from '../../../synth/library/verilogModels.ts';
import { buildIcarus, runIcarus } from '../../../tools/icarus.ts';

type Truth = (inputs: Readonly<Record<string, boolean>>) => boolean;

/** What each combinational output must compute, written independently of the library table (NanGate data sheet). */
const expected: Readonly<Record<string, Readonly<Record<string, Truth>>>> = {
  INV_X1: { ZN: (p) => !p['A'] },
  BUF_X1: { Z: (p) => !!p['A'] },
  NAND2_X1: { ZN: (p) => !(p['A1'] && p['A2']) },
  NAND3_X1: { ZN: (p) => !(p['A1'] && p['A2'] && p['A3']) },
  NAND4_X1: { ZN: (p) => !(p['A1'] && p['A2'] && p['A3'] && p['A4']) },
  NOR2_X1: { ZN: (p) => !(p['A1'] || p['A2']) },
  NOR3_X1: { ZN: (p) => !(p['A1'] || p['A2'] || p['A3']) },
  AND2_X1: { ZN: (p) => !!(p['A1'] && p['A2']) },
  AND3_X1: { ZN: (p) => !!(p['A1'] && p['A2'] && p['A3']) },
  AND4_X1: { ZN: (p) => !!(p['A1'] && p['A2'] && p['A3'] && p['A4']) },
  OR2_X1: { ZN: (p) => !!(p['A1'] || p['A2']) },
  OR3_X1: { ZN: (p) => !!(p['A1'] || p['A2'] || p['A3']) },
  XOR2_X1: { Z: (p) => p['A'] !== p['B'] },
  XNOR2_X1: { ZN: (p) => p['A'] === p['B'] },
  AOI21_X1: { ZN: (p) => !(p['A'] || (p['B1'] && p['B2'])) },
  OAI21_X1: { ZN: (p) => !(p['A'] && (p['B1'] || p['B2'])) },
  AOI22_X1: { ZN: (p) => !((p['A1'] && p['A2']) || (p['B1'] && p['B2'])) },
  OAI22_X1: { ZN: (p) => !((p['A1'] || p['A2']) && (p['B1'] || p['B2'])) },
  MUX2_X1: { Z: (p) => (p['S'] ? !!p['B'] : !!p['A']) },
  HA_X1: { CO: (p) => !!(p['A'] && p['B']), S: (p) => p['A'] !== p['B'] },
  FA_X1: {
    CO: (p) => [p['A'], p['B'], p['CI']].filter(Boolean).length >= 2,
    S: (p) => [p['A'], p['B'], p['CI']].filter(Boolean).length % 2 === 1,
  },
};

describe('behavioural cell models', () => {
  it('compute the data-sheet function of every combinational cell on every input combination (Icarus)', async () => {
    const combinational = nangate45.cells.filter((cell) => !cell.flipFlop);
    expect(combinational.map((cell) => cell.name).sort()).toEqual(Object.keys(expected).sort());
    // One testbench: each cell instance walks its full truth table and prints "cell input-bits output-bits".
    const lines = ['module truth;', '  integer i;'];
    for (const cell of combinational) {
      const n = cell.inputs.length;
      lines.push(`  reg [${n - 1}:0] in_${cell.name};`, `  wire [${cell.outputs.length - 1}:0] out_${cell.name};`);
      const pins = [
        ...cell.inputs.map((pin, index) => `.${pin.name}(in_${cell.name}[${index}])`),
        ...cell.outputs.map((pin, index) => `.${pin.name}(out_${cell.name}[${index}])`),
      ];
      lines.push(`  ${cell.name} u_${cell.name} (${pins.join(', ')});`);
    }
    lines.push('  initial begin');
    for (const cell of combinational) {
      lines.push(
        `    for (i = 0; i < ${2 ** cell.inputs.length}; i = i + 1) begin in_${cell.name} = i; #1 $display("${cell.name} %0d %b", i, out_${cell.name}); end`,
      );
    }
    lines.push('  end', 'endmodule', '');
    const build = await buildIcarus(
      new Map([
        ['truth.v', lines.join('\n')],
        ['cells.v', cellModelsVerilog(nangate45)],
      ]),
      { root: 'truth' },
    );
    const { stdout } = await runIcarus(build);
    let checked = 0;
    for (const line of stdout.split('\n').filter((text) => /^\w+_X1 /.test(text))) {
      const [name, index, bits] = line.split(' ');
      const cell = combinational.find((candidate) => candidate.name === name);
      if (!cell || index === undefined || bits === undefined) throw new Error(`unexpected line ${line}`);
      const inputs = Object.fromEntries(cell.inputs.map((pin, bit) => [pin.name, ((Number(index) >> bit) & 1) === 1]));
      cell.outputs.forEach((pin, bit) => {
        const simulated = bits[bits.length - 1 - bit] === '1';
        expect(simulated, `${name}.${pin.name} with ${JSON.stringify(inputs)}`).toBe(
          expected[cell.name]?.[pin.name]?.(inputs),
        );
        checked++;
      });
    }
    expect(checked).toBe(combinational.reduce((sum, cell) => sum + cell.outputs.length * 2 ** cell.inputs.length, 0));
  });
});
