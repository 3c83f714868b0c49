import { CLOCK_PORT, moduleByName, type IrDesign, type IrMemory } from '../../hw/ir/ir.ts';
import { verilogIdentifier } from '../../hw/ir/identifiers.ts';
import { literal } from '../../hw/verilog/operators.ts';
import { VCD_ROOT } from '../../hw/verilog/manifest.ts';
import { readFileSync } from 'node:fs';
import { PROTOCOL_NUMBERS } from '../../hw/contract/harnessProtocol.ts';
import { wordsOf, type HarnessPorts } from '../harness/harnessStimulus.ts';

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
    for (const register of module.registers) {
      const net = module.nets[register.q]!;
      // A register's start value (random initial state), else 0.
      lines.push(
        `${path}.${verilogIdentifier(net.name)} = ${register.initial === undefined ? '0' : literal(register.initial, net.width)};`,
      );
    }
    for (const memory of module.memories)
      lines.push(...memoryStartLines(`${path}.${verilogIdentifier(memory.name)}`, memory));
    for (const instance of module.instances)
      work.push({ module: instance.module, path: `${path}.${verilogIdentifier(instance.name)}` });
  }
  return lines;
}

/**
 * The statements that start memory `name` (a hierarchical reference) at the start of a stream: all
 * words zero, then an initialized memory's contents (the design's `initial` block holds the same words).
 */
export function memoryStartLines(name: string, memory: Pick<IrMemory, 'depth' | 'width' | 'init'>): string[] {
  const lines = [`for (tb_i = 0; tb_i < ${memory.depth}; tb_i = tb_i + 1) ${name}[tb_i] = 0;`];
  memory.init?.forEach((word, address) => {
    if (word !== 0n) lines.push(`${name}[${address}] = ${literal(word, memory.width)};`);
  });
  return lines;
}

/** The static testbench (testbench.v beside this file), the same for every design. */
const TESTBENCH_SOURCE = new URL('./testbench.v', import.meta.url);
/** The testbench's file name among a design's files, and the name it includes its port table by. */
export const TESTBENCH = 'testbench.v';
export const PORT_TABLE = 'testbench_ports.vh';

let source: string | undefined;

/** The engine testbench of an IR design: one instance, state zeroed per stream, a full VCD on request. */
export function icarusTestbench(design: IrDesign, ports: HarnessPorts): ReadonlyMap<string, string> {
  return testbenchFiles({ ports, zeroState: zeroStateLines(design) });
}

/**
 * The one Icarus testbench: the static testbench.v (its comment tells how it runs) and the port
 * table it includes, the only part generated per design (testbenchPortTable), as files to compile
 * with the design's (a `.vh` file is included, not compiled: tools/icarus.ts).
 */
export function testbenchFiles(spec: TestbenchSpec): ReadonlyMap<string, string> {
  source ??= readFileSync(TESTBENCH_SOURCE, 'utf8');
  return new Map([
    [TESTBENCH, source],
    [PORT_TABLE, testbenchPortTable(spec)],
  ]);
}

/** A task of the port table: its name and arguments, and its statements (none is an empty task). */
function task(header: string, body: readonly string[]): string[] {
  return [`task ${header};`, '  begin', ...body.map((line) => `    ${line}`), '  end', 'endtask', ''];
}

/**
 * The design-specific part of the Icarus testbench, included by testbench.v inside its module
 * `TOP` (VCD_ROOT): the protocol's numbers (from harnessStimulus.ts), the ports' regs and wires,
 * the instances, and the tasks that touch ports by name. With several instances each outputs frame
 * holds every instance's outputs, instance after instance.
 */
