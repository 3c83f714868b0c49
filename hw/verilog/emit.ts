import { CLOCK_PORT, RESET_PORT, type IrCell, type IrDesign, type IrModule, type IrNet } from '../ir/ir.ts';
import { orderCells } from '../ir/topology.ts';
import type { SourceLocation } from '../core/sourceLocation.ts';
import { sourceText } from './sourceText.ts';
import { verilogIdentifier } from '../ir/identifiers.ts';
import { NEVER_INLINED, asOperand, literal, namedOperands, renderOperator } from './operators.ts';
import { analyzeUsage, type NetUsage } from './usage.ts';
import type { PrintSegment } from '../core/printFormat.ts';

/** Inlined expressions longer than this get a wire of their own, so lines stay readable. */
const MAX_INLINE_LENGTH = 100;

const INDENT = '  ';

/** A write enable that is constant true needs no `if`. */
const ALWAYS = literal(1n, 1);

/** `[W-1:0] ` for vectors, nothing for single bits. */
function range(width: number): string {
  return width === 1 ? '' : `[${width - 1}:0] `;
}

function where(location: SourceLocation): string {
  return `// ${sourceText(location)}`;
}

/** Wraps declaration lines in a local Verilator waiver when some of their bits are never read. */
function waived(lines: string[], warnings: readonly string[]): string[] {
  if (warnings.length === 0) return lines;
  const on = warnings.map((warning) => `/* verilator lint_off ${warning} */`).join(' ');
  const off = warnings.map((warning) => `/* verilator lint_on ${warning} */`).join(' ');
  const indent = /^\s*/.exec(lines[0] ?? '')?.[0] ?? '';
  return [`${indent}${on}`, ...lines, `${indent}${off}`];
}

/**
 * Per net: its text as a whole right-hand side (`whole`) and, internally, as an operand. Single-use
 * unnamed nodes (and every constant) are inlined into their reader; everything else is referred to
 * by name and gets an assign (`assigns`). Built in topological order, so no recursion, however
 * deep the expression.
 */
function renderExpressions(
  module: IrModule,
  usage: NetUsage,
): { whole: string[]; assigns: { cell: IrCell; text: string }[] } {
  const names = module.nets.map((net) => verilogIdentifier(net.name));
  const operand = [...names];
  /** The same text without the outer parentheses, for whole right-hand sides. */
  const whole = [...names];
  const namedOnly = new Set<number>();
  for (const cell of module.cells) {
    const widths = cell.inputs.map((input) => module.nets[input]!.width);
    for (const index of namedOperands(cell.op, widths)) namedOnly.add(cell.inputs[index]!);
  }
  // `$display` pads %d to the width of its argument's expression: a name has exactly the net's.
  for (const print of module.prints ?? []) print.args.forEach((net) => namedOnly.add(net));
  // Icarus 11 evaluates array indices wider than the standard's self-determined width, so an
  // inlined `address + 1` would not wrap there: addresses are names (or literals).
  const addresses = new Set<number>();
  for (const cell of module.cells) if (cell.op === 'memread') addresses.add(cell.inputs[0]!);
  for (const memory of module.memories)
    for (const port of memory.writePorts) {
      addresses.add(port.address);
      // A masked write assigns lanes: bits of the mask and of the data, so both are names.
      if (port.mask !== undefined) [port.mask, port.data].forEach((net) => namedOnly.add(net));
    }
  const memoryNames = module.memories.map((memory) => verilogIdentifier(memory.name));
  const assigns: { cell: IrCell; text: string }[] = [];
  for (const index of orderCells(module.nets.length, module.cells)) {
    const cell = module.cells[index]!;
    const net = module.nets[cell.output]!;
    let text =
      cell.op === 'const'
        ? literal(cell.constant!, net.width)
        : cell.op === 'buf'
          ? whole[cell.inputs[0]!]!
          : renderOperator(cell.op, {
              args: cell.inputs.map((input) => operand[input]!),
              widths: cell.inputs.map((input) => module.nets[input]!.width),
              width: net.width,
              ...(cell.hi === undefined ? {} : { hi: cell.hi, lo: cell.lo! }),
              ...(cell.memory === undefined ? {} : { memory: memoryNames[cell.memory]! }),
            });
    if (cell.op === 'memread') text = guardedRead(module, cell, text, operand[cell.inputs[0]!]!);
    const inlinable =
      net.kind === 'node' &&
      !namedOnly.has(net.id) &&
      (cell.op === 'const' || !addresses.has(net.id)) &&
      !NEVER_INLINED.has(cell.op) &&
      (cell.op === 'const' || usage.uses[net.id] === 1) &&
      text.length <= MAX_INLINE_LENGTH;
    if (inlinable) {
      operand[net.id] = cell.op === 'buf' ? operand[cell.inputs[0]!]! : asOperand(cell.op, text);
      whole[net.id] = text;
    } else assigns.push({ cell, text });
  }
  return { whole, assigns };
}

