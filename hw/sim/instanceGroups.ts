import type { FlatDesign } from './flatten.ts';
import { groupedCellOrder } from './cellOrder.ts';

/**
 * Instances whose cells the simulator evaluates through one generated function per distinct body
 * (codegen.ts): the MmaUnit's 256 FP units are 2 functions of a few KB instead of 1.4 MB of
 * straight-line copies, so the settle code stays in the instruction cache and V8 optimizes each
 * after a handful of cycles instead of thousands.
 */
export interface InstanceGroups {
  /** cell → its group, -1 for cells evaluated inline in the settle chunks. */
  readonly groupOf: Int32Array;
  /** Per group: its instance's nets, `[netLow, netHigh)` (an instance's subtree is one range). */
  readonly netLow: Int32Array;
  readonly netHigh: Int32Array;
  /** Per group: its instance (index in `nets.instances`). */
  readonly instance: Int32Array;
}

/**
 * Bounds of a group's cells: below the lower bound a call costs more than it saves; above the
 * upper one the function's bytecode nears V8's optimizing limit (the FP units, 228–298 cells,
 * are well inside; a TensorLane, 2,161, is not taken).
 */
export const GROUP_CELLS = { min: 24, max: 1000 } as const;

/**
 * The instances to group: the outermost ones of a module instantiated at least twice whose
 * subtree holds GROUP_CELLS cells; a cell belongs to the instance whose nets hold its output
 * (the port buffers into an instance are the instance's, those out of it its parent's).
 * `excluded` instances (by index in `nets.instances`) are not taken, their children may be.
 */
export function chooseInstanceGroups(design: FlatDesign, excluded: ReadonlySet<number> = new Set()): InstanceGroups {
  const { nets, cells } = design;
  const { instances } = nets;
  const instanceOfNet = new Int32Array(nets.length);
  instances.forEach((instance, index) =>
    instanceOfNet.fill(index, instance.base, instance.base + instance.module.nets.length),
  );
  const ownCells = new Int32Array(instances.length);
  for (let cell = 0; cell < cells.length; cell++) ownCells[instanceOfNet[cells.output(cell)]!]!++;
  const uses = new Map<string, number>();
  for (const instance of instances) uses.set(instance.module.name, (uses.get(instance.module.name) ?? 0) + 1);
  // Instances are in depth-first preorder: a subtree is the run of deeper scopes after its root.
  const subtreeEnd = new Int32Array(instances.length);
  const subtreeCells = new Int32Array(instances.length);
  for (let index = instances.length - 1; index >= 0; index--) {
    let end = index + 1;
    let total = ownCells[index]!;
    while (end < instances.length && instances[end]!.scope.length > instances[index]!.scope.length) {
      total += subtreeCells[end]!;
      end = subtreeEnd[end]!;
    }
    subtreeEnd[index] = end;
    subtreeCells[index] = total;
  }
  const low: number[] = [];
  const high: number[] = [];
  const roots: number[] = [];
  const groupOfInstance = new Int32Array(instances.length).fill(-1);
  for (let index = 1; index < instances.length;) {
    const instance = instances[index]!;
    const size = subtreeCells[index]!;
    if (
      !excluded.has(index) &&
      uses.get(instance.module.name)! >= 2 &&
      size >= GROUP_CELLS.min &&
      size <= GROUP_CELLS.max
    ) {
      const end = subtreeEnd[index]!;
      groupOfInstance.fill(low.length, index, end);
      roots.push(index);
      low.push(instance.base);
      high.push(end < instances.length ? instances[end]!.base : nets.length);
      index = end;
    } else index++;
  }
  const groupOf = new Int32Array(cells.length);
  for (let cell = 0; cell < cells.length; cell++) groupOf[cell] = groupOfInstance[instanceOfNet[cells.output(cell)]!]!;
  return { groupOf, netLow: Int32Array.from(low), netHigh: Int32Array.from(high), instance: Int32Array.from(roots) };
}

/**
 * The cell order code generation follows, and the groups in it: `chooseInstanceGroups`, less every
 * group a combinational path leaves and re-enters (its instance is then evaluated cell by cell,
 * and its children may be groups instead: a round per level of the hierarchy at most).
 */
export function groupedOrder(design: FlatDesign): { order: number[]; groups: InstanceGroups } {
  const excluded = new Set<number>();
  for (;;) {
    const groups = chooseInstanceGroups(design, excluded);
    const result = groupedCellOrder(design.nets.length, design.cells, groups.groupOf, groups.netLow.length);
    if ('order' in result) return { order: result.order, groups };
    for (const group of result.cyclic) excluded.add(groups.instance[group]!);
  }
}
