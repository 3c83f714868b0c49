import { UserError } from '../common/errors.ts';
import { hasChecks, type CheckResults } from '../hw/contract/checks.ts';
import { topModule, type IrDesign } from '../hw/ir/ir.ts';
import type { CycleRun, Engine, PortValues, RunOptions } from '../hw/contract/engine.ts';

/**
 * Where engines first disagree: the cycle, the output port, and each engine's value (undefined:
 * it produced none). A design's checks are compared too, after every output agreed: `port` is then
 * `assert <scope>.<message>` with 1 where an engine reported the failure in that cycle and 0
 * where it did not, or `cover <name>` with each engine's hit count (cycle: the stream's length).
 */
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
 * several clocks `options.clocks` times them (the same schedule of steps on every engine). A design
 * with checks runs in count mode, and every engine must report the same failures (cycle, instance,
 * check) and the same cover hits.
 */
export async function runLockstep(
  engines: readonly Engine[],
  design: IrDesign,
  stimulus: readonly PortValues[],
  options: Pick<RunOptions, 'clocks'> = {},
): Promise<LockstepResult> {
  if (engines.length < 2) throw new UserError(`lockstep needs two or more engines, got ${engines.length}`);
  const names = labels(engines);
  const checked = hasChecks(design);
  const runs = await Promise.all(
    engines.map((engine) => engine.run(design, stimulus, checked ? { ...options, checks: 'count' } : options)),
  );
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
  const difference = checked ? checkDifference(names, runs, stimulus.length) : undefined;
  return { engines: names, cycles: stimulus.length, ...(difference ? { difference } : {}), runs: byLabel };
}

/** The first check the engines report differently: the earliest failure not every engine has, then a cover's hits. */
function checkDifference(
  names: readonly string[],
  runs: readonly CycleRun[],
  cycles: number,
): LockstepDifference | undefined {
  const results: CheckResults[] = runs.map((run) => run.checks ?? { failures: [], covers: {} });
  const failureKey = (f: CheckResults['failures'][number]): string => `${f.cycle} ${f.scope} ${f.module} ${f.index}`;
  const sets = results.map((result) => new Set(result.failures.map(failureKey)));
  const failure = results
    .flatMap((result) => result.failures)
    .sort((a, b) => a.cycle - b.cycle)
    .find((failure) => sets.some((set) => !set.has(failureKey(failure))));
  if (failure) {
    const name = failure.scope === '' ? failure.message : `${failure.scope}.${failure.message}`;
    const values = Object.fromEntries(names.map((label, k) => [label, sets[k]!.has(failureKey(failure)) ? 1n : 0n]));
    return { cycle: failure.cycle, port: `assert ${name}`, values };
  }
  const coverNames = [...new Set(results.flatMap((result) => Object.keys(result.covers)))].sort();
  for (const name of coverNames) {
    const hits = results.map((result) => result.covers[name]);
    if (hits.some((count) => count !== hits[0]))
      return {
        cycle: cycles,
        port: `cover ${name}`,
        values: Object.fromEntries(
          names.map((label, k) => [label, hits[k] === undefined ? undefined : BigInt(hits[k]!)]),
        ),
      };
  }
  return undefined;
}

/** One line for a difference: `cycle 7, port count: ts=0x5 verilator=0x6`. */
export function describeDifference(difference: LockstepDifference): string {
  const values = Object.entries(difference.values)
    .map(([label, value]) => `${label}=${value === undefined ? 'none' : `0x${value.toString(16)}`}`)
    .join(' ');
  return `cycle ${difference.cycle}, port ${difference.port}: ${values}`;
}