/**
 * A read of a memory whose depth is not a power of two: addresses past the last word read 0 (as
 * on the ts engine), written out so Verilator and Icarus agree (Verilog leaves such reads X).
 */
function guardedRead(module: IrModule, cell: IrCell, text: string, address: string): string {
  const memory = module.memories[cell.memory!]!;
  const addressWidth = module.nets[cell.inputs[0]!]!.width;
  if (2 ** addressWidth <= memory.depth) return text;
  const width = module.nets[cell.output]!.width;
  return `(${address} < ${literal(BigInt(memory.depth), addressWidth)} ? ${text} : ${literal(0n, width)})`;
}

function portLines(module: IrModule, usage: NetUsage): string[] {
  const lines: string[] = [];
  module.ports.forEach((port, index) => {
    const net = module.nets[port.net]!;
    const comma = index === module.ports.length - 1 ? '' : ',';
    const line = `${INDENT}${port.direction === 'input' ? 'input ' : 'output'} wire ${range(port.width)}${verilogIdentifier(port.name)}${comma} ${where(net.location)}`;
    lines.push(...waived([line], port.direction === 'input' && !usage.fullyRead[port.net] ? ['UNUSED'] : []));
  });
  return lines;
}

function declarationLines(module: IrModule, usage: NetUsage, materialized: ReadonlySet<number>): string[] {
  const lines: string[] = [];
  const declare = (net: IrNet): void => {
    const kind = net.kind === 'reg' ? 'reg ' : 'wire';
    const line = `${INDENT}${kind} ${range(net.width)}${verilogIdentifier(net.name)}; ${where(net.location)}`;
    lines.push(...waived([line], usage.fullyRead[net.id] ? [] : ['UNUSED']));
  };
  for (const net of module.nets) {
    if (net.kind === 'input' || net.kind === 'output') continue;
    if (net.kind === 'node' && !materialized.has(net.id)) continue;
    declare(net);
  }
  module.memories.forEach((memory, index) => {
    const line = `${INDENT}reg ${range(memory.width)}${verilogIdentifier(memory.name)} [0:${memory.depth - 1}]; ${where(memory.location)}`;
    const warnings = [
      ...(usage.unreadMemories.has(index) ? ['UNUSED'] : []),
      ...(memory.writePorts.length === 0 ? ['UNDRIVEN'] : []),
    ];
    lines.push(...waived([line], warnings));
  });
  return lines;
}

/** The clock and reset of a register's or memory's domain, and whether its reset is asynchronous. */
function domainPorts(module: IrModule, domain: string | undefined): { clock: string; reset: string; async: boolean } {
  const named = domain === undefined ? undefined : module.domains?.find((candidate) => candidate.name === domain);
  if (domain !== undefined && !named) throw new Error(`internal: no domain ${domain} in module ${module.name}`);
  return named
    ? {
        clock: verilogIdentifier(named.clock),
        reset: verilogIdentifier(named.reset),
        async: named.resetKind === 'async',
      }
    : { clock: verilogIdentifier(CLOCK_PORT), reset: verilogIdentifier(RESET_PORT), async: false };
}

