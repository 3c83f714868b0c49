import { cellIndex, requireCell, type AreaReport, type CellTypeUsage } from './area.ts';
import type { CellLibrary } from './library/cellTypes.ts';
import { instanceTree, moduleOf, splitCells, type Netlist } from './netlist.ts';

/** One module of a hierarchy: how often it is instantiated below the top, and what one instance costs. */
export interface ModuleArea {
  readonly module: string;
  /** Instances in the whole tree (1 for the top). */
  readonly instances: number;
  /** One instance with everything below it. */
  readonly perInstance: AreaReport;
}

const byName = ([a]: [string, unknown], [b]: [string, unknown]): number => (a < b ? -1 : a > b ? 1 : 0);

/** `report` times `count`: what `count` identical instances cost. */
export function scaleArea(report: AreaReport, count: number): AreaReport {
  return {
    cells: report.cells * count,
    area: report.area * count,
    sequentialArea: report.sequentialArea * count,
    byType: report.byType.map((entry): CellTypeUsage => ({
      type: entry.type,
      count: entry.count * count,
      area: entry.area * count,
    })),
  };
}

/**
 * Area of a hierarchical netlist without flattening it: each unique module is costed once (its
 * own library cells plus its submodule instances' costs) and multiplied by how often the tree
 * instantiates it — what Yosys `stat -liberty -top` does. Modules in first-appearance order, top first.
 */
export function hierarchicalArea(netlist: Netlist, top: string, library: CellLibrary): ModuleArea[] {
  const specs = cellIndex(library);
  const usage = new Map<string, Map<string, number>>();
  // Cell-type counts of one instance, submodules included; the hierarchy is a DAG, so memoize.
  const countsOf = (module: string): Map<string, number> => {
    const known = usage.get(module);
    if (known) return known;
    const counts = new Map<string, number>();
    const { leaves, instances } = splitCells(netlist, moduleOf(netlist, module));
    for (const [name, cell] of leaves) {
      requireCell(specs, cell.type, `${module}.${name}`);
      counts.set(cell.type, (counts.get(cell.type) ?? 0) + 1);
    }
    for (const [, cell] of instances)
      for (const [type, count] of countsOf(cell.type)) counts.set(type, (counts.get(type) ?? 0) + count);
    usage.set(module, counts);
    return counts;
  };
  const instances = new Map<string, number>();
  for (const instance of instanceTree(netlist, top))
    instances.set(instance.module, (instances.get(instance.module) ?? 0) + 1);
  return [...instances].map(([module, count]) => {
    const byType = [...countsOf(module)]
      .sort(byName)
      .map(([type, cells]): CellTypeUsage => ({ type, count: cells, area: cells * (specs.get(type)?.area ?? 0) }));
    const sequentialArea = byType.reduce((sum, entry) => sum + (specs.get(entry.type)?.flipFlop ? entry.area : 0), 0);
    return {
      module,
      instances: count,
      perInstance: {
        cells: byType.reduce((sum, entry) => sum + entry.count, 0),
        area: byType.reduce((sum, entry) => sum + entry.area, 0),
        sequentialArea,
        byType,
      },
    };
  });
}
