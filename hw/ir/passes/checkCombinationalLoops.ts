import { CombinationalLoopError } from '../../core/errors.ts';
import { formatLocation } from '../../core/sourceLocation.ts';
import type { IrModule } from '../ir.ts';
import { AdjacencyBuilder, reverseAdjacency, type Adjacency } from '../adjacency.ts';
import type { CombinationalPaths, PassContext } from './pass.ts';

/**
 * The combinational output→input dependencies of a module (what its instances contribute to their
 * parent's loop check); its children's come from the context.
 */
export function combinationalPathsOf(module: IrModule, context: PassContext): CombinationalPaths {
  return summarize(module, reverseAdjacency(combinationalEdges(module, context).build()));
}

/** Forward edges over nets: which nets each net feeds without passing a register. */
function combinationalEdges(module: IrModule, context: PassContext): AdjacencyBuilder {
  const edges = new AdjacencyBuilder(module.nets.length, 2 * module.cells.length);
  for (const cell of module.cells) {
    if (cell.op === 'memread') edges.add(cell.inputs[0]!, cell.output);
    else for (const input of cell.inputs) edges.add(input, cell.output);
  }
  for (const instance of module.instances) {
    const paths = context.combinationalPaths(instance.module);
    for (const [outputPort, inputPorts] of paths) {
      const outputNet = instance.outputs.get(outputPort);
      if (outputNet === undefined) continue;
      for (const inputPort of inputPorts) {
        const inputNet = instance.inputs.get(inputPort);
        if (inputNet !== undefined) edges.add(inputNet, outputNet);
      }
    }
  }
  return edges;
}

/**
 * Finds combinational cycles (iterative DFS, so huge designs do not overflow the stack) and
 * reports the loop's signals with their source lines, as Amaranth does.
 */
export function checkCombinationalLoops(module: IrModule, context: PassContext): void {
  const { start: first, targets } = combinationalEdges(module, context).build();
  const state = new Uint8Array(module.nets.length); // 0 unvisited, 1 on the DFS path, 2 done
  const stack: number[] = [];
  const nextEdge: number[] = [];
  for (let start = 0; start < module.nets.length; start++) {
    if (state[start] !== 0) continue;
    stack.push(start);
    nextEdge.push(0);
    state[start] = 1;
    while (stack.length > 0) {
      const top = stack.length - 1;
      const net = stack[top]!;
      const index = nextEdge[top]!;
      if (first[net]! + index >= first[net + 1]!) {
        state[net] = 2;
        stack.pop();
        nextEdge.pop();
        continue;
      }
      nextEdge[top] = index + 1;
      const successor = targets[first[net]! + index]!;
      if (state[successor] === 1) reportLoop(module, stack.slice(stack.indexOf(successor)));
      if (state[successor] === 0) {
        state[successor] = 1;
        stack.push(successor);
        nextEdge.push(0);
      }
    }
  }
}

/**
 * The loop's named signals, each at the assignment that drives it (the `set` that closes the loop,
 * not the `m.wire` declaration; a signal driven by an instance output keeps its declaration).
 */
function reportLoop(module: IrModule, loop: number[]): never {
  const nets = loop.map((id) => module.nets[id]!);
  const named = nets.filter((net) => net.kind !== 'node');
  const shown = named.length > 0 ? named : nets;
  const drivenAt = new Map(module.cells.map((cell) => [cell.output, cell.location]));
  const path = shown.map((net) => ({ name: net.name, location: drivenAt.get(net.id) ?? net.location }));
  const text = [...path, path[0]!].map((step) => `${step.name} (${formatLocation(step.location)})`).join(' -> ');
  const declared = shown.map((net) => `${net.name} at ${formatLocation(net.location)}`).join(', ');
  throw new CombinationalLoopError(
    path[0]!.location,
    `combinational loop in ${module.name}: ${text} (assignments; declared: ${declared})`,
    path,
  );
}

/** Per output port, the input ports it reaches backwards over `reverse` (predecessor edges). */
function summarize(module: IrModule, reverse: Adjacency): Map<string, Set<string>> {
  const { start, targets } = reverse;
  const inputPortOfNet = new Map(
    module.ports.filter((port) => port.direction === 'input').map((port) => [port.net, port.name]),
  );
  const summary = new Map<string, Set<string>>();
  for (const port of module.ports) {
    if (port.direction !== 'output') continue;
    const reached = new Set<string>();
    const seen = new Uint8Array(module.nets.length);
    const work = [port.net];
    seen[port.net] = 1;
    while (work.length > 0) {
      const net = work.pop()!;
      const inputName = inputPortOfNet.get(net);
      if (inputName !== undefined) reached.add(inputName);
      for (let edge = start[net]!; edge < start[net + 1]!; edge++) {
        const predecessor = targets[edge]!;
        if (seen[predecessor]) continue;
        seen[predecessor] = 1;
        work.push(predecessor);
      }
    }
    summary.set(port.name, reached);
  }
  return summary;
}