function registerLines(module: IrModule, whole: readonly string[]): string[] {
  const lines: string[] = [];
  for (const register of module.registers) {
    const { clock, reset, async } = domainPorts(module, register.domain);
    const q = verilogIdentifier(module.nets[register.q]!.name);
    const d = whole[register.d]!;
    const width = module.nets[register.q]!.width;
    if (register.resetValue === undefined) {
      lines.push(`${INDENT}always @(posedge ${clock}) ${q} <= ${d}; ${where(register.location)}`);
      continue;
    }
    const event = async ? `posedge ${clock} or posedge ${reset}` : `posedge ${clock}`;
    lines.push(
      `${INDENT}always @(${event}) begin ${where(register.location)}`,
      `${INDENT}${INDENT}if (${reset}) ${q} <= ${literal(register.resetValue, width)};`,
      `${INDENT}${INDENT}else ${q} <= ${d};`,
      `${INDENT}end`,
    );
  }
  return lines;
}

/**
 * Start values of registers that have one (random initial state, hw/ir/randomInit.ts), for
 * simulators only: Verilator runs the `initial` block when its model starts, Icarus' testbench
 * sets the same values again at each stream start (engines/icarus/icarusTestbench.ts).
 */
function registerInitialLines(module: IrModule): string[] {
  const started = module.registers.filter((register) => register.initial !== undefined);
  if (started.length === 0) return [];
  return [
    `${INDENT}// Random initial state (--init random): registers without a reset start here.`,
    '`ifndef SYNTHESIS',
    `${INDENT}initial begin`,
    ...started.map((register) => {
      const net = module.nets[register.q]!;
      return `${INDENT}${INDENT}${verilogIdentifier(net.name)} = ${literal(register.initial!, net.width)};`;
    }),
    `${INDENT}end`,
    '`endif',
  ];
}

/**
 * Initial contents as `initial` assignments, one word a line: read alike by Verilator, Icarus
 * and Yosys (a memory init), with no file to find at run time.
 */
function memoryInitLines(module: IrModule): string[] {
  const lines: string[] = [];
  for (const memory of module.memories) {
    if (memory.init === undefined) continue;
    const name = verilogIdentifier(memory.name);
    lines.push(`${INDENT}initial begin ${where(memory.location)}`);
    memory.init.forEach((word, address) =>
      lines.push(`${INDENT}${INDENT}${name}[${address}] = ${literal(word, memory.width)};`),
    );
    lines.push(`${INDENT}end`);
  }
  return lines;
}

function memoryWriteLines(module: IrModule, whole: readonly string[]): string[] {
  const lines: string[] = [];
  for (const memory of module.memories) {
    if (memory.writePorts.length === 0) continue;
    const name = verilogIdentifier(memory.name);
    lines.push(`${INDENT}// ${memory.name}: writes in port order, so a later port wins on the same address`);
    lines.push(`${INDENT}always @(posedge ${domainPorts(module, memory.domain).clock}) begin`);
    for (const port of memory.writePorts) {
      const enable = whole[port.enable]!;
      const address = whole[port.address]!;
      if (port.mask === undefined) {
        const write = `${name}[${address}] <= ${whole[port.data]}; ${where(port.location)}`;
        lines.push(`${INDENT}${INDENT}${enable === ALWAYS ? '' : `if (${enable}) `}${write}`);
        continue;
      }
      // Masked: one assignment per lane (Yosys merges them into one port with per-bit enables).
      const granularity = memory.granularity ?? 1;
      const lanes = memory.width / granularity;
      const mask = whole[port.mask]!;
      const data = whole[port.data]!;
      const always = enable === ALWAYS;
      const inner = always ? `${INDENT}${INDENT}` : `${INDENT}${INDENT}${INDENT}`;
      if (!always) lines.push(`${INDENT}${INDENT}if (${enable}) begin ${where(port.location)}`);
      for (let lane = 0; lane < lanes; lane++) {
        const bits =
          lanes === 1
            ? ''
            : granularity === 1
              ? `[${lane}]`
              : `[${lane * granularity + granularity - 1}:${lane * granularity}]`;
        const maskBit = lanes === 1 ? mask : `${mask}[${lane}]`;
        const at = always && lane === 0 ? ` ${where(port.location)}` : '';
        lines.push(`${inner}if (${maskBit}) ${name}[${address}]${bits} <= ${data}${bits};${at}`);
      }
      if (!always) lines.push(`${INDENT}${INDENT}end`);
    }
    lines.push(`${INDENT}end`);
  }
  return lines;
}

