import { ToolError, UserError } from '../common/errors.ts';
import { cellModelsVerilog } from './library/verilogModels.ts';
import { cellIndex } from './area.ts';
import type { MappedDesign } from './mapToCells.ts';
import { moduleOf, portsOf, splitCells, type NetBit } from './netlist.ts';
import { verilogName } from '../engines/icarus/icarusTestbench.ts';
import { GATE_TESTBENCH, simulateGates } from './sim/gateSimulation.ts';
import { portRoles, workloadVectors, type InputVector, type RoleOverrides, type Workload } from './sim/gateStimulus.ts';
import { countVcdToggles } from './sim/vcdToggles.ts';

/** What the gate-level netlist is simulated on to measure switching activity. */
export type ActivityStimulus =
  | { readonly workload: Workload; readonly cycles: number; readonly seed?: number }
  | { readonly vectors: readonly InputVector[] };

/** How a report names a stimulus, e.g. "200 given vectors". */
export function describeStimulus(stimulus: ActivityStimulus): string {
  if ('vectors' in stimulus) return `${stimulus.vectors.length} given vectors`;
  return stimulus.workload === 'random'
    ? `${stimulus.cycles} cycles of random inputs (seed ${stimulus.seed ?? 1})`
    : `${stimulus.cycles} cycles of all-zero inputs`;
}

export interface ActivityOptions extends RoleOverrides {
  /** Cycles with reset asserted at the start (default 2), excluded from the measurement. */
  readonly resetCycles?: number;
  /** Limit for compiling and for running the gate-level simulation, each (default 120 s). */
  readonly timeoutMs?: number;
  /**
   * Verilog for the modules a composed flat netlist keeps as instances (their RTL): they simulate
   * beside the gates, and only their output ports are counted (the nets they drive).
   */
  readonly models?: Readonly<Record<string, string>>;
}

/** Measured 0↔1 transitions of every net bit of the flat netlist over the measurement window. */
export interface Activity {
  /** Net id → transitions. Nets absent here never toggled (or are constants). */
  readonly netToggles: ReadonlyMap<number, number>;
  /** Flat cell name → output pin → transitions (an unconnected output still burns internal energy). */
  readonly outputToggles: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Clock cycles in the measurement window. */
  readonly cycles: number;
  /** Cycles simulated before the window (reset, then one cycle for the first vector to settle). */
  readonly warmupCycles: number;
}

const gateInstance = 'gate';

/**
 * Simulates the flat gate-level netlist in Icarus on the stimulus, dumps every cell output and
 * every top input to a VCD from the end of reset on, and counts the transitions of each net.
 * Zero-delay cell models: functional toggles only, no glitches (so dynamic power is a lower bound).
 */
export async function measureActivity(
  mapped: MappedDesign,
  stimulus: ActivityStimulus,
  options: ActivityOptions = {},
): Promise<Activity> {
  const top = moduleOf(mapped.flat, mapped.gateTop);
  const roles = portRoles(portsOf(top), options);
  const resetCycles = options.resetCycles ?? 2;
  const vectors =
    'vectors' in stimulus
      ? stimulus.vectors
      : workloadVectors(roles, stimulus.workload, { cycles: stimulus.cycles, seed: stimulus.seed ?? 1, resetCycles });
  const warmupCycles = Math.min(vectors.length, (roles.reset ? resetCycles : 0) + 1);
  const cells = cellIndex(mapped.library);
  const { leaves, instances } = splitCells(mapped.flat, top);
  if (instances.length > 0 && options.models === undefined)
    throw new UserError(`the netlist keeps instances of ${instances[0]?.[1].type}: give their Verilog models`);
  const outputPins: { cell: string; pin: string; bits: readonly NetBit[]; leaf: boolean }[] = [];
  for (const [name, cell] of leaves) {
    for (const pin of cells.get(cell.type)?.outputs ?? [])
      outputPins.push({ cell: name, pin: pin.name, bits: cell.connections[pin.name] ?? [], leaf: true });
  }
  for (const [name, cell] of instances) {
    for (const [pin, port] of Object.entries(moduleOf(mapped.flat, cell.type).ports)) {
      if (port.direction === 'output')
        outputPins.push({ cell: name, pin, bits: cell.connections[pin] ?? [], leaf: false });
    }
  }
  const inputs = Object.entries(top.ports).filter(([, port]) => port.direction === 'input');
  const signals = [
    ...inputs.map(([name]) => `${gateInstance}.${verilogName(name)}`),
    ...outputPins.map(({ cell, pin }) => `${gateInstance}.${verilogName(cell)}.${pin}`),
  ];
  const run = await simulateGates({
    roles,
    vectors,
    instances: [{ module: mapped.gateTop, name: gateInstance }],
    // Models under plain names: Icarus runs in a flat sandbox, and a user path may have folders.
    sources: {
      ...Object.fromEntries(Object.values(options.models ?? {}).map((text, index) => [`model${index}.v`, text])),
      'gate.v': mapped.flatVerilog,
      'cells.v': cellModelsVerilog(mapped.library),
    },
    dump: { fromCycle: warmupCycles, signals },
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  const scope = `${GATE_TESTBENCH}.${gateInstance}`;
  const toggles = countVcdToggles(run.vcd ?? '');
  const countsOf = (name: string): readonly number[] => {
    const counts = toggles.get(`${scope}.${name}`);
    // A name we dumped but cannot find would silently read as "never toggles".
    if (!counts) throw new ToolError('vvp', `activity VCD has no signal ${scope}.${name}`);
    return counts;
  };
  const netToggles = new Map<number, number>();
  const addNet = (bit: NetBit | undefined, count: number): void => {
    if (typeof bit === 'number' && count > 0) netToggles.set(bit, (netToggles.get(bit) ?? 0) + count);
  };
  for (const [name, port] of inputs) {
    const counts = countsOf(name);
    port.bits.forEach((bit, index) => addNet(bit, counts[index] ?? 0));
  }
  const outputToggles = new Map<string, Map<string, number>>();
  for (const { cell, pin, bits, leaf } of outputPins) {
    const counts = countsOf(`${cell}.${pin}`);
    bits.forEach((bit, index) => addNet(bit, counts[index] ?? 0));
    if (!leaf) continue;
    const perPin = outputToggles.get(cell) ?? new Map<string, number>();
    perPin.set(pin, counts[0] ?? 0);
    outputToggles.set(cell, perPin);
  }
  return { netToggles, outputToggles, cycles: vectors.length - warmupCycles, warmupCycles };
}
