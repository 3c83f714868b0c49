import { CLOCK_PORT, moduleByName, type IrDesign, type IrMemory } from '../hw/ir/ir.ts';
import { verilogIdentifier } from '../hw/ir/identifiers.ts';
import { literal } from '../hw/verilog/operators.ts';
import { VCD_ROOT } from '../hw/verilog/manifest.ts';
import { wordsOf, type HarnessPorts } from './harnessStimulus.ts';
import {
  FRAME_ACK,
  FRAME_OUTPUTS_4,
  OP_CLOCK_STEP,
  OP_END,
  OP_PEEK,
  OP_POKE,
  OP_STEP,
  OP_STREAM,
  OP_WAIT,
  STEP_ACK,
  STEP_PEEK,
  STEP_SAMPLE,
} from '../hw/contract/harnessProtocol.ts';

/**
 * Rounds of nonblocking-assignment updates a peek lets run before it samples. A poke of an
 * asynchronous reset takes effect through `q <= 0` in the design's `always @(posedge clk or
 * posedge rst)`, which Verilog runs after every `#0`; each round waits on a nonblocking update of
 * the testbench's own (`tb_settle`, after the design's of the same time), then on `#0` for what
 * it drives. One round per link of a chain of asynchronous resets (a domain's reset input is
 * one; a black box's own Verilog may chain more); a batch sample, at its edge's time, has all.
 */
const PEEK_SETTLE_ROUNDS = 4;

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

/** The engine testbench of an IR design: one instance, state zeroed per stream, a full VCD on request. */
export function icarusTestbench(design: IrDesign, ports: HarnessPorts): string {
  return testbenchVerilog({ ports, zeroState: zeroStateLines(design) });
}