function instanceLines(module: IrModule): string[] {
  const lines: string[] = [];
  for (const instance of module.instances) {
    const connections = [...instance.inputs, ...instance.outputs].map(
      ([port, net]) => `${INDENT}${INDENT}.${verilogIdentifier(port)}(${verilogIdentifier(module.nets[net]!.name)})`,
    );
    lines.push(
      `${INDENT}${instance.module} ${verilogIdentifier(instance.name)} ( ${where(instance.location)}`,
      connections.join(',\n'),
      `${INDENT});`,
    );
  }
  return lines;
}

/** The tag of the line a failing check prints; engines/harness/checkLog.ts parses it. */
export const CHECK_LINE_TAG = 'GEN-CHECK';

/** The tag of the line a holding cover point prints; engines/harness/checkLog.ts counts it. */
export const COVER_LINE_TAG = 'GEN-COVER';

/** User text as the inside of a Verilog string literal for $display (no format directives, one line). */
const displayText = (text: string): string =>
  oneLine(text)
    .replace(/[^\x20-\x7e]/g, '?')
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/%/g, '%%');

/** The simulation-only wire that is 1 while a combinational module's check `index` is false. */
const checkFalseName = (index: number): string => `gen_check_false_${index}`;

/** The simulation-only wire that is 1 while a combinational module's cover point `index` holds. */
const coverTrueName = (index: number): string => `gen_cover_true_${index}`;

const CHECK_WORD = { assert: 'assertion', assume: 'assumption', cover: 'cover' } as const;

/**
 * The module's assertions, assumptions and cover points, twice. For simulators (left out where
 * SYNTHESIS is defined): at each rising clock edge while reset is low, a false assert/assume
 * prints one line `GEN-CHECK <module> <index> <instance> <value of each read signal, hex> | <text>`,
 * which the Verilator and Icarus adapters turn into the same report as the ts engine. Nothing is
 * printed while the checks hold. A combinational module has no clock: a wire
 * `gen_check_false_<index>` is 1 while the check is false; one block prints the line whenever it or
 * a read signal changes while it is 1, another `GEN-CHECK-OK <module> <index> <instance>` at its
 * falling edge (only then), and engines/harness/checkLog.ts counts a false check in every cycle until its
 * OK line. A cover point prints `GEN-COVER <module> <index> <instance>` in each cycle it holds
 * (clocked: at the edge while reset is low; combinational: while its wire `gen_cover_true_<index>`
 * is 1, with `GEN-COVER-OFF …` at its falling edge), so every engine counts the same hits.
 * For formal tools (inside `ifdef FORMAL`, as Yosys `read_verilog -formal` defines it):
 * SystemVerilog immediate assert/assume/cover statements under the same clock and reset, which
 * Yosys makes $assert, $assume and $cover cells (Yosys 0.23 reads no clocked `assert property`
 * without Verific, and Verilator 5.006 fails on one inside an always block; immediate ones lint
 * clean in both).
 */
