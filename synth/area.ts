import { UserError } from '../common/errors.ts';
import type { CellLibrary, CellSpec } from './library/cellTypes.ts';
import type { NetlistModule } from './netlist.ts';
import { isSramMacro } from './sramMemories.ts';

/**
 * What the cell loops see for an SRAM macro: no area, leakage or pins of its own (its figures come
 * from the macro table, added by withSramMacros), so it loads and drives no net they cost.
 */
const SRAM_PLACEHOLDER: CellSpec = {
  name: '$mem_v2',
  area: 0,
  leakageNw: 0,
  inputs: [],
  outputs: [],
  note: 'SRAM macro: costed from the macro table (synth/sramMacro.ts)',
};

/** How many cells of one library type a block uses, and their area. */
export interface CellTypeUsage {
  readonly type: string;
  readonly count: number;
  /** µm² */
  readonly area: number;
}

export interface AreaReport {
  readonly cells: number;
  /** µm² */
  readonly area: number;
  /** µm² in flip-flops. */
  readonly sequentialArea: number;
  /** Sorted by type name. */
  readonly byType: readonly CellTypeUsage[];
}

/** Library cells by name; a netlist cell outside the library means mapping left something unmapped. */
export function cellIndex(library: CellLibrary): Map<string, CellSpec> {
  return new Map(library.cells.map((cell) => [cell.name, cell]));
}

/** The library cell of a netlist cell type, or a UserError saying what Yosys could not map. */
export function requireCell(cells: ReadonlyMap<string, CellSpec>, type: string, instance: string): CellSpec {
  if (isSramMacro(type)) return SRAM_PLACEHOLDER;
  const spec = cells.get(type);
  if (!spec) {
    throw new UserError(
      `cell ${instance} has type ${type}, which is not in the cell library (latches, tristates and memories are not supported by this flow)`,
    );
  }
  return spec;
}

/** Area of the flat cells `names` (all cells of `flat` when omitted): Σ library area per cell. */
export function areaOf(flat: NetlistModule, library: CellLibrary, names?: ReadonlySet<string>): AreaReport {
  const index = cellIndex(library);
  const usage = new Map<string, { count: number; area: number }>();
  let sequentialArea = 0;
  let cells = 0;
  for (const [name, cell] of Object.entries(flat.cells)) {
    if (names && !names.has(name)) continue;
    const spec = requireCell(index, cell.type, name);
    const entry = usage.get(cell.type) ?? { count: 0, area: 0 };
    entry.count += 1;
    entry.area += spec.area;
    usage.set(cell.type, entry);
    if (spec.flipFlop) sequentialArea += spec.area;
    cells += 1;
  }
  const byType = [...usage.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([type, entry]) => ({ type, ...entry }));
  return { cells, area: byType.reduce((sum, entry) => sum + entry.area, 0), sequentialArea, byType };
}
