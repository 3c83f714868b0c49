import type { IrCell } from './ir.ts';
import { AdjacencyBuilder } from './adjacency.ts';

/**
 * Cells ordered so that every cell comes after the cells that drive its inputs (Kahn's algorithm,
 * iterative). Nets driven by something other than a cell (ports, registers, instances) are sources.
 * Throws if the cells contain a cycle; the loop check reports those to the user first.
 */
export function orderCells(netCount: number, cells: readonly Pick<IrCell, 'output' | 'inputs'>[]): number[] {
  const driver = new Int32Array(netCount).fill(-1);
  cells.forEach((cell, index) => (driver[cell.output] = index));
  const waiting = new Uint32Array(cells.length);
  const edges = new AdjacencyBuilder(cells.length, 2 * cells.length);
  cells.forEach((cell, index) => {
    for (const input of cell.inputs) {
      const source = driver[input]!;
      if (source >= 0) {
        waiting[index]!++;
        edges.add(source, index);
      }
    }
  });
  const { start, targets } = edges.build();
  const order: number[] = [];
  for (let index = 0; index < cells.length; index++) if (waiting[index] === 0) order.push(index);
  for (let head = 0; head < order.length; head++)
    for (let edge = start[order[head]!]!; edge < start[order[head]! + 1]!; edge++)
      if (--waiting[targets[edge]!]! === 0) order.push(targets[edge]!);
  if (order.length !== cells.length) throw new Error('internal: combinational cycle among cells');
  return order;
}