function checkLines(module: IrModule, whole: readonly string[]): string[] {
  const checks = module.checks ?? [];
  if (checks.length === 0) return [];
  const clocked = module.clocked;
  const clock = verilogIdentifier(CLOCK_PORT);
  const reset = verilogIdentifier(RESET_PORT);
  const event = clocked ? `@(posedge ${clock})` : '@*';
  const printed = checks.flatMap((check, index) => (check.kind === 'cover' ? [] : [{ check, index }]));
  const simulation = printed.flatMap(({ check, index }) => {
    const reads = check.reads.map((net) => verilogIdentifier(module.nets[net]!.name));
    const text = `${CHECK_LINE_TAG} ${module.name} ${index} %m${reads.map(() => ' %h').join('')} | ${displayText(`${CHECK_WORD[check.kind]} '${check.message}' at ${sourceText(check.location)}`)}`;
    const display = `$display("${text}"${reads.map((read) => `, ${read}`).join('')});`;
    if (clocked)
      return [
        `${INDENT}always ${event} begin`,
        `${INDENT}${INDENT}if (!${reset} && !(${whole[check.condition]})) ${where(check.location)}`,
        `${INDENT}${INDENT}${INDENT}${display}`,
        `${INDENT}end`,
      ];
    // Combinational: printed while false, and once (not at every change of the inputs) when it holds again.
    return whileHighLines(
      checkFalseName(index),
      `!(${whole[check.condition]})`,
      display,
      `${CHECK_LINE_TAG}-OK ${module.name} ${index} %m`,
      check.location,
    );
  });
  const covered = checks.flatMap((check, index) => {
    if (check.kind !== 'cover') return [];
    const display = `$display("${COVER_LINE_TAG} ${module.name} ${index} %m");`;
    if (clocked)
      return [
        `${INDENT}always ${event} if (!${reset} && (${whole[check.condition]})) ${display} ${where(check.location)}`,
      ];
    return whileHighLines(
      coverTrueName(index),
      whole[check.condition]!,
      display,
      `${COVER_LINE_TAG}-OFF ${module.name} ${index} %m`,
      check.location,
    );
  });
  const formal = checks.map(
    (check) => `${INDENT}${INDENT}${check.kind} (${whole[check.condition]}); ${where(check.location)}`,
  );
  return [
    `${INDENT}// Checks (m.assert/m.assume/m.cover): printed by simulators, proved by formal tools (gen prove).`,
    ...(simulation.length + covered.length === 0 ? [] : ['`ifndef SYNTHESIS', ...simulation, ...covered, '`endif']),
    '`ifdef FORMAL',
    `${INDENT}always ${event} begin`,
    ...(clocked
      ? [`${INDENT}${INDENT}if (!${reset}) begin`, ...formal.map((line) => `${INDENT}${line}`), `${INDENT}${INDENT}end`]
      : formal),
    `${INDENT}end`,
    '`endif',
  ];
}

/**
 * A combinational module's print of a condition (a false check, a holding cover): a wire that is 1
 * while it holds, `display` whenever it or a read signal changes while it is 1, and `offText` once
 * at its falling edge (that block runs after its time step's other changes in Icarus: a wire back
 * at 1 by then prints nothing). For Icarus also a print at time 0: its `always @*` may start
 * waiting only after the wire has settled from the initial values, and then no change wakes it
 * (found by the differential fuzz: an assertion false from the start went unreported); `#0` runs
 * after time 0's active events, the testbench's stream marker among them. Verilator evaluates every
 * block in its first eval and takes no delays, so it leaves that out.
 */
function whileHighLines(
  wire: string,
  expression: string,
  display: string,
  offText: string,
  location: SourceLocation,
): string[] {
  return [
    `${INDENT}wire ${wire} = ${expression}; ${where(location)}`,
    `${INDENT}always @* if (${wire}) ${display}`,
    '`ifndef VERILATOR',
    `${INDENT}initial #0 if (${wire}) ${display}`,
    '`endif',
    `${INDENT}always @(negedge ${wire}) if (!${wire}) $display("${offText}");`,
  ];
}

/** The tag of the line a printf prints; the Verilator and Icarus adapters read it (engines/harness/printLog.ts). */
export const PRINT_LINE_TAG = 'GEN-PRINT';

/**
 * A parsed printf format as a `$display` format and its arguments: each directive the one
 * `$display` directive that prints what hw/core/printFormat.ts defines (`%i`: `$signed` under `%d`).
 */
function displayFormat(format: readonly PrintSegment[], args: readonly string[]): { text: string; args: string[] } {
  let at = 0;
  let text = '';
  const values: string[] = [];
  for (const segment of format) {
    if (typeof segment === 'string') {
      text += displayText(segment);
      continue;
    }
    const arg = args[at++]!;
    const width = segment.width === 'auto' ? '' : String(segment.width);
    text += `%${width}${segment.conversion === 'x' ? 'h' : segment.conversion === 'b' ? 'b' : 'd'}`;
    values.push(segment.conversion === 'i' ? `$signed(${arg})` : arg);
  }
  return { text, args: values };
}

/**
 * The module's printfs, for simulators only (left out where SYNTHESIS is defined): one block at
 * the rising clock edge while reset is low, so the prints of one module fire in declaration order
 * and read the values before the edge. Each prints `GEN-PRINT <index> <instance> | <text>`: the
 * adapters order the lines of one cycle across modules and strip the tag (engines/harness/printLog.ts).
 */
