import type { Activity } from './activity.ts';
import { cellIndex, requireCell } from './area.ts';
import type { CellSpec } from './library/cellTypes.ts';
import type { MappedDesign } from './mapToCells.ts';
import { moduleOf, splitCells, type NetlistCell } from './netlist.ts';

/** Power of a set of cells at one clock frequency, µW, at the library's corner (45 nm, 1.1 V). */
export interface PowerReport {
  /** Σ cell leakage. */
  readonly leakageUw: number;
  /** Flip-flop clock-pin internal energy plus switching of the clock net(s): 2 transitions per cycle. */
  readonly clockUw: number;
  /** Cell internal energy on output transitions plus flop data-pin energy. */
  readonly internalUw: number;
  /** ½·C·V² per transition of every non-clock net the cells drive. */
  readonly switchingUw: number;
  /** clock + internal + switching. */
  readonly dynamicUw: number;
  readonly totalUw: number;
}

export interface PowerOptions {
  /** Hz; default 1 GHz. */
  readonly clockHz?: number;
  /** Only these flat cells (a block); default: all. Net switching is charged to the driving cell. */
  readonly cells?: ReadonlySet<string>;
}

interface NetLoad {
  /** Σ input-pin capacitance of the loads, fF. */
  readonly pinCapFf: number;
  readonly fanout: number;
  /** Feeds a flip-flop clock pin. */
  readonly isClock: boolean;
}

/**
 * Capacitive load of every net: the library-cell input pins it drives (top outputs are taken as
 * unloaded, and so are composed instances' inputs: their own measurement charges those nets).
 */
function netLoads(
  leaves: readonly [string, NetlistCell][],
  cells: ReadonlyMap<string, CellSpec>,
): Map<number, NetLoad> {
  const loads = new Map<number, NetLoad>();
  for (const [name, cell] of leaves) {
    const spec = requireCell(cells, cell.type, name);
    for (const pin of spec.inputs) {
      const bit = cell.connections[pin.name]?.[0];
      if (typeof bit !== 'number') continue;
      const load = loads.get(bit) ?? { pinCapFf: 0, fanout: 0, isClock: false };
      loads.set(bit, {
        pinCapFf: load.pinCapFf + pin.capacitanceFf,
        fanout: load.fanout + 1,
        isClock: load.isClock || spec.flipFlop?.clock === pin.name,
      });
    }
  }
  return loads;
}

/** Which cell drives each net (top inputs drive theirs from outside: no cell). */
function netDrivers(
  leaves: readonly [string, NetlistCell][],
  cells: ReadonlyMap<string, CellSpec>,
): Map<number, string> {
  const drivers = new Map<number, string>();
  for (const [name, cell] of leaves) {
    for (const pin of requireCell(cells, cell.type, name).outputs) {
      const bit = cell.connections[pin.name]?.[0];
      if (typeof bit === 'number') drivers.set(bit, name);
    }
  }
  return drivers;
}

/**
 * Power from measured activity: leakage + Σ cell output transitions × internal energy + Σ flop
 * pin transitions × pin energy + Σ net transitions × ½·C·V², with C = driven pin capacitance +
 * the library's wire estimate per fanout. Energies are averaged over the measured cycles and
 * turned into power at `clockHz`. Nets driven by top-level inputs (the clock included) belong to
 * the whole design, not to any block, since no block's cell drives them.
 */
export function powerFromActivity(mapped: MappedDesign, activity: Activity, options: PowerOptions = {}): PowerReport {
  const clockHz = options.clockHz ?? 1e9;
  const library = mapped.library;
  const { leaves } = splitCells(mapped.flat, moduleOf(mapped.flat, mapped.gateTop));
  const cells = cellIndex(library);
  const loads = netLoads(leaves, cells);
  const drivers = netDrivers(leaves, cells);
  const included = (cell: string | undefined): boolean =>
    options.cells ? cell !== undefined && options.cells.has(cell) : true;
  const toggles = (bit: number | undefined): number => (bit === undefined ? 0 : (activity.netToggles.get(bit) ?? 0));

  let leakageNw = 0;
  let clockFj = 0;
  let internalFj = 0;
  let switchingFj = 0;
  for (const [name, cell] of leaves) {
    if (!included(name)) continue;
    const spec = requireCell(cells, cell.type, name);
    leakageNw += spec.leakageNw;
    for (const pin of spec.outputs) internalFj += (activity.outputToggles.get(name)?.get(pin.name) ?? 0) * pin.energyFj;
    for (const pin of spec.inputs) {
      if (pin.energyFj === undefined) continue;
      const bit = cell.connections[pin.name]?.[0];
      const energy = toggles(typeof bit === 'number' ? bit : undefined) * pin.energyFj;
      if (spec.flipFlop?.clock === pin.name) clockFj += energy;
      else internalFj += energy;
    }
  }
  const halfVSquared = 0.5 * library.voltage * library.voltage;
  for (const [bit, load] of loads) {
    if (!included(drivers.get(bit))) continue;
    const energy = toggles(bit) * halfVSquared * (load.pinCapFf + library.wireCapPerFanoutFf * load.fanout);
    if (load.isClock) clockFj += energy;
    else switchingFj += energy;
  }
  const seconds = activity.cycles / clockHz;
  const microwatts = (femtojoules: number): number => (seconds > 0 ? (femtojoules * 1e-15) / seconds / 1e-6 : 0);
  const leakageUw = leakageNw * 1e-3;
  const clockUw = microwatts(clockFj);
  const internalUw = microwatts(internalFj);
  const switchingUw = microwatts(switchingFj);
  const dynamicUw = clockUw + internalUw + switchingUw;
  return { leakageUw, clockUw, internalUw, switchingUw, dynamicUw, totalUw: leakageUw + dynamicUw };
}
