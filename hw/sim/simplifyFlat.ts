import { FlatCells, type FlatDesign } from './flatten.ts';

/**
 * Netlist clean-ups that only pay off once the hierarchy is gone, applied before code generation:
 * - a slice of a slice (through same-width buffers) slices the source directly, so trees that take
 *   a value apart bit by bit (leading-zero counters, multiplexer selects) read the source once;
 * - cells whose value nobody can observe are dropped: observable are named nets (ports, wires,
 *   registers: peek and trace), register and memory-port inputs, and the inputs of observable cells.
 * Net ids are unchanged, so names, ports and storage all keep meaning the same nets.
 */
export function simplifyFlat(design: FlatDesign): FlatDesign {
  const { nets, cells } = design;
  const { widths } = nets;
  const driver = new Int32Array(nets.length).fill(-1);
  for (let cell = 0; cell < cells.length; cell++) driver[cells.output(cell)] = cell;
  const sameWidthBuffer = (cell: number): boolean =>
    cells.op(cell) === 'buf' && widths[cells.output(cell)] === widths[cells.input(cell, 0)];

  // Per slice, the net it reads once slices of slices are collapsed, and its new low bit.
  const sliceSource = new Int32Array(cells.length).fill(-1);
  const sliceLow = new Int32Array(cells.length);
  for (let cell = 0; cell < cells.length; cell++) {
    if (cells.op(cell) !== 'slice') continue;
    let source = cells.input(cell, 0);
    let lo = cells.los[cell]!;
    for (let at = driver[source]!; at >= 0; at = driver[source]!) {
      if (cells.op(at) === 'slice') lo += cells.los[at]!;
      else if (!sameWidthBuffer(at)) break;
      source = cells.input(at, 0);
    }
    sliceSource[cell] = source;
    sliceLow[cell] = lo;
  }
  const inputOf = (cell: number, position: number): number =>
    sliceSource[cell]! >= 0 ? sliceSource[cell]! : cells.input(cell, position);

  const observed = new Uint8Array(nets.length);
  const work: number[] = [];
  const observe = (net: number): void => {
    if (observed[net]) return;
    observed[net] = 1;
    work.push(net);
  };
  for (let net = 0; net < nets.length; net++) if (nets.namedFlags[net]) observe(net);
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
  for (const print of design.prints ?? [])
    [print.condition, print.reset, ...print.args.map(({ net }) => net)].forEach(observe);
  while (work.length > 0) {
    const at = driver[work.pop()!]!;
    if (at >= 0) for (let position = 0; position < cells.inputCount(at); position++) observe(inputOf(at, position));
  }

  let keptCells = 0;
  let keptInputs = 0;
  for (let cell = 0; cell < cells.length; cell++)
    if (observed[cells.output(cell)]) {
      keptCells++;
      keptInputs += cells.inputCount(cell);
    }
  const kept = new FlatCells(keptCells, keptInputs);
  for (let cell = 0; cell < cells.length; cell++) {
    if (!observed[cells.output(cell)]) continue;
    if (sliceSource[cell]! < 0) {
      kept.copy(cells, cell);
      continue;
    }
    const lo = sliceLow[cell]!;
    kept.add(
      'slice',
      cells.output(cell),
      [sliceSource[cell]!],
      0,
      undefined,
      lo + cells.his[cell]! - cells.los[cell]!,
      lo,
    );
  }
  return { ...design, cells: kept };
}
