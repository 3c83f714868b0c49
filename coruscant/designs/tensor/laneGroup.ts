/**
 * Ports shared by every level of the lane hierarchy above the TensorLane (ThreadGroup, Octet,
 * TensorCore): all lanes of an MMA step together, so `enable` and `loadC` are shared, while each
 * lane has its own operands, C element and accumulator.
 */
import { input, output, vec, type IoOf } from '../../../api/index.ts';
import { DOT_WIDTH } from './dotProduct4.ts';

/** The port tree of a group of `lanes` lanes. */
export function laneGroupPorts(lanes: number) {
  return {
    enable: input<number>(1, 'accumulate this K chunk in every lane'),
    loadC: input<number>(1, 'every lane starts from its c instead of its accumulator'),
    lane: vec(lanes, {
      a: vec(DOT_WIDTH, input<number>(16, 'FP16 A operand k of this chunk')),
      b: vec(DOT_WIDTH, input<number>(16, 'FP16 B operand k of this chunk')),
      c: input<number>(32, 'FP32 C element, used with loadC'),
      acc: output<number>(32, 'FP32 accumulator'),
    }),
  };
}

export type LaneGroupIo = IoOf<ReturnType<typeof laneGroupPorts>>;
/** One lane's signals inside a group's io. */
export type LaneIo = LaneGroupIo['lane'][number];

/** Wires a child's lane (inputs from the parent lane, accumulator back out). */
export function connectLane(
  child: { a: LaneIo['a']; b: LaneIo['b']; c: LaneIo['c']; acc: LaneIo['acc'] },
  parent: LaneIo,
): void {
  child.a.forEach((a, k) => a.set(parent.a[k]!));
  child.b.forEach((b, k) => b.set(parent.b[k]!));
  child.c.set(parent.c);
  parent.acc.set(child.acc);
}

/** Wires the parent's lanes to `children` groups of equal size, in order, sharing the controls. */
export function connectSubgroups(parent: LaneGroupIo, children: readonly LaneGroupIo[]): void {
  const perChild = parent.lane.length / children.length;
  children.forEach((child, index) => {
    child.enable.set(parent.enable);
    child.loadC.set(parent.loadC);
    child.lane.forEach((lane, offset) => connectLane(lane, parent.lane[index * perChild + offset]!));
  });
}
