import { cellModelsVerilog } from './library/verilogModels.ts';
import { mapToCells, type MapOptions, type MappedDesign } from './mapToCells.ts';
import { moduleOf, portsOf } from './netlist.ts';
import { simulateGates } from './sim/gateSimulation.ts';
import { portRoles, workloadVectors, type RoleOverrides } from './sim/gateStimulus.ts';

export interface EquivalenceOptions extends MapOptions, RoleOverrides {
  readonly cycles: number;
  readonly seed: number;
  /** Reuse an existing mapping of the same RTL instead of synthesizing again. */
  readonly mapped?: MappedDesign;
}

export interface EquivalenceResult {
  readonly equal: boolean;
  readonly cycles: number;
  readonly mismatches: number;
  /** The first few `MISMATCH cycle=… port=… rtl=… gate=…` lines from the simulation. */
  readonly firstMismatches: readonly string[];
  readonly seed: number;
}

/** Mismatch lines kept in a result. */
const MISMATCHES_SHOWN = 10;

/** Accepts one Verilog text or several named files. */
function asFiles(rtl: string | Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  return typeof rtl === 'string' ? { 'design.v': rtl } : rtl;
}

/**
 * Simulates the RTL and its mapped gate-level netlist side by side in Icarus on the same seeded
 * random stimulus (reset asserted for the first cycles) and compares every output every cycle
 * from the first edge of reset on (from cycle 0 without a reset) with `!==`, so an X in one and
 * not the other is a mismatch too.
 */
export async function gateLevelEquivalence(
  rtl: string | Readonly<Record<string, string>>,
  top: string,
  options: EquivalenceOptions,
): Promise<EquivalenceResult> {
  const files = asFiles(rtl);
  const mapped = options.mapped ?? (await mapToCells(files, top, options));
  const roles = portRoles(portsOf(moduleOf(mapped.flat, mapped.gateTop)), options);
  const vectors = workloadVectors(roles, 'random', { cycles: options.cycles, seed: options.seed });
  const sources: Record<string, string> = {
    'gate.v': mapped.flatVerilog,
    'cells.v': cellModelsVerilog(mapped.library),
  };
  Object.values(files).forEach((text, index) => (sources[`rtl${index}.v`] = text));
  const { outputs } = await simulateGates({
    roles,
    vectors,
    instances: [
      { module: top, name: 'rtl' },
      { module: mapped.gateTop, name: 'gate' },
    ],
    sources,
  });
  // Before reset's first edge both sides hold unknown state, and gates resolve X differently
  // from RTL (an AND with a known 0 is 0 in gates, a mux on an X select is X in RTL).
  const compareFromCycle = roles.reset ? 1 : 0;
  // Compared as printed, so an X in one and not the other is a mismatch too (Verilog's !==).
  const firstMismatches: string[] = [];
  let mismatches = 0;
  outputs.forEach(([rtl, gate], cycle) => {
    if (cycle < compareFromCycle) return;
    roles.outputs.forEach((port, index) => {
      if (rtl?.[index] === gate?.[index]) return;
      mismatches++;
      if (firstMismatches.length < MISMATCHES_SHOWN)
        firstMismatches.push(`MISMATCH cycle=${cycle} port=${port.name} rtl=${rtl?.[index]} gate=${gate?.[index]}`);
    });
  });
  const done = outputs.length === vectors.length;
  if (!done) mismatches = Number.NaN;
  return {
    equal: mismatches === 0,
    cycles: outputs.length,
    mismatches,
    firstMismatches,
    seed: options.seed,
  };
}
