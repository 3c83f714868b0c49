import { instanceTree, leafCellOwners } from './netlist.ts';
import type { MappedDesign } from './mapToCells.ts';

/**
 * A reported block: one module of the user's hierarchy with all its instances, and every flat
 * leaf cell inside any of them (submodules included — the row is what the block costs).
 */
export interface Component {
  readonly module: string;
  readonly instances: number;
  /** Flat cell names (as in `MappedDesign.flat`). */
  readonly cells: ReadonlySet<string>;
}

/**
 * The design's blocks, top first, then each module in the order it first appears walking the
 * hierarchy depth first. The top's row holds every cell.
 */
export function componentsOf(mapped: MappedDesign): Component[] {
  const instances = instanceTree(mapped.hierarchical, mapped.top);
  const owners = leafCellOwners(mapped.hierarchical, instances);
  const order: string[] = [];
  const counts = new Map<string, number>();
  const cells = new Map<string, Set<string>>();
  for (const instance of instances) {
    if (!counts.has(instance.module)) {
      order.push(instance.module);
      cells.set(instance.module, new Set());
    }
    counts.set(instance.module, (counts.get(instance.module) ?? 0) + 1);
  }
  const moduleAt = new Map(instances.map((instance) => [instance.path.join('\u0000'), instance.module]));
  for (const [cell, owner] of owners) {
    // The cell belongs to its own instance and to every enclosing one.
    for (let depth = 0; depth <= owner.path.length; depth++) {
      const module = moduleAt.get(owner.path.slice(0, depth).join('\u0000'));
      if (module !== undefined) cells.get(module)?.add(cell);
    }
  }
  return order.map((module) => ({ module, instances: counts.get(module) ?? 0, cells: cells.get(module) ?? new Set() }));
}