function printLines(module: IrModule, whole: readonly string[]): string[] {
  const prints = module.prints ?? [];
  if (prints.length === 0) return [];
  const names = module.nets.map((net) => verilogIdentifier(net.name));
  const statements = prints.map((print, index) => {
    const { text, args } = displayFormat(
      print.format,
      print.args.map((net) => names[net]!),
    );
    const display = `$display("${PRINT_LINE_TAG} ${index} %m | ${text}"${args.map((arg) => `, ${arg}`).join('')});`;
    return `${INDENT}${INDENT}${INDENT}if (${whole[print.condition]}) ${display} ${where(print.location)}`;
  });
  return [
    `${INDENT}// Printfs (m.printf): simulation only, with the values before the clock edge.`,
    '`ifndef SYNTHESIS',
    `${INDENT}always @(posedge ${verilogIdentifier(CLOCK_PORT)}) begin`,
    `${INDENT}${INDENT}if (!${verilogIdentifier(RESET_PORT)}) begin`,
    ...statements,
    `${INDENT}${INDENT}end`,
    `${INDENT}end`,
    '`endif',
  ];
}

/** User text (descriptions, string parameters) kept on one comment line. */
const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ');

function headerLines(module: IrModule): string[] {
  const parameters = Object.entries(module.parameters)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(', ');
  return [
    `// ${module.name}${module.description === undefined ? '' : `: ${oneLine(module.description)}`}`,
    `// Generated from ${module.definition} (${sourceText(module.location)})${parameters === '' ? '' : ` with ${oneLine(parameters)}`}; do not edit.`,
  ];
}

/**
 * A `localparam` per value of each enum type the module's signals hold (`Phase_idle`), so the
 * values keep their names in the Verilog; waived for UNUSEDPARAM, as expressions carry the codes.
 */
function enumLines(module: IrModule): string[] {
  const taken = new Set(module.nets.map((net) => net.name));
  const lines: string[] = [];
  for (const type of module.enums ?? []) {
    const signals = type.signals.filter((name) => taken.has(name));
    if (signals.length === 0) continue;
    lines.push(`${INDENT}// enum ${type.name}: ${signals.join(', ')}`);
    for (const value of type.values) {
      const name = `${type.name}_${value.name}`;
      if (taken.has(name)) continue;
      lines.push(`${INDENT}localparam ${range(type.width)}${verilogIdentifier(name)} = ${type.width}'d${value.code};`);
    }
  }
  return lines.length === 0 ? [] : waived(lines, ['UNUSEDPARAM']);
}

/** One module as readable Verilog-2005 text (one file, named after the module). */
export function emitModule(module: IrModule): string {
  const usage = analyzeUsage(module);
  const { whole, assigns } = renderExpressions(module, usage);
  const materialized = new Set(assigns.map(({ cell }) => cell.output));
  const sections = [
    enumLines(module),
    declarationLines(module, usage, materialized),
    assigns.map(
      ({ cell, text }) =>
        `${INDENT}assign ${verilogIdentifier(module.nets[cell.output]!.name)} = ${text}; ${where(cell.location)}`,
    ),
    registerLines(module, whole),
    registerInitialLines(module),
    memoryInitLines(module),
    memoryWriteLines(module, whole),
    instanceLines(module),
    checkLines(module, whole),
    printLines(module, whole),
  ].filter((section) => section.length > 0);
  const body = sections.map((section) => section.join('\n')).join('\n\n');
  return [
    ...headerLines(module),
    '`default_nettype none',
    '',
    `module ${module.name} (`,
    ...portLines(module, usage),
    ');',
    ...(body === '' ? [] : [body]),
    'endmodule',
    '',
    '`default_nettype wire',
    '',
  ].join('\n');
}

/** The whole design: `<Module>.v` → text, one per elaborated module, children first (black boxes: their file). */
export function emitVerilog(design: IrDesign): Map<string, string> {
  // A black box's file goes out as it is, under its module's name.
  return new Map(design.modules.map((module) => [`${module.name}.v`, module.blackBox?.verilog ?? emitModule(module)]));
}
