import { instanceTree, leafCellOwners } from './netlist.ts';
import type { MappedDesign } from './mapToCells.ts';

/**
 * A reported block: one module of the user's hierarchy with all its instances, and every flat
 * leaf cell inside any of them (submodules included — the row is what the block costs).
 */
export interface Component {
  readonly module: string;
  /** `lane(W=16)` for Yosys's `$paramod\lane\W=s32'…10000`; the module name otherwise. */
  readonly displayName: string;
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
  return order.map((module) => ({
    module,
    displayName: displayModuleName(module),
    instances: counts.get(module) ?? 0,
    cells: cells.get(module) ?? new Set(),
  }));
}

/** A Yosys constant `s32'00…010000` / `8'b…` in decimal when it is plain binary; otherwise as written. */
function parameterValue(text: string): string {
  const constant = /^s?\d+'([01]+)$/.exec(text);
  return constant?.[1] ? BigInt(`0b${constant[1]}`).toString() : text;
}

/**
 * A readable name for a module Yosys derived by parameter specialization: `$paramod\lane\W=s32'…`
 * becomes `lane(W=16)`, and the hashed form `$paramod$1f2e…\lane` (long parameter lists) `lane(…)`.
 */
export function displayModuleName(module: string): string {
  if (!module.startsWith('$paramod')) return module;
  const parts = module.split('\\');
  const base = parts[1] ?? module;
  if (module.startsWith('$paramod$')) return `${base}(…)`;
  const parameters = parts.slice(2).map((part) => {
    const [name, ...value] = part.split('=');
    return `${name}=${parameterValue(value.join('='))}`;
  });
  return `${base}(${parameters.join(', ')})`;
}
