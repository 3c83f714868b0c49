import type { NetlistCell, NetlistModule } from './netlist.ts';
import type { AreaReport } from './area.ts';
import type { PowerReport } from './power.ts';
import type { ScalingFactors } from './scaling.ts';
import { isSramMacro } from './sramMemories.ts';

export {
  DEFAULT_SRAM_THRESHOLD_BITS,
  SRAM_MACRO_TYPE,
  isSramMacro,
  memoryDeclarations,
  macroMemories,
  type MemoryDeclaration,
} from './sramMemories.ts';

/*
 * SRAM macros: a memory of at least `thresholdBits` bits is kept a memory through synthesis (not
 * exploded into flip-flops) and costed from a table of 45 nm SRAM macros instead of library
 * cells. The table is docs/reference/sram45.md: the `fakeram45` macros of the OpenROAD flow's
 * nangate45 platform, whose area, leakage and per-access energy come from CACTI at 45 nm, 1.1 V
 * (bsg_fakeram), the same corner as our NanGate45 library. Other sizes are interpolated
 * log-log in the number of bits between neighbouring rows (extrapolated from the end segments).
 */

/** One row of the macro table (docs/reference/sram45.md). */
export interface SramTableRow {
  readonly name: string;
  readonly words: number;
  readonly width: number;
  /** µm² */
  readonly areaUm2: number;
  /** nW, `cell_leakage_power` (leakage_power_unit 1 nW). */
  readonly leakageNw: number;
  /** fJ per clock transition: the clock pin's `internal_power` (capacitive_load_unit 1 fF × 1 V²). */
  readonly clockEnergyFj: number;
}

/** The fakeram45 rows of distinct size the interpolation runs over (sorted by bits). */
export const SRAM45_TABLE: readonly SramTableRow[] = [
  { name: 'fakeram45_64x32', words: 64, width: 32, areaUm2: 1240.624, leakageNw: 81627.2, clockEnergyFj: 795.762 },
  { name: 'fakeram45_256x32', words: 256, width: 32, areaUm2: 5065.704, leakageNw: 289841, clockEnergyFj: 1874.39 },
  { name: 'fakeram45_1024x32', words: 1024, width: 32, areaUm2: 16406.082, leakageNw: 797666, clockEnergyFj: 3566.4 },
  { name: 'fakeram45_2048x39', words: 2048, width: 39, areaUm2: 45478.818, leakageNw: 1876600, clockEnergyFj: 6855.19 },
];

/** A macro's figures at 45 nm, 1.1 V. */
export interface SramFigures {
  readonly areaUm2: number;
  readonly leakageUw: number;
  /**
   * Energy of one cycle of one port, pJ: the clock pin's rise plus fall energy, which the .lib
   * charges at every clock edge whatever the enables (so every cycle is an access).
   */
  readonly cycleEnergyPj: number;
}

/** log-log interpolation of `value` over the table by bits (extrapolated beyond its ends). */
function interpolate(bits: number, value: (row: SramTableRow) => number): number {
  const rows = SRAM45_TABLE;
  const size = (row: SramTableRow): number => row.words * row.width;
  let index = 0;
  while (index < rows.length - 2 && bits > size(rows[index + 1]!)) index++;
  const low = rows[index]!;
  const high = rows[index + 1]!;
  const slope = Math.log(value(high) / value(low)) / Math.log(size(high) / size(low));
  return value(low) * Math.exp(slope * Math.log(bits / size(low)));
}

/** The figures of a `words` × `width` single-port macro, interpolated from the table. */
export function sramFigures(words: number, width: number): SramFigures {
  const bits = words * width;
  return {
    areaUm2: interpolate(bits, (row) => row.areaUm2),
    leakageUw: interpolate(bits, (row) => row.leakageNw) * 1e-3,
    cycleEnergyPj: 2 * interpolate(bits, (row) => row.clockEnergyFj) * 1e-3,
  };
}

/** One SRAM macro of the mapped design. */
export interface SramMacro {
  /** Flat cell name (`inst.sub.memory`). */
  readonly cell: string;
  readonly words: number;
  readonly width: number;
  readonly readPorts: number;
  readonly writePorts: number;
  readonly figures: SramFigures;
}

