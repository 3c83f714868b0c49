import { UserError } from '../common/errors.ts';
import { topModule, type IrDesign } from '../hw/ir/ir.ts';
import type { CycleRun, Engine, PortValues, RunOptions } from './engine.ts';

/** Where engines first disagree: the cycle, the output port, and each engine's value (undefined: it produced none). */
export interface LockstepDifference {
  readonly cycle: number;
  readonly port: string;
  /** By engine label (its name; `name#k` when several engines share one). */
  readonly values: Readonly<Record<string, bigint | undefined>>;
}

export interface LockstepResult {
  /** Engine labels in the order given. */
  readonly engines: readonly string[];
  /** Cycles compared (the stimulus length). */
  readonly cycles: number;
  /** The first difference, in cycle order and, within a cycle, in the top's port order; none when all agree. */
  readonly difference?: LockstepDifference;
  /** Each engine's run, by label, for a caller that wants more than the first difference. */
  readonly runs: Readonly<Record<string, CycleRun>>;
}

/** Labels for engines: their names, numbered when a name repeats. */
function labels(engines: readonly Engine[]): string[] {
  return engines.map((engine, index) =>
    engines.filter((other) => other.name === engine.name).length > 1 ? `${engine.name}#${index}` : engine.name,
  );
}

/**
 * Runs two or more engines on the same design and stimulus and compares them cycle by cycle:
 * at every cycle's `before_edge` phase (engine.ts), every output of the top must be equal in every
 * engine (Hardcaml's Cyclesim.combine, here over whole runs, since external engines run a stimulus
 * file in one process). Inputs follow the step contract: a port not given keeps its value. With
 * several clocks `options.clocks` times them (the same schedule of steps on every engine).
 */
export async function runLockstep(
  engines: readonly Engine[],
  design: IrDesign,
  stimulus: readonly PortValues[],
  options: Pick<RunOptions, 'clocks'> = {},
): Promise<LockstepResult> {
  if (engines.length < 2) throw new UserError(`lockstep needs two or more engines, got ${engines.length}`);
  const names = labels(engines);
  const runs = await Promise.all(engines.map((engine) => engine.run(design, stimulus, options)));
  const outputs = topModule(design)
    .ports.filter((port) => port.direction === 'output')
    .map((port) => port.name);
  const byLabel = Object.fromEntries(names.map((label, index) => [label, runs[index]!]));
  for (let cycle = 0; cycle < stimulus.length; cycle++)
    for (const port of outputs) {
      const values = Object.fromEntries(names.map((label, index) => [label, runs[index]!.outputs[cycle]?.[port]]));
      const seen = Object.values(values);
      if (seen.some((value) => value === undefined || value !== seen[0]))
        return { engines: names, cycles: stimulus.length, difference: { cycle, port, values }, runs: byLabel };
    }
  return { engines: names, cycles: stimulus.length, runs: byLabel };
}

/** One line for a difference: `cycle 7, port count: ts=0x5 verilator=0x6`. */
export function describeDifference(difference: LockstepDifference): string {
  const values = Object.entries(difference.values)
    .map(([label, value]) => `${label}=${value === undefined ? 'none' : `0x${value.toString(16)}`}`)
    .join(' ');
  return `cycle ${difference.cycle}, port ${difference.port}: ${values}`;
}
