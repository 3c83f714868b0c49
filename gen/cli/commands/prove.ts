import type { CommandModule } from 'yargs';
import { parseParams } from '../../project/project.ts';
import { topOf, withDesigns, type DesignArguments } from '../project.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { hasChecks } from '../../../hw/contract/checks.ts';
import { formatLocation } from '../../../hw/core/sourceLocation.ts';
import { UserError } from '../../../common/errors.ts';
import { proveDesign, type PropertyResult } from '../../../verif/formal/prove.ts';

interface ProveArguments extends DesignArguments {
  top: string;
  param: string[];
  depth: number;
  seconds: number;
  out?: string;
  bounded: boolean;
  only?: string[];
}

/** One result as a line of the table `gen prove` prints. */
function resultLine(result: PropertyResult, replay: string): string {
  const what = result.kind === 'cover' ? `cover ${result.message}` : `assert "${result.message}"`;
  const status =
    result.status === 'bounded' || result.status === 'unreached'
      ? `${result.status} (${result.depth} cycles)`
      : result.status;
  const where = `${formatLocation(result.location)}`;
  const parts = [`${status.padEnd(22)} ${what}  ${where}  ${result.seconds} s`];
  if (result.cycle !== undefined && result.trace) {
    const verb = result.kind === 'cover' ? 'reached at cycle' : 'fails at cycle';
    parts.push(
      `    ${verb} ${result.cycle}: ${result.trace.vectors} (VCD ${result.trace.vcd}); replay: ${replay} --vectors ${result.trace.vectors}`,
    );
  }
  if (result.why) parts.push(`    ${result.why}`);
  return parts.join('\n');
}

/** `gen prove`: bounded and unbounded model checking of a top's assertions, and its cover points. */
export const proveCommand: CommandModule<object, ProveArguments> = {
  command: 'prove',
  builder: (yargs) =>
    withDesigns(yargs)
      .option('top', { type: 'string', demandOption: true, describe: 'top to prove (see gen list)' })
      .option('param', {
        type: 'string',
        array: true,
        default: [],
        describe: 'parameter override name=value (repeatable)',
      })
      .option('depth', {
        type: 'number',
        default: 20,
        describe: 'cycles of the bounded check (BMC) when PDR neither proves nor refutes in its time',
      })
      .option('seconds', { type: 'number', default: 60, describe: 'time limit of each ABC engine run, s' })
      .option('only', {
        type: 'string',
        array: true,
        describe:
          'prove only the checks of these modules (repeatable); instances that then hold no check and drive none are cut',
      })
      .option('bounded', {
        type: 'boolean',
        default: false,
        describe: 'skip the unbounded proof (PDR): only BMC to --depth, for tops too large for PDR',
      })
      .option('out', {
        type: 'string',
        describe: 'folder for counterexamples and cover traces (default out/prove/<top>)',
      }),
  handler: async (args) => {
    if (!Number.isInteger(args.depth) || args.depth < 1 || args.depth > 10_000)
      throw new UserError(`--depth must be a whole number from 1 to 10000, got ${args.depth}`);
    if (!(args.seconds > 0)) throw new UserError(`--seconds must be positive, got ${args.seconds}`);
    const { top } = await topOf(args, args.top);
    const design = elaborate(top.definition, parseParams(top, args.param));
    if (!hasChecks(design))
      throw new UserError(`${args.top} has no assertions or cover points (m.assert, m.assume, m.cover)`);
    const out = args.out ?? `out/prove/${design.top}`;
    const started = performance.now();
    const results = await proveDesign(design, {
      depth: args.depth,
      seconds: args.seconds,
      out,
      boundedOnly: args.bounded,
      ...(args.only && args.only.length > 0 ? { only: new Set(args.only) } : {}),
    });
    console.log(
      `gen prove: ${design.top}, ${args.bounded ? '' : 'PDR for every cycle, else '}BMC to ${args.depth} cycles (Yosys + ABC)`,
    );
    const replay = [
      'gen sim',
      ...(args.design ?? []).map((file) => `--design ${file}`),
      `--top ${args.top}`,
      ...args.param.map((param) => `--param ${param}`),
    ].join(' ');
    for (const result of results) console.log(resultLine(result, replay));
    const failed = results.filter((result) => result.status === 'failed');
    const count = (status: PropertyResult['status']): number =>
      results.filter((result) => result.status === status).length;
    console.log(
      `${count('proved')} proved, ${count('bounded')} bounded, ${failed.length} failed, ${count('reachable')} covers reachable, ` +
        `${count('unreachable')} unreachable, ${count('unreached') + count('undecided')} open; ${(
          (performance.now() - started) /
          1000
        ).toFixed(1)} s`,
    );
    if (failed.length > 0)
      throw new UserError(
        `${failed.length} assertion(s) of ${design.top} fail; first: ${formatLocation(failed[0]!.location)}`,
      );
  },
};
