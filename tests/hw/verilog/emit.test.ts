import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { constant, defineModule, input, output } from '../../../hw/core/index.ts';
import { emitModule, emitVerilog } from '../../../hw/verilog/emit.ts';
import { buildManifest } from '../../../hw/verilog/manifest.ts';
import { registry } from '../../support/registry.ts';
import { checkWithYosys, lintWithVerilator } from '../../../tools/lint.ts';
import { Awkward, Everything, OPERATOR_WIDTHS } from './testDesigns.ts';

describe('emitVerilog', () => {
  const design = elaborate(Everything);
  const files = emitVerilog(design);

  it('emits one file per module, children first, named after the module', () => {
    expect([...files.keys()]).toEqual(design.modules.map((module) => `${module.name}.v`));
    expect(files.has('Operators_width_130.v')).toBe(true);
    for (const [name, text] of files) expect(text).toMatch(new RegExp(`^module ${name.slice(0, -2)} \\(`, 'm'));
  });

  it('is deterministic: two elaborations give identical bytes, from any working directory', () => {
    const again = emitVerilog(elaborate(Everything));
    expect([...again]).toEqual([...files]);
    const cwd = process.cwd();
    try {
      process.chdir(tmpdir());
      expect([...emitVerilog(elaborate(Everything))]).toEqual([...files]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('passes verilator --lint-only -Wall with no warnings and Yosys check -assert clean', async () => {
    const [verilator, yosys, awkwardVerilator, awkwardYosys] = await Promise.all([
      lintWithVerilator(files, 'Everything'),
      checkWithYosys(files, 'Everything'),
      lintWithVerilator(emitVerilog(elaborate(Awkward)), 'Awkward'),
      checkWithYosys(emitVerilog(elaborate(Awkward)), 'Awkward', { system: true }),
    ]);
    expect(verilator).toEqual([]);
    expect(yosys).toEqual([]);
    expect(awkwardVerilator).toEqual([]);
    expect(awkwardYosys).toEqual([]);
  });

  it('keeps user names, escapes keywords, cites source lines and writes exact literals', () => {
    const state = files.get('StateBlock_width_33.v')!;
    expect(state).toMatch(/reg\s+\[32:0\] counter; \/\/ tests\/hw\/verilog\/testDesigns\.ts:\d+/);
    expect(state).toContain("if (reset) counter <= 33'h3;");
    expect(state).toMatch(/always @\(posedge clk\) sum <= sum \+ data;/);
    expect(state).toMatch(/reg \[32:0\] words \[0:7\];/);
    const ops = files.get('Operators_width_130.v')!;
    expect(ops).toContain(`assign pattern = 130'h${((1n << 130n) - 3n).toString(16)};`);
    expect(ops).toMatch(/\{130'h0, a\} \* \{130'h0, b\}/);
    // Signed order as unsigned order of sign-flipped operands (no $signed: Verilator 5.006 gets some wrong).
    const signBit = `130'h${(1n << 129n).toString(16)}`;
    expect(ops).toContain(`(a ^ ${signBit}) < (b ^ ${signBit})`);
    expect(ops).toContain(`(b ^ ${signBit}) <= (a ^ ${signBit})`);
    // Reductions and equalities over more than 64 bits go by ≤ 64-bit chunks (Verilator 5.006
    // mis-folds the wide ones, verilator/verilator#5953); 64 bits or fewer stay whole.
    expect(ops).toContain('((a[63:0] == b[63:0]) & (a[127:64] == b[127:64]) & (a[129:128] == b[129:128]))');
    expect(ops).toContain('((a[63:0] != b[63:0]) | (a[127:64] != b[127:64]) | (a[129:128] != b[129:128]))');
    expect(ops).toContain('((&a[63:0]) & (&a[127:64]) & (&a[129:128]))');
    expect(ops).toContain('((|a[63:0]) | (|a[127:64]) | (|a[129:128]))');
    expect(ops).toContain('((^a[63:0]) ^ (^a[127:64]) ^ (^a[129:128]))');
    expect(files.get('Operators_width_33.v')!).toMatch(/\{\(a == b\), \(a != b\), .*\}; .*\n/);
    expect(files.get('Operators_width_33.v')!).toContain('{(&a), (|a), (^a)}');
    // sra always has its own wire: inside an unsigned expression >>> would shift logically.
    expect(ops).toMatch(/assign _n\d+ = \$signed\(a\) >>> amount;/);
    const awkward = emitModule(elaborate(Awkward).modules.at(-1)!);
    expect(awkward).toContain('input  wire [7:0] begin_v,');
    expect(awkward).toContain('Leaf module_v (');
  });

  it('gives a literal operand of a chunked equality a wire of its own, so its bits can be selected', () => {
    const WideEqual = defineModule({
      name: 'WideEqual',
      defaults: {},
      ports: () => ({ a: input(65), hit: output(1) }),
      build: (_m, io) => io.hit.set(io.a.eq(constant(1n << 64n, 65))),
    });
    const text = emitModule(elaborate(WideEqual).modules[0]!);
    expect(text).toMatch(
      /assign (_n\d+) = 65'h10000000000000000;[^]*assign hit = \(a\[63:0\] == \1\[63:0\]\) & \(a\[64\] == \1\[64\]\);/,
    );
  });

  it('silences UNUSED only on declarations with unread bits', () => {
    const leaf = emitVerilog(elaborate(Awkward)).get('Leaf.v')!;
    const waived = [...leaf.matchAll(/lint_off UNUSED \*\/\n\s*(.*)\n/g)].map((match) => match[1]);
    expect(waived).toEqual([
      expect.stringContaining('reset'),
      expect.stringContaining('debug'),
      expect.stringContaining('log [0:3]'),
    ]);
  });
});

describe('buildManifest', () => {
  it('lists modules, ports and parameters and maps every named net to Verilog and VCD names', () => {
    const manifest = buildManifest(elaborate(Everything));
    expect(manifest.top).toBe('Everything');
    const ops = manifest.modules.find((module) => module.name === 'Operators_width_33')!;
    expect(ops.parameters).toEqual({ width: 33 });
    expect(ops.ports.find((port) => port.name === 'product')).toEqual({
      name: 'product',
      direction: 'output',
      width: 66,
    });
    const counter = manifest.sourceMap.find((entry) => entry.path === 'Everything.nest.state.counter')!;
    expect(counter).toMatchObject({
      module: 'StateBlock_width_33',
      verilog: 'counter',
      vcd: 'Everything.nest.state.counter',
      width: 33,
      kind: 'reg',
    });
    expect(counter.source).toMatch(/^tests\/hw\/verilog\/testDesigns\.ts:\d+$/);
    expect(manifest.sourceMap.filter((entry) => entry.path.endsWith('.pattern'))).toHaveLength(OPERATOR_WIDTHS.length);
    expect(manifest.sourceMap.some((entry) => entry.verilog.startsWith('_n'))).toBe(false);
  });

  it('renames keyword signals consistently in the map', () => {
    const manifest = buildManifest(elaborate(Awkward));
    expect(manifest.sourceMap.find((entry) => entry.path === 'Awkward.begin')).toMatchObject({
      verilog: 'begin_v',
      vcd: 'Awkward.begin',
    });
    expect(manifest.sourceMap.find((entry) => entry.path === 'Awkward.module.held')).toMatchObject({
      vcd: 'Awkward.module.held',
    });
  });
});

describe('lint drivers', () => {
  it('report real problems, so a clean result means something', async () => {
    const Sloppy = defineModule({
      name: 'Sloppy',
      defaults: {},
      ports: () => ({ a: input(4), y: output(4) }),
      build: (_m, io) => io.y.set(io.a),
    });
    const sloppy = new Map([
      [
        'Sloppy.v',
        emitModule(elaborate(Sloppy).modules[0]!).replace('assign y = a;', 'wire [3:0] ghost;\n  assign y = ghost;'),
      ],
    ]);
    const [verilator, yosys] = await Promise.all([
      lintWithVerilator(sloppy, 'Sloppy'),
      checkWithYosys(sloppy, 'Sloppy', { system: true }),
    ]);
    expect(verilator.join('\n')).toMatch(/UNUSED|UNDRIVEN/);
    expect(yosys.join('\n')).toMatch(/ghost.*no driver/);
  });
});

describe('the registered designs', () => {
  it('all emit Verilog that passes verilator -Wall without warnings', async () => {
    const files = new Map<string, string>();
    for (const top of registry)
      for (const [name, text] of emitVerilog(elaborate(top.definition))) files.set(name, text);
    expect(files.size).toBeGreaterThan(0);
    expect(await lintWithVerilator(files)).toEqual([]);
  });
});
