import type { IrCell } from './ir.ts';

/**
 * Cells ordered so that every cell comes after the cells that drive its inputs (Kahn's algorithm,
 * iterative). Nets driven by something other than a cell (ports, registers, instances) are sources.
 * Throws if the cells contain a cycle; the loop check reports those to the user first.
 */
export function orderCells(netCount: number, cells: readonly Pick<IrCell, 'output' | 'inputs'>[]): number[] {
  const driver = new Int32Array(netCount).fill(-1);
  cells.forEach((cell, index) => (driver[cell.output] = index));
  const waiting = new Uint32Array(cells.length);
  const readers: number[][] = cells.map(() => []);
  cells.forEach((cell, index) => {
    for (const input of cell.inputs) {
      const source = driver[input]!;
      if (source >= 0) {
        waiting[index]!++;
        readers[source]!.push(index);
      }
    }
  });
  const order: number[] = [];
  for (let index = 0; index < cells.length; index++) if (waiting[index] === 0) order.push(index);
  for (let head = 0; head < order.length; head++)
    for (const reader of readers[order[head]!]!) if (--waiting[reader]! === 0) order.push(reader);
  if (order.length !== cells.length) throw new Error('internal: combinational cycle among cells');
  return order;
}
