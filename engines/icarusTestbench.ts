import { CLOCK_PORT, moduleByName, type IrDesign } from '../hw/ir/ir.ts';
import { verilogIdentifier } from '../hw/verilog/identifiers.ts';
import { literal } from '../hw/verilog/operators.ts';
import { VCD_ROOT } from '../hw/verilog/manifest.ts';
import type { HarnessPorts } from './harnessStimulus.ts';

const range = (width: number): string => (width === 1 ? '' : `[${width - 1}:0] `);

const plainIdentifier = /^[A-Za-z_][A-Za-z0-9_$]*$/;

/** A Verilog reference to `name`, escaped when it is not a plain identifier (Yosys flat names have dots). */
export function verilogName(name: string): string {
  return plainIdentifier.test(name) ? name : `\\${name} `;
}

/** One design instance in the testbench; all instances get the same inputs. */
export interface TestbenchInstance {
  readonly module: string;
  readonly name: string;
}

/**
 * What the one Icarus testbench generator needs. The engines give a design's ports and the
 * lines that zero its state; gate-level simulation (synth/) gives the netlist's ports, its clock
 * port's name, several instances (RTL beside gates) and a VCD window of chosen signals.
 */
export interface TestbenchSpec {
  readonly ports: HarnessPorts;
  /** The clock input's name (default `clk`); used only when `ports.clocked`. */
  readonly clock?: string;
  /** Default: one instance of `ports.top` named after it (so VCD names match Verilator's). */
  readonly instances?: readonly TestbenchInstance[];
  /** Statements run at each stream start to put all state at 0 (see zeroStateLines). */
  readonly zeroState?: readonly string[];
  /**
   * VCD of these references (relative to the testbench), from cycle `fromCycle` of the stream on;
   * default: everything under the testbench from the start. Either way only with `+vcd=`.
   */
  readonly dump?: { readonly fromCycle: number; readonly signals: readonly string[] };
}

/**
 * Icarus starts every `reg` at X, but the step contract starts all state at 0 (as the TS
 * simulator and Verilator with --x-initial 0 do). The testbench zeroes every register and memory
 * word by hierarchical reference at the start of each stream, so the design's Verilog stays free
 * of simulation-only `initial` blocks; a memory with initial contents gets them instead.
 */
export function zeroStateLines(design: IrDesign): string[] {
  const lines: string[] = [];
  const work = [{ module: design.top, path: `${VCD_ROOT}.${design.top}` }];
  while (work.length > 0) {
    const { module: name, path } = work.pop()!;
    const module = moduleByName(design, name);
    // A black box's state is its own Verilog's (its IR is a model, or ports only): its reset sets it.
    if (module.blackBox) continue;
    for (const register of module.registers)
      lines.push(`${path}.${verilogIdentifier(module.nets[register.q]!.name)} = 0;`);
    for (const memory of module.memories) {
      const name = `${path}.${verilogIdentifier(memory.name)}`;
      lines.push(`for (tb_i = 0; tb_i < ${memory.depth}; tb_i = tb_i + 1) ${name}[tb_i] = 0;`);
      // Initialized memories start at their contents (the design's `initial` block holds the same words).
      memory.init?.forEach((word, address) => {
        if (word !== 0n) lines.push(`${name}[${address}] = ${literal(word, memory.width)};`);
      });
    }
    for (const instance of module.instances)
      work.push({ module: instance.module, path: `${path}.${verilogIdentifier(instance.name)}` });
  }
  return lines;
}

/** The engine testbench of an IR design: one instance, state zeroed per stream, a full VCD on request. */
export function icarusTestbench(design: IrDesign, ports: HarnessPorts): string {
  return testbenchVerilog({ ports, zeroState: zeroStateLines(design) });
}

/**
 * The one Verilog testbench generator for Icarus. It reads the stimulus format of
 * harnessStimulus.ts (`+stimulus=`), writes the results format (`+results=`; with several
 * instances each `O` line holds every instance's outputs, instance after instance) and optionally
 * a VCD (`+vcd=`), following the step contract (engines/engine.ts): inputs applied → settle →
 * outputs sampled → clock rises → settle → clock falls, 10 time units per cycle. The module is
 * named `TOP` (VCD_ROOT).
 */