/**
 * The one Verilog testbench generator for Icarus: a harness of the binary protocol
 * (harnessStimulus.ts), reading commands from standard input with $fread and writing frames to
 * standard output with $fwrite's %u and %z (4-state outputs: X and Z reach the reader), where the
 * design's $display lines go too, in order. With several instances each outputs frame holds every
 * instance's outputs, instance after instance. It follows the step contract (engines/engine.ts):
 * pokes applied → settle → outputs sampled → clock rises → settle → clock falls, 10 time units per
 * cycle; a peek settles with `#0` and rounds of nonblocking updates (PEEK_SETTLE_ROUNDS: an
 * asynchronous reset just poked has acted), so it moves no time and a session's waveform and
 * outputs are the batch run's. `+vcd=` asks for a VCD. The module is named `TOP` (VCD_ROOT).
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
  const maxWords = Math.max(1, ...inputs.map((port) => wordsOf(port.width)));
  // Without a clock the testbench still toggles a `clk` of its own (the engines' VCDs show it).
  const tick = clocks ? undefined : (clock ?? (inputs.some((port) => port.id === 'clk') ? undefined : 'clk'));
  const window = spec.dump;
  const dumpLines = (signals: readonly string[]): string[] => [
    '$dumpfile(tb_vcd);',
    ...signals.map((signal) => `$dumpvars(0, ${signal});`),
  ];
  const outputFrame = `$fwrite(32'h8000_0001, "%u${outputs.map(() => '%z').join('')}", 32'h${FRAME_OUTPUTS_4.toString(16)}${outputs.map((port) => `, ${port.wire}`).join('')});`;
  const ackFrame = `$fwrite(32'h8000_0001, "%u%u", 32'h${FRAME_ACK.toString(16)}, tb_stepped);`;
  // OP_PEEK: settle without moving time, then the current cycle's outputs.
  const peekLines = [
    '#0;',
    `repeat (${PEEK_SETTLE_ROUNDS}) begin tb_settle <= ~tb_settle; @(tb_settle); #0; end`,
    outputFrame,
  ];
  // The outputs as one frame (the first port in the lowest word), for OP_WAIT's masked compare.
  const frameWords = Math.max(
    1,
    outputs.reduce((total, port) => total + wordsOf(port.width), 0),
  );
  const framePieces = outputs.map((port) => {
    const pad = 32 * wordsOf(port.width) - port.width;
    return pad === 0 ? port.wire : `{${pad}'b0, ${port.wire}}`;
  });
  const outputsFrame = framePieces.length === 0 ? '0' : `{${framePieces.reverse().join(', ')}}`;
  // One cycle (or step): the VCD window, then `edge` with SAMPLE as the sample point (check lines
  // before it are this cycle's inputs settling, after it its edge).
  const cycleLines = (edge: readonly string[]): string[] => [
    ...(window
      ? [
          `if (tb_cycle == ${window.fromCycle} && $value$plusargs("vcd=%s", tb_vcd)) begin`,
          ...indentLines(dumpLines(window.signals), 1),
          'end',
        ]
      : []),
    ...edge.flatMap((line) =>
      line === 'SAMPLE'
        ? [
            ...(ports.checked ? ['$display("GEN-CYCLE");'] : []),
            `if (tb_command[${8 + Math.log2(STEP_SAMPLE)}]) ${outputFrame}`,
          ]
        : [line],
    ),
    ...(window ? ['tb_cycle = tb_cycle + 1;'] : []),
    'tb_stepped = tb_stepped + 1;',
  ];
  // One cycle of one clock (or none): pokes settle, SAMPLE, the clock rises, and falls.
  const clockCycle = cycleLines([
    '#5;',
    'SAMPLE',
    ...(tick ? [`${tick} = 1'b1;`] : []),
    '#5;',
    ...(tick ? [`${tick} = 1'b0;`] : []),
  ]);
  const pokeLines = inputs.flatMap((port, index) => [
    `${index}: begin`,
    `  tb_read_value(${wordsOf(port.width)});`,
    `  ${port.id} = tb_value[${port.width - 1}:0];`,
    'end',
  ]);
  const lines = [
    `// Generated by engines/icarusTestbench.ts for ${ports.top}; the protocol is in engines/harnessStimulus.ts.`,
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
        `integer tb_in, tb_code, tb_i${window ? ', tb_cycle' : ''};`,
        'reg [31:0] tb_bytes, tb_word, tb_command, tb_count, tb_n, tb_stepped;',
        `reg [${32 * maxWords - 1}:0] tb_value;`,
        `reg [${32 * frameWords - 1}:0] tb_want, tb_care;`,
        'reg tb_waiting;',
        'reg [8*4096-1:0] tb_vcd;',
        "reg tb_running, tb_eof, tb_settle = 1'b0;",
        '',
        ...instanceLines,
        '',
        '// The next little-endian word of standard input; tb_eof at its end.',
        'task tb_read_word;',
        '  begin',
        '    tb_code = $fread(tb_bytes, tb_in);',
        '    tb_eof = tb_code != 4;',
        '    tb_word = {tb_bytes[7:0], tb_bytes[15:8], tb_bytes[23:16], tb_bytes[31:24]};',
        '  end',
        'endtask',
        '',
        '// A word inside a command: the input may not end there.',
        'task tb_need_word;',
        '  begin',
        '    tb_read_word;',
        '    if (tb_eof) begin',
        '      $fdisplay(32\'h8000_0002, "harness: the input ended inside command 0x%h", tb_command);',
        '      $fflush;',
        '      $finish_and_return(2);',
        '      #1;',
        '    end',
        '  end',
        'endtask',
        '',
        'task tb_read_value(input integer count);',
        '  begin',
        '    tb_value = 0;',
        '    for (tb_i = 0; tb_i < count; tb_i = tb_i + 1) begin',
        '      tb_need_word;',
        '      tb_value[32*tb_i +: 32] = tb_word;',
        '    end',
        '  end',
        'endtask',
        '',
        'task tb_bad;',
        '  begin',
        '    $fdisplay(32\'h8000_0002, "harness: malformed command 0x%h", tb_command);',
        '    $fflush;',
        '    $finish_and_return(2);',
        '    #1;',
        '  end',
        'endtask',
        '',
        'initial begin',
      ],
      1,
    ),
    ...indentLines(
      [
        'tb_in = $fopen("/dev/stdin", "rb");',
        ...(window
          ? []
          : ['if ($value$plusargs("vcd=%s", tb_vcd)) begin', ...indentLines(dumpLines([VCD_ROOT]), 1), 'end']),
        'tb_running = 1;',
        'tb_stepped = 0;',
        'while (tb_running) begin',
        '  $fflush;',
        '  tb_read_word;',
        '  tb_command = tb_word;',
        `  if (tb_eof) tb_command = ${OP_END};`,
        '  case (tb_command[7:0])',
        `    ${OP_STREAM}: begin`,
        ...indentLines(
          [
            ...(tick ? [`${tick} = 1'b0;`] : []),
            ...(clocks ?? []).map((name) => `${name} = 1'b0;`),
            ...inputs.map((port) => `${port.id} = 0;`),
            ...(spec.zeroState ?? []),
            ...(window ? ['tb_cycle = 0;'] : []),
            'tb_stepped = 0;',
            // One simulation for all streams: combinational check blocks keep what they printed.
            ...(ports.checked ? ['$display("GEN-STREAM-SAME");'] : []),
          ],
          3,
        ),
        '    end',
        `    ${OP_POKE}:`,
        '      case (tb_command[31:8])',
        ...indentLines([...pokeLines, 'default: tb_bad;'], 4),
        '      endcase',
        `    ${OP_PEEK}: begin`,
        ...indentLines(peekLines, 3),
        '    end',
        `    ${OP_STEP}: begin`,
        '      tb_need_word;',
        '      tb_count = tb_word;',
        '      for (tb_n = 0; tb_n < tb_count; tb_n = tb_n + 1) begin',
        ...indentLines(clockCycle, 4),
        '      end',
        `      if (tb_command[${8 + Math.log2(STEP_ACK)}]) ${ackFrame}`,
        `      if (tb_command[${8 + Math.log2(STEP_PEEK)}]) begin`,
        ...indentLines(peekLines, 4),
        '      end',
        '    end',
        // A wait: peek, and step while the masked outputs differ and the limit allows (harnessStimulus.ts).
        `    ${OP_WAIT}: begin`,
        '      tb_need_word;',
        '      tb_count = tb_word;',
        `      for (tb_n = 0; tb_n < ${frameWords}; tb_n = tb_n + 1) begin tb_need_word; tb_want[32*tb_n +: 32] = tb_word; end`,
        `      for (tb_n = 0; tb_n < ${frameWords}; tb_n = tb_n + 1) begin tb_need_word; tb_care[32*tb_n +: 32] = tb_word; end`,
        // The first check settles as OP_PEEK does (the pokes just made may include an asynchronous
        // reset); after a cycle, nothing was poked and the edge's updates are 5 time units old.
        '      #0;',
        `      repeat (${PEEK_SETTLE_ROUNDS}) begin tb_settle <= ~tb_settle; @(tb_settle); #0; end`,
        '      tb_n = 0;',
        `      tb_waiting = ((${outputsFrame} ^ tb_want) & tb_care) !== 0 && tb_count != 0;`,
        '      while (tb_waiting) begin',
        ...indentLines(clockCycle, 4),
        '        tb_n = tb_n + 1;',
        '        #0;',
        `        tb_waiting = ((${outputsFrame} ^ tb_want) & tb_care) !== 0 && tb_n != tb_count;`,
        '      end',
        `      ${outputFrame}`,
        `      ${ackFrame}`,
        '    end',
        ...(clocks
          ? [
              `    ${OP_CLOCK_STEP}: begin`,
              '      tb_need_word;',
              '      tb_mask = tb_word;',
              ...['tb_sample', 'tb_edge', 'tb_next'].flatMap((name) => [
                '      tb_need_word;',
                `      ${name}[31:0] = tb_word;`,
                '      tb_need_word;',
                `      ${name}[63:32] = tb_word;`,
              ]),
              ...indentLines(
                cycleLines([
                  '#(tb_edge - tb_sample);',
                  'SAMPLE',
                  ...clocks.map((name, index) => `if (tb_mask[${index}]) ${name} = 1'b1;`),
                  '#(tb_next - tb_edge);',
                  ...clocks.map((name) => `${name} = 1'b0;`),
                ]),
                3,
              ),
              `      if (tb_command[${8 + Math.log2(STEP_ACK)}]) ${ackFrame}`,
              '    end',
            ]
          : []),
        `    ${OP_END}: tb_running = 0;`,
        '    default: tb_bad;',
        '  endcase',
        'end',
        '$fflush;',
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
