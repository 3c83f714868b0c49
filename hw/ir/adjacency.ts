/**
 * A directed graph over nodes 0..n-1 in compressed form: node k's successors are
 * `targets[start[k]]` up to `targets[start[k + 1]]`, in the order the edges were added. Two typed
 * arrays instead of an array per node: at 10^6 cells the per-node arrays of the passes and the
 * orderings were a few hundred megabytes of short-lived objects.
 */
export interface Adjacency {
  readonly start: Int32Array;
  readonly targets: Int32Array;
}

/** Collects edges in order, then packs them into an `Adjacency` (counting sort: the order per node is kept). */
export class AdjacencyBuilder {
  private from: Int32Array;
  private to: Int32Array;
  private count = 0;

  constructor(
    private readonly nodeCount: number,
    expectedEdges = nodeCount,
  ) {
    this.from = new Int32Array(Math.max(16, expectedEdges));
    this.to = new Int32Array(Math.max(16, expectedEdges));
  }

  add(from: number, to: number): void {
    if (this.count === this.from.length) {
      const grow = (old: Int32Array): Int32Array => {
        const next = new Int32Array(old.length * 2);
        next.set(old);
        return next;
      };
      this.from = grow(this.from);
      this.to = grow(this.to);
    }
    this.from[this.count] = from;
    this.to[this.count++] = to;
  }

  /** The graph. */
  build(): Adjacency {
    const start = new Int32Array(this.nodeCount + 1);
    for (let edge = 0; edge < this.count; edge++) start[this.from[edge]! + 1]!++;
    for (let node = 0; node < this.nodeCount; node++) start[node + 1]! += start[node]!;
    const fill = start.slice(0, this.nodeCount);
    const targets = new Int32Array(this.count);
    for (let edge = 0; edge < this.count; edge++) targets[fill[this.from[edge]!]!++] = this.to[edge]!;
    return { start, targets };
  }
}

/** Every edge turned around; each node's predecessors in ascending order of node, then of edge. */
export function reverseAdjacency({ start, targets }: Adjacency): Adjacency {
  const nodeCount = start.length - 1;
  const reversedStart = new Int32Array(nodeCount + 1);
  for (const target of targets) reversedStart[target + 1]!++;
  for (let node = 0; node < nodeCount; node++) reversedStart[node + 1]! += reversedStart[node]!;
  const fill = reversedStart.slice(0, nodeCount);
  const sources = new Int32Array(targets.length);
  for (let node = 0; node < nodeCount; node++)
    for (let edge = start[node]!; edge < start[node + 1]!; edge++) sources[fill[targets[edge]!]!++] = node;
  return { start: reversedStart, targets: sources };
}
