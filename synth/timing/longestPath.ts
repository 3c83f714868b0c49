import { cellIndex, requireCell } from '../area.ts';
import type { MappedDesign } from '../mapToCells.ts';
import { moduleOf, splitCells } from '../netlist.ts';

/** The worst register-to-register / input-to-output path, ps. */
export interface PathDelay {
  /** Arrival at the endpoint plus the flop's setup time if it ends at a flip-flop. */
  readonly delayPs: number;
  /** Cells along the path from start to end (flat names). */
  readonly cells: readonly string[];
}

/**
 * Static longest path over the flat netlist with the library's scalar delays: paths start at
 * top inputs (arrival 0) or flip-flop outputs (clock-to-Q) and end at top outputs or flip-flop
 * data pins (+ setup). With `cells`, only paths inside that block count: nets driven from
 * outside it start at 0. The fallback when OpenSTA is unavailable, and the per-block estimate.
 */
export function longestPath(mapped: MappedDesign, cells?: ReadonlySet<string>): PathDelay {
  const top = moduleOf(mapped.flat, mapped.gateTop);
  const specs = cellIndex(mapped.library);
  const inside = (name: string): boolean => !cells || cells.has(name);
  const driver = new Map<number, { cell: string; delayPs: number }>();
  // Composed instances (blackboxes) cut paths like flip-flops: their outputs start at 0.
  for (const [name, cell] of splitCells(mapped.flat, top).leaves) {
    if (!inside(name)) continue;
    for (const pin of requireCell(specs, cell.type, name).outputs) {
      const bit = cell.connections[pin.name]?.[0];
      if (typeof bit === 'number') driver.set(bit, { cell: name, delayPs: pin.delayPs });
    }
  }
  // Arrival at each net, memoized; flip-flops cut the graph, so a combinational loop is a bug upstream.
  const arrival = new Map<number, { ps: number; from?: number }>();
  const visiting = new Set<number>();
  const arrive = (bit: number): number => {
    const known = arrival.get(bit);
    if (known) return known.ps;
    const source = driver.get(bit);
    if (!source) {
      arrival.set(bit, { ps: 0 });
      return 0;
    }
    const cell = top.cells[source.cell];
    const spec = cell ? specs.get(cell.type) : undefined;
    if (!cell || !spec || spec.flipFlop) {
      arrival.set(bit, { ps: source.delayPs });
      return source.delayPs;
    }
    if (visiting.has(bit)) throw new Error(`combinational loop through ${source.cell}`);
    visiting.add(bit);
    let worst = 0;
    let from: number | undefined;
    for (const pin of spec.inputs) {
      const input = cell.connections[pin.name]?.[0];
      if (typeof input !== 'number') continue;
      const ps = arrive(input);
      if (ps >= worst) [worst, from] = [ps, input];
    }
    visiting.delete(bit);
    arrival.set(bit, from === undefined ? { ps: worst + source.delayPs } : { ps: worst + source.delayPs, from });
    return worst + source.delayPs;
  };
  const endpoints: { bit: number; extraPs: number }[] = [];
  for (const [name, cell] of Object.entries(top.cells)) {
    const spec = specs.get(cell.type);
    const bit = spec?.flipFlop ? cell.connections[spec.flipFlop.data]?.[0] : undefined;
    if (inside(name) && spec?.flipFlop && typeof bit === 'number')
      endpoints.push({ bit, extraPs: spec.flipFlop.setupPs });
  }
  for (const port of Object.values(top.ports)) {
    if (port.direction !== 'output') continue;
    for (const bit of port.bits) if (typeof bit === 'number' && driver.has(bit)) endpoints.push({ bit, extraPs: 0 });
  }
  // A block's outputs are the nets its cells drive that something outside reads; a composed
  // instance is outside whatever the block, so its inputs end paths like a top output.
  for (const [name, cell] of Object.entries(top.cells)) {
    if (inside(name) && specs.has(cell.type)) continue;
    for (const bits of Object.values(cell.connections))
      for (const bit of bits) if (typeof bit === 'number' && driver.has(bit)) endpoints.push({ bit, extraPs: 0 });
  }
  let best = { delayPs: 0, bit: undefined as number | undefined };
  for (const { bit, extraPs } of endpoints) {
    const delayPs = arrive(bit) + extraPs;
    if (delayPs > best.delayPs) best = { delayPs, bit };
  }
  const path: string[] = [];
  for (let bit = best.bit; bit !== undefined; bit = arrival.get(bit)?.from) {
    const source = driver.get(bit);
    if (source) path.unshift(source.cell);
  }
  return { delayPs: best.delayPs, cells: path };
}
