import { formatLocation, type SourceLocation } from '../core/sourceLocation.ts';
import type { IrCell, IrDesign, IrModule } from './ir.ts';
import { printFormatText } from '../core/printFormat.ts';

/** What to add to the printed text beyond the netlist itself. */
export interface PrintOptions {
  /**
   * Append `@ file:line` (file relative to the working directory) to every net, cell,
   * register, memory, write port and instance. Off by default, so printed IR compared in tests
   * does not change when the source moves.
   */
  readonly locations?: boolean;
}

/**
 * The IR of one module as stable, readable text (the idea of Amaranth's `Netlist.__repr__`): what
 * tests compare in full and what a reader looks at to see what lowering and the passes made.
 * Deterministic: everything in IR order (nets by id, cells, registers, memories and instances as
 * stored, instance connections by port name, parameters by key), no object identities. One line
 * per item, indented under the module header:
 *
 * ```text
 * module Counter definition=Counter clocked
 *   parameters width=8
 *   port input clk: 1 = clk
 *   port output value: 8 = value
 *   net 0 input clk: 1
 *   net 3 reg count: 8
 *   cell 4 _n0: 8 = const 0x1
 *   cell 5 _n1: 8 = add count, _n0
 *   cell 6 _n2: 4 = slice count [7:4]
 *   cell 2 output value: 8 = buf count
 *   register count: 8 <= _n1 reset=0x0
 *   memory mem: 16 x 8
 *     write mem[addr] <= data when we
 *   instance child0: Child
 *     input clk <- clk
 *     output o -> child0_o
 * ```
 *
 * Every net appears with its id, kind and width: on the line of the cell that drives it (the kind
 * left out for unnamed nodes), or else on a `net` line (ports' inputs, registers, instance
 * outputs, and anything undriven). Elsewhere a net is named by its name, or `name#id` where two
 * nets of the module share one (possible before `assignNames`). Registers and memories repeat
 * their width; constants are hex.
 */
export function printModule(module: IrModule, options: PrintOptions = {}): string {
  const counts = new Map<string, number>();
  for (const net of module.nets) counts.set(net.name, (counts.get(net.name) ?? 0) + 1);
  const ref = (id: number): string => {
    const net = module.nets[id];
    if (!net) return `?${id}`;
    return counts.get(net.name)! > 1 ? `${net.name}#${id}` : net.name;
  };
  const width = (id: number): number | string => module.nets[id]?.width ?? '?';
  const at = (location: SourceLocation): string => (options.locations ? ` @ ${formatLocation(location)}` : '');

  const lines: string[] = [];
  lines.push(
    `module ${module.name} definition=${module.definition}${module.clocked ? ' clocked' : ''}` +
      `${(module.domains ?? []).map((domain) => ` domain=${domain.name}:${domain.resetKind}`).join('')}${at(module.location)}`,
  );
  if (module.description !== undefined) lines.push(`  description ${JSON.stringify(module.description)}`);
  const parameters = Object.keys(module.parameters).sort();
  if (parameters.length > 0)
    lines.push(`  parameters ${parameters.map((key) => `${key}=${showValue(module.parameters[key])}`).join(' ')}`);
  for (const port of module.ports)
    lines.push(`  port ${port.direction} ${port.name}: ${port.width} = ${ref(port.net)}`);
  const cellDriven = new Set(module.cells.map((cell) => cell.output));
  for (const net of module.nets)
    if (!cellDriven.has(net.id))
      lines.push(`  net ${net.id} ${net.kind} ${ref(net.id)}: ${net.width}${at(net.location)}`);
  for (const cell of module.cells) {
    const net = module.nets[cell.output];
    const kind = net === undefined || net.kind === 'node' ? '' : `${net.kind} `;
    lines.push(
      `  cell ${cell.output} ${kind}${ref(cell.output)}: ${width(cell.output)} = ${showCell(cell, ref, module)}${at(cell.location)}`,
    );
  }
  for (const register of module.registers)
    lines.push(
      `  register ${ref(register.q)}: ${width(register.q)} <= ${ref(register.d)}` +
        `${register.resetValue === undefined ? '' : ` reset=${hex(register.resetValue)}`}` +
        `${register.domain === undefined ? '' : ` domain=${register.domain}`}${at(register.location)}`,
    );
  for (const memory of module.memories) {
    const init =
      memory.init === undefined
        ? ''
        : ` init=${memory.init.slice(0, 8).map(hex).join(',')}${memory.init.length > 8 ? ',…' : ''}`;
    const domain = memory.domain === undefined ? '' : ` domain=${memory.domain}`;
    lines.push(`  memory ${memory.name}: ${memory.depth} x ${memory.width}${init}${domain}${at(memory.location)}`);
    for (const port of memory.writePorts) {
      const mask = port.mask === undefined ? '' : ` mask ${ref(port.mask)}/${memory.granularity ?? 1}`;
      lines.push(
        `    write ${memory.name}[${ref(port.address)}] <= ${ref(port.data)} when ${ref(port.enable)}${mask}${at(port.location)}`,
      );
    }
  }
  for (const check of module.checks ?? [])
    lines.push(
      `  ${check.kind} ${ref(check.condition)} ${JSON.stringify(check.message)}` +
        `${check.reads.length === 0 ? '' : ` reads ${check.reads.map(ref).join(', ')}`}${at(check.location)}`,
    );
  for (const print of module.prints ?? [])
    lines.push(
      `  printf ${ref(print.condition)} ${JSON.stringify(printFormatText(print.format))}` +
        `${print.args.map((net) => `, ${ref(net)}`).join('')}${at(print.location)}`,
    );
  for (const instance of module.instances) {
    lines.push(`  instance ${instance.name}: ${instance.module}${at(instance.location)}`);
    for (const [port, net] of sortedEntries(instance.inputs)) lines.push(`    input ${port} <- ${ref(net)}`);
    for (const [port, net] of sortedEntries(instance.outputs)) lines.push(`    output ${port} -> ${ref(net)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A whole design as text: `design <top>`, then every module (children first, as stored), blank-line separated. */
export function printDesign(design: IrDesign, options: PrintOptions = {}): string {
  return [`design ${design.top}\n`, ...design.modules.map((module) => printModule(module, options))].join('\n');
}

function showCell(cell: IrCell, ref: (id: number) => string, module: IrModule): string {
  const args = cell.inputs.map(ref);
  switch (cell.op) {
    case 'const':
      return `const ${cell.constant === undefined ? '?' : hex(cell.constant)}`;
    case 'slice':
      return `slice ${args[0]} [${cell.hi}:${cell.lo}]`;
    case 'memread':
      return `memread ${module.memories[cell.memory!]?.name ?? `?${cell.memory}`}[${args[0]}]`;
    default:
      return `${cell.op} ${args.join(', ')}`;
  }
}

const hex = (value: bigint): string => `0x${value.toString(16)}`;

function showValue(value: unknown): string {
  if (typeof value === 'bigint') return hex(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? String(value);
}

function sortedEntries(map: ReadonlyMap<string, number>): [string, number][] {
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
