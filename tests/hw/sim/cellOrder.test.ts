import { describe, expect, it } from 'vitest';
import { groupedCellOrder } from '../../../hw/sim/cellOrder.ts';
import { FlatCells } from '../../../hw/sim/flatNetlist.ts';

const bufs = (cells: readonly { output: number; inputs: number[] }[]): FlatCells =>
  FlatCells.of(cells.map((cell) => ({ op: 'buf', ...cell })));

/** The order of cells in no group. */
const depthFirstCellOrder = (netCount: number, cells: FlatCells): number[] => {
  const result = groupedCellOrder(netCount, cells, new Int32Array(cells.length).fill(-1), 0);
  if (!('order' in result)) throw new Error('cells in no group cannot be cyclic groups');
  return result.order;
};

describe('groupedCellOrder without groups', () => {
  it('puts every cell after its drivers and keeps each chain together', () => {
    // Two independent chains listed interleaved and consumers first: 0←2←4 (nets 10→12→14) and 1←3←5.
    const cells = [
      { output: 20, inputs: [12] }, // 0 reads the output of 2
      { output: 21, inputs: [13] }, // 1 reads the output of 3
      { output: 12, inputs: [14] }, // 2 reads the output of 4
      { output: 13, inputs: [15] }, // 3 reads the output of 5
      { output: 14, inputs: [30] }, // 4 reads a source net
      { output: 15, inputs: [31] }, // 5 reads a source net
    ];
    const order = depthFirstCellOrder(32, bufs(cells));
    expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(order).toEqual([4, 2, 0, 5, 3, 1]);
  });

  it('rejects a combinational cycle', () => {
    expect(() =>
      depthFirstCellOrder(
        4,
        bufs([
          { output: 1, inputs: [2] },
          { output: 2, inputs: [1] },
        ]),
      ),
    ).toThrow(/cycle/);
  });
});