/** A Yosys JSON parameter (a binary string, or a number in some versions) as a number. */
function parameter(cell: NetlistCell, name: string): number {
  const raw = (cell as { parameters?: Record<string, unknown> }).parameters?.[name];
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'string' && /^[01]+$/.test(raw)) return Number.parseInt(raw, 2);
  return Number(raw ?? 0);
}

/** The macros among the flat netlist's cells (only `names` when given). */
export function sramMacrosOf(flat: NetlistModule, names?: ReadonlySet<string>): SramMacro[] {
  return Object.entries(flat.cells)
    .filter(([name, cell]) => isSramMacro(cell.type) && (!names || names.has(name)))
    .map(([name, cell]) => {
      const words = parameter(cell, 'SIZE');
      const width = parameter(cell, 'WIDTH');
      return {
        cell: name,
        words,
        width,
        readPorts: parameter(cell, 'RD_PORTS'),
        writePorts: parameter(cell, 'WR_PORTS'),
        figures: sramFigures(words, width),
      };
    });
}

/**
 * Power of macros at `clockHz`, µW: leakage, and every port's cycle energy every cycle (one
 * single-port macro per memory, each read or write port charged as one access per cycle).
 */
export function sramPower(macros: readonly SramMacro[], clockHz: number): { leakageUw: number; accessUw: number } {
  let leakageUw = 0;
  let accessUw = 0;
  for (const macro of macros) {
    leakageUw += macro.figures.leakageUw;
    accessUw += macro.figures.cycleEnergyPj * 1e-12 * Math.max(1, macro.readPorts + macro.writePorts) * clockHz * 1e6;
  }
  return { leakageUw, accessUw };
}

/**
 * A block's area and power with its SRAM macros added: each macro's table area under the
 * `$mem_v2` cell type (and in the total), its leakage in leakage, its access power in internal
 * (hence dynamic and total) power.
 */
export function withSramMacros(
  area: AreaReport,
  power: PowerReport,
  macros: readonly SramMacro[],
  clockHz: number,
): { area: AreaReport; power: PowerReport } {
  if (macros.length === 0) return { area, power };
  const macroArea = macros.reduce((sum, macro) => sum + macro.figures.areaUm2, 0);
  const { leakageUw, accessUw } = sramPower(macros, clockHz);
  return {
    area: {
      ...area,
      area: area.area + macroArea,
      byType: area.byType.map((entry) =>
        isSramMacro(entry.type) ? { ...entry, area: entry.area + macroArea } : entry,
      ),
    },
    power: {
      ...power,
      leakageUw: power.leakageUw + leakageUw,
      internalUw: power.internalUw + accessUw,
      dynamicUw: power.dynamicUw + accessUw,
      totalUw: power.totalUw + leakageUw + accessUw,
    },
  };
}

/** One macro as the synthesis report lists it (45 nm figures and the target node's). */
export interface SramMacroReport {
  readonly cell: string;
  readonly words: number;
  readonly width: number;
  readonly readPorts: number;
  readonly writePorts: number;
  readonly area45: number;
  readonly areaTarget: number;
  readonly leakageUw45: number;
  /** Energy of one port-cycle, pJ, at 45 nm. */
  readonly cycleEnergyPj45: number;
  readonly accessUw45: number;
  readonly totalUwTarget: number;
}

/** The report lines' figures for the design's macros, scaled like every block. */
export function sramMacroReports(
  macros: readonly SramMacro[],
  clockHz: number,
  factors: ScalingFactors,
): SramMacroReport[] {
  return macros.map((macro) => {
    const { leakageUw, accessUw } = sramPower([macro], clockHz);
    return {
      cell: macro.cell,
      words: macro.words,
      width: macro.width,
      readPorts: macro.readPorts,
      writePorts: macro.writePorts,
      area45: macro.figures.areaUm2,
      areaTarget: macro.figures.areaUm2 * factors.area,
      leakageUw45: leakageUw,
      cycleEnergyPj45: macro.figures.cycleEnergyPj,
      accessUw45: accessUw,
      totalUwTarget: accessUw * factors.energy + leakageUw * factors.power,
    };
  });
}
