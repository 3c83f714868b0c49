import type { FlatCells } from './flatNetlist.ts';

/**
 * Cells in a depth-first topological order: each cell comes right after the cells computing its
 * inputs, as far as fanout allows. Compared with a level-by-level order this keeps producers next
 * to their consumers, so most intermediates are read within the settle chunk that computes them
 * and can live in locals instead of the state array. Iterative, so deep chains are fine.
 *
 * Each group's cells (`groupOf[cell]`, -1: none) are kept together: a group
 * is one node whose inputs are everything its cells read from outside it, and its cells follow in
 * an order of their own (depth-first from the group's lowest cell index), so two instances of one
 * module list their cells alike. A group that a combinational path leaves and re-enters cannot be
 * one node: then the answer is every such group (the groups in a strongly connected component of
 * the graph of nodes, Tarjan's algorithm), to be evaluated cell by cell instead.
 */
export function groupedCellOrder(
  netCount: number,
  cells: FlatCells,
  groupOf: Int32Array,
  groupCount: number,
): { order: number[] } | { cyclic: number[] } {
  const driver = new Int32Array(netCount).fill(-1);
  for (let cell = 0; cell < cells.length; cell++) driver[cells.output(cell)] = cell;
  const { inputStart, inputNets } = cells;
  const members: number[][] = Array.from({ length: groupCount }, () => []);
  for (let cell = 0; cell < cells.length; cell++) if (groupOf[cell]! >= 0) members[groupOf[cell]!]!.push(cell);
  // Per group: its cells in their own depth-first order, and the cells outside it that they read.
  const inner: number[][] = [];
  const outside: number[][] = [];
  const seen = new Uint8Array(cells.length);
  const innerCursor = new Int32Array(cells.length);
  for (let group = 0; group < groupCount; group++) {
    const order: number[] = [];
    const reads: number[] = [];
    for (const start of members[group]!) {
      if (seen[start]) continue;
      const stack = [start];
      seen[start] = 1;
      innerCursor[start] = inputStart[start]!;
      while (stack.length > 0) {
        const cell = stack[stack.length - 1]!;
        let next = -1;
        while (innerCursor[cell]! < inputStart[cell + 1]! && next < 0) {
          const source = driver[inputNets[innerCursor[cell]!++]!]!;
          if (source < 0) continue;
          if (groupOf[source] !== group) reads.push(source);
          else if (!seen[source]) next = source;
        }
        if (next >= 0) {
          seen[next] = 1;
          innerCursor[next] = inputStart[next]!;
          stack.push(next);
        } else {
          order.push(cell);
          stack.pop();
        }
      }
    }
    inner.push(order);
    outside.push(reads);
  }
  const groupNode = (cell: number): number => (groupOf[cell]! >= 0 ? cells.length + groupOf[cell]! : cell);
  const DONE = 2;
  const ACTIVE = 1;
  const state = new Uint8Array(cells.length + groupCount);
  const cursor = new Int32Array(cells.length + groupCount);
  const stack: number[] = [];
  const order: number[] = [];
  // The node's next input driver, or -1 when it has none left.
  const nextSource = (node: number): number => {
    if (node >= cells.length) {
      const reads = outside[node - cells.length]!;
      return cursor[node]! < reads.length ? reads[cursor[node]!++]! : -1;
    }
    while (cursor[node]! < inputStart[node + 1]! - inputStart[node]!) {
      const source = driver[inputNets[inputStart[node]! + cursor[node]!++]!]!;
      if (source >= 0) return source;
    }
    return -1;
  };
  for (let start = 0; start < cells.length; start++) {
    const root = groupNode(start);
    if (state[root] === DONE) continue;
    stack.push(root);
    state[root] = ACTIVE;
    while (stack.length > 0) {
      const node = stack[stack.length - 1]!;
      let next = -1;
      while (next < 0) {
        const source = nextSource(node);
        if (source < 0) break;
        const sourceNode = groupNode(source);
        if (state[sourceNode] === DONE) continue;
        if (state[sourceNode] === ACTIVE) {
          cursor.fill(0);
          const cyclic = groupsOnCycles(cells.length + groupCount, cells.length, nextSource, groupNode);
          // A cycle through no group is a combinational loop, which elaboration refuses before this.
          if (cyclic.length === 0) throw new Error('internal: combinational cycle among cells');
          return { cyclic };
        }
        next = sourceNode;
      }
      if (next >= 0) {
        state[next] = ACTIVE;
        stack.push(next);
      } else {
        state[node] = DONE;
        if (node >= cells.length) for (const cell of inner[node - cells.length]!) order.push(cell);
        else order.push(node);
        stack.pop();
      }
    }
  }
  return { order };
}

/**
 * The groups (nodes from `firstGroup` on) in a strongly connected component of more than one node:
 * Tarjan's algorithm, iterative, over the edges `nextSource` gives (from a fresh cursor per node).
 */
function groupsOnCycles(
  nodeCount: number,
  firstGroup: number,
  nextSource: (node: number) => number,
  nodeOf: (cell: number) => number,
): number[] {
  const index = new Int32Array(nodeCount).fill(-1);
  const low = new Int32Array(nodeCount);
  const onStack = new Uint8Array(nodeCount);
  const component: number[] = [];
  const calls: number[] = [];
  const cyclic: number[] = [];
  let counter = 0;
  const enter = (node: number): void => {
    index[node] = low[node] = counter++;
    component.push(node);
    onStack[node] = 1;
    calls.push(node);
  };
  for (let start = 0; start < firstGroup; start++) {
    const root = nodeOf(start);
    if (index[root]! >= 0) continue;
    enter(root);
    while (calls.length > 0) {
      const node = calls[calls.length - 1]!;
      const source = nextSource(node);
      if (source >= 0) {
        const next = nodeOf(source);
        if (index[next]! < 0) enter(next);
        else if (onStack[next]) low[node] = Math.min(low[node]!, index[next]!);
        continue;
      }
      calls.pop();
      if (calls.length > 0) {
        const caller = calls[calls.length - 1]!;
        low[caller] = Math.min(low[caller]!, low[node]!);
      }
      if (low[node] !== index[node]) continue;
      const members: number[] = [];
      for (let member = -1; member !== node;) {
        member = component.pop()!;
        onStack[member] = 0;
        members.push(member);
      }
      if (members.length > 1) for (const member of members) if (member >= firstGroup) cyclic.push(member - firstGroup);
    }
  }
  return cyclic.sort((a, b) => a - b);
}