export function testbenchPortTable(spec: TestbenchSpec): string {
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
  // Several clocks: stepped by OP_CLOCK_STEP, each step with its clock mask and times (harnessStimulus.ts).
  const clocks = ports.clocks?.map((name) => verilogIdentifier(name));
  const instanceLines = instances.map((instance) => {
    const connections = [
      ...(clocks ? clocks.map((name) => `.${name}(${name})`) : clock ? [`.${clock}(${clock})`] : []),
      ...inputs.map((port) => `.${port.id}(${port.id})`),
      ...outputs.filter((port) => port.instance === instance.name).map((port) => `.${port.id}(${port.wire})`),
    ];
    return `${verilogName(instance.module)} ${verilogName(instance.name)} (${connections.join(', ')});`;
  });
  // Without a clock the testbench still toggles a `clk` of its own (the engines' VCDs show it).
  const tick = clocks ? undefined : (clock ?? (inputs.some((port) => port.id === 'clk') ? undefined : 'clk'));
  const frameWords = Math.max(
    1,
    outputs.reduce((total, port) => total + wordsOf(port.width), 0),
  );
  // The outputs as one frame (the first port in the lowest word), for OP_WAIT's masked compare.
  const framePieces = outputs.map((port) => {
    const pad = 32 * wordsOf(port.width) - port.width;
    return pad === 0 ? port.wire : `{${pad}'b0, ${port.wire}}`;
  });
  const numbers = Object.entries(PROTOCOL_NUMBERS);
  return [
    `// Generated by engines/icarus/icarusTestbench.ts for ${ports.top}: the port table of testbench.v.`,
    '// The protocol (hw/contract/harnessProtocol.ts).',
    ...numbers.map(([name, value]) => `localparam [31:0] ${name} = 32'h${value.toString(16)};`),
    `localparam TB_VALUE_WORDS = ${Math.max(1, ...inputs.map((port) => wordsOf(port.width)))};`,
    `localparam TB_FRAME_WORDS = ${frameWords};`,
    `localparam TB_CLOCKS = ${clocks?.length ?? 0};`,
    `localparam TB_CHECKED = ${ports.checked ? 1 : 0};`,
    '// The first cycle of the VCD window (-1: everything from the start).',
    `localparam TB_DUMP_FROM = ${spec.dump?.fromCycle ?? -1};`,
    '',
    ...(tick ? [`reg ${tick} = 1'b0;`] : []),
    ...(clocks ?? []).map((name) => `reg ${name} = 1'b0;`),
    ...inputs.map((port) => `reg ${range(port.width)}${port.id} = 0;`),
    ...outputs.map((port) => `wire ${range(port.width)}${port.wire};`),
    '',
    ...instanceLines,
    '',
    ...task('tb_poke(input [23:0] tb_index)', [
      'case (tb_index)',
      ...inputs.flatMap((port, index) => [
        `  ${index}: begin`,
        `    tb_read_value(${wordsOf(port.width)});`,
        `    ${port.id} = tb_value[${port.width - 1}:0];`,
        '  end',
      ]),
      '  default: tb_bad;',
      'endcase',
    ]),
    ...task('tb_write_outputs', [
      `$fwrite(32'h8000_0001, "%u${outputs.map(() => '%z').join('')}", FRAME_OUTPUTS_4${outputs.map((port) => `, ${port.wire}`).join('')});`,
    ]),
    ...task('tb_sample_outputs', [
      `tb_got = ${framePieces.length === 0 ? '0' : `{${framePieces.reverse().join(', ')}}`};`,
    ]),
    // A stream's start: clocks low, inputs 0, all state at its start value.
    ...task('tb_start_stream', [
      ...(tick ? [`${tick} = 1'b0;`] : []),
      ...(clocks ?? []).map((name) => `${name} = 1'b0;`),
      ...inputs.map((port) => `${port.id} = 0;`),
      ...(spec.zeroState ?? []),
    ]),
    ...task('tb_tick(input tb_level)', tick ? [`${tick} = tb_level;`] : []),
    ...task(
      'tb_clocks_rise(input [63:0] tb_rise)',
      (clocks ?? []).map((name, index) => `if (tb_rise[${index}]) ${name} = 1'b1;`),
    ),
    ...task(
      'tb_clocks_low',
      (clocks ?? []).map((name) => `${name} = 1'b0;`),
    ),
    ...task('tb_dump', [
      '$dumpfile(tb_vcd);',
      ...(spec.dump?.signals ?? [VCD_ROOT]).map((signal) => `$dumpvars(0, ${signal});`),
    ]),
  ].join('\n');
}