export function testbenchVerilog(spec: TestbenchSpec): string {
  const { ports } = spec;
  const instances = spec.instances ?? [{ module: ports.top, name: ports.top }];
  const several = instances.length > 1;
  const clock = ports.clocked ? verilogIdentifier(spec.clock ?? CLOCK_PORT) : undefined;
  const inputs = ports.inputs.map((port) => ({ ...port, id: verilogIdentifier(port.name) }));
  const outputs = instances.flatMap((instance) =>
    ports.outputs.map((port) => {
      const id = verilogIdentifier(port.name);
      return { ...port, id, wire: several ? `${id}__${instance.name}` : id, instance: instance.name };
    }),
  );
  // Several clocks: each C line starts with the step's clock mask and times (harnessStimulus.ts).
  const clocks = ports.clocks?.map((name) => verilogIdentifier(name));
  const instanceLines = instances.map((instance) => {
    const connections = [
      ...(clocks ? clocks.map((name) => `.${name}(${name})`) : clock ? [`.${clock}(${clock})`] : []),
      ...inputs.map((port) => `.${port.id}(${port.id})`),
      ...outputs.filter((port) => port.instance === instance.name).map((port) => `.${port.id}(${port.wire})`),
    ];
    return `${verilogName(instance.module)} ${verilogName(instance.name)} (${connections.join(', ')});`;
  });
  const format = ['O', ...outputs.map(() => '%h')].join(' ');
  // Without a clock the testbench still toggles a `clk` of its own (the engines' VCDs show it).
  const tick = clocks ? undefined : (clock ?? (inputs.some((port) => port.id === 'clk') ? undefined : 'clk'));
  const window = spec.dump;
  const dumpLines = (signals: readonly string[]): string[] => [
    '$dumpfile(tb_vcd);',
    ...signals.map((signal) => `$dumpvars(0, ${signal});`),
  ];
  const lines = [
    `// Generated by engines/icarusTestbench.ts for ${ports.top}; the stimulus format is in engines/harnessStimulus.ts.`,
    '`timescale 1ns/1ns',
    `module ${VCD_ROOT};`,
    ...indentLines(
      [
        ...(tick ? [`reg ${tick} = 1'b0;`] : []),
        ...(clocks
          ? [...clocks.map((name) => `reg ${name} = 1'b0;`), 'reg [63:0] tb_mask, tb_sample, tb_edge, tb_next;']
          : []),
        ...inputs.map((port) => `reg ${range(port.width)}${port.id} = 0;`),
        ...outputs.map((port) => `wire ${range(port.width)}${port.wire};`),
        `integer tb_in, tb_out, tb_code, tb_tag, tb_i${window ? ', tb_cycle' : ''};`,
        'reg [8*4096-1:0] tb_stimulus, tb_results, tb_vcd;',
        '',
        ...instanceLines,
        '',
        'initial begin',
      ],
      1,
    ),
    ...indentLines(
      [
        'if (!$value$plusargs("stimulus=%s", tb_stimulus) || !$value$plusargs("results=%s", tb_results)) begin',
        '  $display("testbench: need +stimulus= and +results=");',
        '  $finish;',
        'end',
        'tb_in = $fopen(tb_stimulus, "r");',
        'tb_out = $fopen(tb_results, "w");',
        ...(window
          ? []
          : ['if ($value$plusargs("vcd=%s", tb_vcd)) begin', ...indentLines(dumpLines([VCD_ROOT]), 1), 'end']),
        'tb_code = $fscanf(tb_in, " %c", tb_tag);',
        'while (tb_code == 1) begin',
        '  if (tb_tag == "S") begin',
        ...indentLines(
          [
            ...(tick ? [`${tick} = 1'b0;`] : []),
            ...(clocks ?? []).map((name) => `${name} = 1'b0;`),
            ...inputs.map((port) => `${port.id} = 0;`),
            ...(spec.zeroState ?? []),
            ...(window ? ['tb_cycle = 0;'] : []),
            // One simulation for all streams: combinational check blocks keep what they printed.
            ...(ports.checked ? ['$display("GEN-STREAM-SAME");'] : []),
            '$fwrite(tb_out, "S\\n");',
          ],
          2,
        ),
        '  end else begin',
        ...indentLines(
          [
            ...(window
              ? [
                  `if (tb_cycle == ${window.fromCycle} && $value$plusargs("vcd=%s", tb_vcd)) begin`,
                  ...indentLines(dumpLines(window.signals), 1),
                  'end',
                ]
              : []),
            ...(clocks ? ['tb_code = $fscanf(tb_in, "%h %h %h %h", tb_mask, tb_sample, tb_edge, tb_next);'] : []),
            ...inputs.map((port) => `tb_code = $fscanf(tb_in, "%h", ${port.id});`),
            clocks ? '#(tb_edge - tb_sample);' : '#5;',
            // The sample point: check lines before it are this cycle's inputs settling, after it its edge.
            ...(ports.checked ? ['$display("GEN-CYCLE");'] : []),
            `$fwrite(tb_out, "${format}\\n"${outputs.map((port) => `, ${port.wire}`).join('')});`,
            ...(tick ? [`${tick} = 1'b1;`] : []),
            ...(clocks ?? []).map((name, index) => `if (tb_mask[${index}]) ${name} = 1'b1;`),
            clocks ? '#(tb_next - tb_edge);' : '#5;',
            ...(tick ? [`${tick} = 1'b0;`] : []),
            ...(clocks ?? []).map((name) => `${name} = 1'b0;`),
            ...(window ? ['tb_cycle = tb_cycle + 1;'] : []),
          ],
          2,
        ),
        '  end',
        '  tb_code = $fscanf(tb_in, " %c", tb_tag);',
        'end',
        '$fclose(tb_out);',
        '$finish;',
      ],
      2,
    ),
    '  end',
    'endmodule',
    '',
  ];
  return lines.join('\n');
}

function indentLines(lines: readonly string[], depth: number): string[] {
  return lines.map((line) => (line === '' ? '' : `${'  '.repeat(depth)}${line}`));
}
