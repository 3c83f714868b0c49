import type { FlatCells } from './flatNetlist.ts';

/**
 * Cells in a depth-first topological order: each cell comes right after the cells computing its
 * inputs, as far as fanout allows. Compared with a level-by-level order this keeps producers next
 * to their consumers, so most intermediates are read within the settle chunk that computes them
 * and can live in locals instead of the state array. Iterative, so deep chains are fine.
 */
export function depthFirstCellOrder(netCount: number, cells: FlatCells): number[] {
  const driver = new Int32Array(netCount).fill(-1);
  for (let cell = 0; cell < cells.length; cell++) driver[cells.output(cell)] = cell;
  const { inputStart, inputNets } = cells;
  const DONE = 2;
  const ACTIVE = 1;
  const state = new Uint8Array(cells.length);
  const cursor = new Int32Array(cells.length);
  const stack: number[] = [];
  const order: number[] = [];
  for (let start = 0; start < cells.length; start++) {
    if (state[start] === DONE) continue;
    stack.push(start);
    state[start] = ACTIVE;
    while (stack.length > 0) {
      const cell = stack[stack.length - 1]!;
      const inputCount = inputStart[cell + 1]! - inputStart[cell]!;
      let next = -1;
      while (cursor[cell]! < inputCount && next < 0) {
        const source = driver[inputNets[inputStart[cell]! + cursor[cell]!]!]!;
        cursor[cell]!++;
        if (source < 0 || state[source] === DONE) continue;
        if (state[source] === ACTIVE) throw new Error('internal: combinational cycle among cells');
        next = source;
      }
      if (next >= 0) {
        state[next] = ACTIVE;
        stack.push(next);
      } else {
        state[cell] = DONE;
        order.push(cell);
        stack.pop();
      }
    }
  }
  return order;
}
