import type { FlatCell, FlatDesign } from './flatten.ts';

/**
 * Netlist clean-ups that only pay off once the hierarchy is gone, applied before code generation:
 * - a slice of a slice (through same-width buffers) slices the source directly, so trees that take
 *   a value apart bit by bit (leading-zero counters, multiplexer selects) read the source once;
 * - cells whose value nobody can observe are dropped: observable are named nets (ports, wires,
 *   registers: peek and trace), register and memory-port inputs, and the inputs of observable cells.
 * Net ids are unchanged, so names, ports and storage all keep meaning the same nets.
 */
export function simplifyFlat(design: FlatDesign): FlatDesign {
  const { nets } = design;
  const driver = new Int32Array(nets.length).fill(-1);
  design.cells.forEach((cell, index) => (driver[cell.output] = index));
  const sameWidthBuffer = (cell: FlatCell): boolean =>
    cell.op === 'buf' && nets[cell.output]!.width === nets[cell.inputs[0]!]!.width;

  const cells = design.cells.map((cell) => {
    if (cell.op !== 'slice') return cell;
    let source = cell.inputs[0]!;
    let lo = cell.lo!;
    for (let at = driver[source]!; at >= 0; at = driver[source]!) {
      const inner = design.cells[at]!;
      if (inner.op === 'slice') lo += inner.lo!;
      else if (!sameWidthBuffer(inner)) break;
      source = inner.inputs[0]!;
    }
    return source === cell.inputs[0] ? cell : { ...cell, inputs: [source], hi: lo + cell.hi! - cell.lo!, lo };
  });

  const observed = new Uint8Array(nets.length);
  const work: number[] = [];
  const observe = (net: number): void => {
    if (observed[net]) return;
    observed[net] = 1;
    work.push(net);
  };
  for (const net of nets) if (net.named) observe(net.id);
  for (const register of design.registers) {
    observe(register.d);
    if (register.reset >= 0) observe(register.reset);
  }
  for (const memory of design.memories)
    for (const port of memory.writePorts)
      [port.address, port.data, port.enable, ...(port.mask === undefined ? [] : [port.mask])].forEach(observe);
  for (const check of design.checks ?? []) {
    observe(check.condition);
    if (check.reset >= 0) observe(check.reset);
  }
  while (work.length > 0) {
    const at = driver[work.pop()!]!;
    if (at >= 0) cells[at]!.inputs.forEach(observe);
  }
  return { ...design, cells: cells.filter((cell) => observed[cell.output]) };
}
