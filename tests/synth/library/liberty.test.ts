import { describe, expect, it } from 'vitest';
import { libertyText } from '../../../synth/library/liberty.ts';
import { nangate45 } from '../../../synth/library/nangate45.ts';
import { runTool, withWorkspace } from '../../../tools/runTool.ts';

const required = [
  'INV',
  'BUF',
  'NAND2',
  'NAND3',
  'NAND4',
  'NOR2',
  'NOR3',
  'AND2',
  'AND3',
  'AND4',
  'OR2',
  'OR3',
  'XOR2',
  'XNOR2',
  'AOI21',
  'OAI21',
  'AOI22',
  'OAI22',
  'MUX2',
  'HA',
  'FA',
  'DFF',
  'DFFR',
];

describe('the 45 nm cell library table', () => {
  it('has every cell the flow needs, with facts.md §4 figures', () => {
    const names = nangate45.cells.map((cell) => cell.name);
    expect(names).toEqual(expect.arrayContaining(required.map((name) => `${name}_X1`)));
    const byName = new Map(nangate45.cells.map((cell) => [cell.name, cell]));
    expect(byName.get('AND2_X1')).toMatchObject({ area: 1.064, leakageNw: 25.07 });
    expect(byName.get('DFF_X1')).toMatchObject({ area: 4.522, leakageNw: 79.11 });
    expect(byName.get('DFF_X1')?.inputs.find((pin) => pin.name === 'CK')?.energyFj).toBe(3.601);
    expect(byName.get('NAND2_X1')?.outputs[0]?.energyFj).toBeCloseTo((1.179 + 1.505) / 2, 6);
  });

  it('uses areas on the 0.266 µm² site grid (facts.md §4)', () => {
    for (const cell of nangate45.cells)
      expect(Math.abs(cell.area / 0.266 - Math.round(cell.area / 0.266))).toBeLessThan(1e-9);
  });
});

describe('Liberty writer', () => {
  const text = libertyText(nangate45);

  it('is deterministic and defines the thresholds OpenSTA requires', () => {
    expect(libertyText(nangate45)).toBe(text);
    for (const attribute of [
      'input_threshold_pct_rise',
      'input_threshold_pct_fall',
      'output_threshold_pct_rise',
      'output_threshold_pct_fall',
      'slew_lower_threshold_pct_rise',
      'slew_upper_threshold_pct_fall',
    ]) {
      expect(text).toMatch(new RegExp(`^\\s*${attribute} : \\d+;`, 'm'));
    }
    expect(text).toContain('nom_voltage : 1.1;');
    expect(text.match(/^ {2}cell \(/gm)?.length).toBe(nangate45.cells.length);
  });

  it('is read by OpenSTA without errors or warnings', async () => {
    const inputs = {
      'cells.lib': text,
      'check.tcl': 'read_liberty cells.lib\nputs "cells=[llength [get_lib_cells */*]]"\n',
    };
    const result = await withWorkspace('liberty-test', inputs, (dir) =>
      runTool('sta', ['-no_init', '-no_splash', '-exit', 'check.tcl'], { cwd: dir, timeout: 120_000 }),
    );
    const output = `${result.stdout}${result.stderr}`;
    expect(result.exitCode).toBe(0);
    expect(output).not.toMatch(/error|warning/i);
    expect(output).toContain(`cells=${nangate45.cells.length}`);
  });
});
