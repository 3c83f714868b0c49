import { preflightFiles } from '../../../common/preflight.ts';
import type { CommandModule } from 'yargs';
import { resolve } from 'node:path';
import { parseParams } from '../../project/project.ts';
import { topOf, withDesigns, type DesignArguments } from '../project.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { topModule, clockPortsOf, type IrDesign } from '../../../hw/ir/ir.ts';
import type { ClockTimings } from '../../../hw/sim/clockSchedule.ts';
import { readVectors, formatVectorValue, type VectorLine } from '../../../engines/vectors.ts';
import { createEngine, ENGINE_NAMES, engineHelp } from '../../../engines/index.ts';
import type { CycleRun, EngineName } from '../../../engines/engine.ts';
import { writeFileAtomic } from '../../../common/atomicWrite.ts';
import { UserError } from '../../../common/errors.ts';
import { formatCheckFailure, type CheckMode } from '../../../hw/ir/checks.ts';
import { quoteValue } from '../../../common/optionValues.ts';
import { refuseOutputsOverInputs } from '../../../common/outputClash.ts';
import { bounded, runBoundMs, TIMEOUT_OPTION } from '../runBound.ts';

/** What names a simulation: a top of the project with its parameters, a vector file and an engine. */
export interface SimulationArguments extends DesignArguments {
  top: string;
  param: string[];
  vectors: string;
  engine?: EngineName | undefined;
  /** A failing assertion stops the run (default) or is counted (`count`: every failure reported). */
  checks?: CheckMode | undefined;
  /** Keep internal nets (`_n27`) in the VCD (Verilator and Icarus only). */
  internal?: boolean | undefined;
  /** Clock timings `NAME=PERIOD[:PHASE]` in ns (several clocks; default 10, phase 0 each). */
  timing?: string[] | undefined;
}

/** `clk_b=14:3` → { clk_b: { period: 14, phase: 3 } }; the schedule checks names and values. */
export function parseClockTimings(specs: readonly string[]): ClockTimings {
  const timings: Record<string, { period: number; phase: number }> = {};
  for (const spec of specs) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(\d+)(?::(\d+))?$/.exec(spec);
    if (!match) throw new UserError(`bad --timing ${quoteValue(spec)}: expected NAME=PERIOD or NAME=PERIOD:PHASE (ns)`);
    timings[match[1]!] = { period: Number(match[2]), phase: Number(match[3] ?? 0) };
  }
  return timings;
}

interface SimArguments extends SimulationArguments {
  out?: string;
  vcd?: string;
  timeout?: string;
}

/** Seconds per MiB of vectors in the default bound: about 1 ms per vector line, ten times the slowest shipped top. */
const SIM_SECONDS_PER_MIB = 60;

/**
 * Runs a vector file through a top of the project on one engine (the project's default engine
 * unless one is named), tracing to `vcd` when given. Every path is the user's, relative to where
 * they typed it: engines may run their simulator in other folders.
 */
export async function simulateTop(
  args: SimulationArguments,
  vcd: string | undefined,
): Promise<{ run: CycleRun; vectors: VectorLine[]; design: IrDesign }> {
  const { project, top } = await topOf(args, args.top);
  const design = elaborate(top.definition, parseParams(top, args.param));
  const module = topModule(design);
  const clocks = clockPortsOf(module);
  const portsOf = (direction: 'input' | 'output'): Map<string, number> =>
    new Map(
      module.ports
        .filter((port) => port.direction === direction && !clocks.includes(port.name))
        .map((port) => [port.name, port.width]),
    );
  const vectors = readVectors(args.vectors, { inputs: portsOf('input'), outputs: portsOf('output') });
  const engine = await createEngine(args.engine ?? project.defaults.engine ?? 'ts');
  const run = await engine.run(
    design,
    vectors.map((vector) => vector.inputs),
    {
      ...(vcd === undefined ? {} : { vcd: resolve(vcd) }),
      ...(args.checks ? { checks: args.checks } : {}),
      ...(args.internal ? { internal: true } : {}),
      ...(args.timing && args.timing.length > 0 ? { clocks: parseClockTimings(args.timing) } : {}),
    },
  );
  return { run, vectors, design };
}

/** `gen sim`: runs a vector file through a top on one engine; checks `expect` entries if present. */
export const simCommand: CommandModule<object, SimArguments> = {
  command: 'sim',
  builder: (yargs) =>
    withDesigns(yargs)
      .option('top', { type: 'string', demandOption: true, describe: 'top to simulate (see gen list)' })
      .option('param', {
        type: 'string',
        array: true,
        default: [],
        describe: 'parameter override name=value (repeatable)',
      })
      .option('vectors', {
        type: 'string',
        demandOption: true,
        describe: 'JSON Lines: {"in": {port: value}, "expect"?: {...}} per cycle',
      })
      .option('engine', {
        choices: ENGINE_NAMES,
        describe: `simulation engine (default: defaults.engine of gen.config.ts, else ts); ${engineHelp()}`,
      })
      .option('out', { type: 'string', describe: 'write the outputs per cycle as JSON Lines here (default: stdout)' })
      .option('vcd', { type: 'string', describe: 'write a VCD waveform of the run here' })
      .option('internal', {
        type: 'boolean',
        describe:
          'keep internal nets (_n27) in the VCD too (Verilator and Icarus; the ts engine has no values for them)',
      })
      .option('timing', {
        type: 'string',
        array: true,
        describe:
          'period and phase of a clock in ns, NAME=PERIOD[:PHASE] (repeatable; designs with several clocks; default 10, phase 0)',
      })
      .option('timeout', TIMEOUT_OPTION)
      .option('checks', {
        choices: ['stop', 'count'] as const,
        describe:
          'a failing assertion (m.assert) stops the run (stop, default) or every failure is listed on stderr (count); either exits 1',
      }),
  handler: async (args) => {
    refuseOutputsOverInputs(
      { '--vectors': args.vectors, ...Object.fromEntries(args.design.map((file) => ['--design', file])) },
      { '--out': args.out, '--vcd': args.vcd },
    );
    preflightFiles([args.out, args.vcd]);
    const bound = runBoundMs(args.timeout, [args.vectors], SIM_SECONDS_PER_MIB);
    const { run, vectors } = await bounded('gen sim', bound, () => simulateTop(args, args.vcd));
    const lines = run.outputs.map((outputs, cycle) =>
      JSON.stringify({
        cycle,
        out: Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, formatVectorValue(value)])),
      }),
    );
    const text = lines.join('\n') + (lines.length > 0 ? '\n' : '');
    if (args.out) writeFileAtomic(resolve(args.out), text);
    else process.stdout.write(text);
    const mismatches = vectors.flatMap((vector, cycle) =>
      Object.entries(vector.expected ?? {})
        .filter(([name, value]) => run.outputs[cycle]![name] !== value)
        .map(
          ([name, value]) =>
            `cycle ${cycle} (${args.vectors}:${vector.line}): ${name} expected ${formatVectorValue(value)}, got ${formatVectorValue(run.outputs[cycle]![name]!)}`,
        ),
    );
    const failures = run.checks?.failures ?? [];
    for (const failure of failures) process.stderr.write(`${formatCheckFailure(failure)}\n`);
    if (failures.length > 0)
      throw new UserError(`${failures.length} assertion failure(s); first: ${formatCheckFailure(failures[0]!)}`);
    if (mismatches.length > 0) throw new UserError(`${mismatches.length} mismatch(es); first: ${mismatches[0]}`);
  },
};
