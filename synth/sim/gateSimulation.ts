import { UserError } from '../../common/errors.ts';
import { formatStimulus, type HarnessPorts } from '../../engines/harnessStimulus.ts';
import { testbenchVerilog, type TestbenchInstance } from '../../engines/icarusTestbench.ts';
import { VCD_ROOT } from '../../hw/verilog/manifest.ts';
import { buildIcarus, runIcarus } from '../../tools/icarus.ts';
import type { InputVector, PortRoles } from './gateStimulus.ts';

/** Default limit for compiling and for running a gate-level simulation, each. */
const GATE_TIMEOUT_MS = 120_000;

const plainIdentifier = /^[A-Za-z_][A-Za-z0-9_$]*$/;

export interface GateSimulation {
  readonly roles: PortRoles;
  /** One per cycle; every driven input must have a value in every cycle. */
  readonly vectors: readonly InputVector[];
  /** Design instances; all get the same inputs. */
  readonly instances: readonly TestbenchInstance[];
  /** Verilog sources (name → text), compiled with the testbench. */
  readonly sources: Readonly<Record<string, string>>;
  /** VCD of these references (relative to the testbench) from cycle `fromCycle` on. */
  readonly dump?: { readonly fromCycle: number; readonly signals: readonly string[] };
  /** Compile and run limit each, ms (default 120 s). */
  readonly timeoutMs?: number;
}

export interface GateRun {
  /** Per cycle, per instance (in the order given), per output port: the hex digits Icarus printed (x/z kept). */
  readonly outputs: readonly (readonly (readonly string[])[])[];
  /** The VCD text when `dump` was asked for. */
  readonly vcd?: string;
}

/** The name of the testbench module, root of the hierarchical names in the VCD. */
export const GATE_TESTBENCH = VCD_ROOT;

/**
 * Simulates gate-level netlists (and RTL beside them) in Icarus with the same testbench generator,
 * stimulus format and Icarus runner as the engines (engines/icarusTestbench.ts,
 * engines/harnessStimulus.ts, tools/icarus.ts), so gate-level and RTL simulation follow one step
 * contract. Outputs are returned as printed, X and Z included, so a comparison sees them.
 */
export async function simulateGates(simulation: GateSimulation): Promise<GateRun> {
  const { roles } = simulation;
  for (const port of [...roles.driven, ...roles.outputs])
    if (!plainIdentifier.test(port.name))
      throw new UserError(`port ${port.name} of the top needs a plain identifier name for the testbench`);
  const ports: HarnessPorts = {
    top: simulation.instances[0]!.module,
    inputs: roles.driven.map(({ name, width }) => ({ name, width })),
    outputs: roles.outputs.map(({ name, width }) => ({ name, width })),
    clocked: roles.clock !== undefined,
  };
  // Every driven input in every cycle (a workload names them all); other keys are not inputs of the netlist.
  const vectors = simulation.vectors.map((vector, cycle) =>
    Object.fromEntries(
      roles.driven.map((port) => {
        const value = vector[port.name];
        if (value === undefined) throw new UserError(`stimulus cycle ${cycle} has no value for input ${port.name}`);
        return [port.name, value];
      }),
    ),
  );
  const testbench = testbenchVerilog({
    ports,
    ...(roles.clock ? { clock: roles.clock } : {}),
    instances: simulation.instances,
    ...(simulation.dump ? { dump: simulation.dump } : {}),
  });
  const timeout = simulation.timeoutMs ?? GATE_TIMEOUT_MS;
  const build = await buildIcarus(new Map([...Object.entries(simulation.sources), ['testbench.v', testbench]]), {
    root: GATE_TESTBENCH,
    timeout,
  });
  const vcd = 'activity.vcd';
  const run = await runIcarus(build, {
    files: { 'stimulus.txt': formatStimulus(ports, [vectors]) },
    plusargs: ['+stimulus=stimulus.txt', '+results=results.txt', ...(simulation.dump ? [`+vcd=${vcd}`] : [])],
    outputs: ['results.txt', ...(simulation.dump ? [vcd] : [])],
    timeout,
  });
  const width = ports.outputs.length;
  const outputs = (run.files['results.txt'] ?? '')
    .split('\n')
    .filter((line) => line.startsWith('O'))
    .map((line) => {
      const fields = line.trim().split(/\s+/).slice(1);
      return simulation.instances.map((_, index) => fields.slice(index * width, (index + 1) * width));
    });
  return { outputs, ...(simulation.dump ? { vcd: run.files[vcd] ?? '' } : {}) };
}
