import { UserError } from '../../common/errors.ts';
import { fourStateHex, streamCommands, wordsOf, type HarnessPorts } from '../../engines/harness/harnessStimulus.ts';
import { PortFrames } from '../../hw/contract/portFrames.ts';
import { runHarness } from '../../engines/harness/harnessProcess.ts';
import { withWorkspace } from '../../tools/runTool.ts';
import { testbenchFiles, type TestbenchInstance } from '../../engines/icarus/icarusTestbench.ts';
import { VCD_ROOT } from '../../hw/verilog/manifest.ts';
import { buildIcarus } from '../../tools/icarus.ts';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
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
 * binary protocol and harness runner as the engines (engines/icarus/icarusTestbench.ts,
 * engines/harness/harnessStimulus.ts, engines/harness/harnessProcess.ts), so gate-level and RTL simulation follow
 * one step contract. Outputs come back as %h prints them, X and Z included, so a comparison sees them.
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
  const testbench = testbenchFiles({
    ports,
    ...(roles.clock ? { clock: roles.clock } : {}),
    instances: simulation.instances,
    ...(simulation.dump ? { dump: simulation.dump } : {}),
  });
  const timeout = simulation.timeoutMs ?? GATE_TIMEOUT_MS;
  const build = await buildIcarus(new Map([...Object.entries(simulation.sources), ...testbench]), {
    root: GATE_TESTBENCH,
    timeout,
  });
  const width = ports.outputs.length;
  const perInstance = ports.outputs.reduce((total, port) => total + wordsOf(port.width), 0);
  const outputs: string[][][] = [];
  const vcd = await withWorkspace('gate-sim', {}, async (work) => {
    const file = join(work, 'activity.vcd');
    await runHarness(
      {
        program: 'vvp',
        // Relative: vvp's $dumpfile takes only printable ASCII, which the temp folder's path need not be.
        args: ['-n', build.program, ...(simulation.dump ? [`+vcd=${basename(file)}`] : [])],
        name: 'vvp',
        cwd: work,
        pipedInput: true,
      },
      perInstance * simulation.instances.length,
      streamCommands(ports, [PortFrames.from(ports.inputs, vectors, ports.top)]),
      timeout,
      {
        outputs: (bytes, offset) => {
          const fields: string[] = [];
          let at = offset;
          for (let instance = 0; instance < simulation.instances.length; instance++)
            for (const port of ports.outputs) {
              fields.push(fourStateHex(bytes, at, port.width));
              at += 8 * wordsOf(port.width);
            }
          outputs.push(simulation.instances.map((_, index) => fields.slice(index * width, (index + 1) * width)));
        },
        ack: () => {},
        line: () => {},
      },
    );
    return simulation.dump ? readFileSync(file, 'utf8') : undefined;
  });
  return { outputs, ...(simulation.dump ? { vcd: vcd ?? '' } : {}) };
}
