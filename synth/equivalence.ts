import { cellModelsVerilog } from './library/verilogModels.ts';
import { mapToCells, type MapOptions, type MappedDesign } from './mapToCells.ts';
import { moduleOf, portsOf } from './netlist.ts';
import { runIcarus } from './sim/gateIcarus.ts';
import { portRoles, workloadVectors, type RoleOverrides } from './sim/gateStimulus.ts';
import { buildTestbench } from './sim/gateTestbench.ts';

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
  const bench = buildTestbench({
    roles,
    vectors,
    duts: [
      { module: top, instance: 'rtl', suffix: 'rtl' },
      { module: mapped.gateTop, instance: 'gate', suffix: 'gate' },
    ],
    compare: true,
    // Before reset's first edge both sides hold unknown state, and gates resolve X differently
    // from RTL (an AND with a known 0 is 0 in gates, a mux on an X select is X in RTL).
    compareFromCycle: roles.reset ? 1 : 0,
  });
  const sources: Record<string, string> = {
    'tb.v': bench.verilog,
    'gate.v': mapped.flatVerilog,
    'cells.v': cellModelsVerilog(mapped.library),
  };
  Object.values(files).forEach((text, index) => (sources[`rtl${index}.v`] = text));
  const { stdout } = await runIcarus({
    sources,
    top: bench.moduleName,
    data: { [bench.stimulusFile]: bench.stimulusHex },
  });
  const done = /DONE cycles=(\d+) mismatches=(\d+)/.exec(stdout);
  const mismatches = done ? Number(done[2]) : Number.NaN;
  return {
    equal: mismatches === 0,
    cycles: done ? Number(done[1]) : 0,
    mismatches,
    firstMismatches: stdout.split('\n').filter((line) => line.startsWith('MISMATCH')),
    seed: options.seed,
  };
}
