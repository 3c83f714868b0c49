import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { UserError } from '../../../common/errors.ts';
import { ENGINE_NAMES } from '../../../engines/index.ts';
import type { EngineName } from '../../../engines/engine.ts';
import { parseShard } from '../../../verif/regress/cases.ts';
import { writeJunit } from '../../../verif/regress/junit.ts';
import { runRegression } from '../../../verif/regress/regression.ts';
import { summaryTable } from '../../../verif/regress/summary.ts';
import { knownSuites, selectSuites } from '../../../verif/suites/index.ts';
import { runMutation } from '../../../verif/regress/mutation/mutationRun.ts';

interface RegressArguments {
  suite: string;
  engine: string;
  runs: number;
  seed?: number;
  jobs: number;
  shard: string;
  junit?: string;
  out: string;
  case?: number;
  path?: string;
  load: string[];
  'shrink-time': number;
  'max-saved': number;
  mutate: boolean;
  mutants: number;
}

/** Failing cases printed in full; a broken block fails most cases and the rest would drown the summary. */
const MAX_LISTED_FAILURES = 10;

/** `--engine` → engine names (`all` = every engine). */
function parseEngines(text: string): EngineName[] {
  if (text === 'all') return [...ENGINE_NAMES];
  const names = text.split(',');
  const unknown = names.find((name) => !(ENGINE_NAMES as string[]).includes(name));
  if (unknown !== undefined)
    throw new UserError(`unknown engine '${unknown}' (known: ${ENGINE_NAMES.join(', ')}, all)`);
  return names as EngineName[];
}

const wholeNumber = (name: string, value: number, min: number): number => {
  if (!Number.isInteger(value) || value < min)
    throw new UserError(`--${name} must be a whole number ≥ ${min}, got ${value}`);
  return value;
};

/** `gen regress`: randomized equivalence of the RTL against the golden models, on any engine. */
export const regressCommand: CommandModule<object, RegressArguments> = {
  command: 'regress',
  builder: (yargs) =>
    yargs
      .option('suite', {
        type: 'string',
        default: 'all',
        describe: 'all, a group (fp, tensor, decoder, mma, fuzz) or suite names, comma-separated',
      })
      .option('engine', {
        type: 'string',
        default: 'ts',
        describe: `engine(s): ${ENGINE_NAMES.join('|')}|all, comma-separated`,
      })
      .option('runs', {
        type: 'number',
        default: 100,
        describe: 'cases per suite (the whole case space, before sharding)',
      })
      .option('seed', {
        type: 'number',
        describe: 'run seed (random and printed when absent); case k uses a seed derived from (seed, k)',
      })
      .option('jobs', {
        type: 'number',
        default: 1,
        describe: 'worker threads (external builds are made once, before fanning out)',
      })
      .option('shard', { type: 'string', default: '1/1', describe: 'i/n: run only cases k with k mod n = i − 1' })
      .option('junit', { type: 'string', describe: 'write JUnit XML here (one testsuite per suite × engine)' })
      .option('out', {
        type: 'string',
        default: 'out/regress',
        describe: 'failure folders go to OUT/<suite>-<engine>-<seed>/case-<k>/',
      })
      .option('case', { type: 'number', describe: 'replay: run only case k of --seed' })
      .option('path', {
        type: 'string',
        describe: 'replay: with --case, the fast-check path of the shrunk case (from its folder)',
      })
      .option('load', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe: 'extra module(s) exporting `suites` (e.g. a test fixture)',
      })
      .option('shrink-time', {
        type: 'number',
        default: 30_000,
        describe: 'milliseconds of shrinking per failing case',
      })
      .option('max-saved', {
        type: 'number',
        default: 3,
        describe: 'failing cases shrunk and saved per suite × engine (all are listed)',
      })
      .option('mutate', {
        type: 'boolean',
        default: false,
        describe: 'mutation score: run the suite against Yosys mutants of its block (Icarus)',
      })
      .option('mutants', {
        type: 'number',
        default: 20,
        describe: 'with --mutate: mutants per block (yosys mutate -list N)',
      }),
  handler: async (args) => {
    const load = args.load.map((file) => resolve(file));
    const suites = selectSuites(await knownSuites(load), args.suite);
    const seed = args.seed ?? Date.now() % 2 ** 31;
    const runs = wholeNumber('runs', args.runs, 1);
    if (args.mutate) {
      await runMutation({ suites, runs, seed, mutants: wholeNumber('mutants', args.mutants, 1), out: args.out });
      return;
    }
    if (args.path !== undefined && args.case === undefined) throw new UserError('--path needs --case');
    const engines = parseEngines(args.engine);
    const loadArguments = load.map((file) => ` --load ${file}`).join('');
    const checked = {
      shard: parseShard(args.shard),
      jobs: wholeNumber('jobs', args.jobs, 1),
      shrinkTimeMs: wholeNumber('shrink-time', args['shrink-time'], 0),
      maxSavedFailures: wholeNumber('max-saved', args['max-saved'], 0),
    };
    process.stderr.write(`gen regress: seed ${seed} (replay the whole run: --seed ${seed})\n`);
    const results = await runRegression({
      ...checked,
      suites,
      engines,
      runs,
      seed,
      out: args.out,
      load,
      replayCommand: (suite, engine, caseIndex, path) =>
        `node bin/gen.js regress --suite ${suite} --engine ${engine} --seed ${seed} --case ${caseIndex}${path === undefined ? '' : ` --path ${path}`}${loadArguments} --out ${args.out}`,
      ...(args.case === undefined
        ? {}
        : {
            replay: {
              caseIndex: wholeNumber('case', args.case, 0),
              ...(args.path === undefined ? {} : { path: args.path }),
            },
          }),
    });
    process.stdout.write(`${summaryTable(results)}\n`);
    if (args.junit) writeJunit(args.junit, results);
    const failures = results.flatMap((run) => run.failures.map((failure) => ({ run, failure })));
    for (const { run, failure } of failures.slice(0, MAX_LISTED_FAILURES))
      process.stdout.write(
        `FAIL ${run.suite} on ${run.engine}, case ${failure.caseIndex}: ${failure.message}\n  replay: ${failure.replay}\n${failure.folder ? `  saved: ${failure.folder}\n` : ''}`,
      );
    if (failures.length > MAX_LISTED_FAILURES)
      process.stdout.write(
        `… and ${failures.length - MAX_LISTED_FAILURES} more failing cases (--junit lists them all)\n`,
      );
    if (failures.length > 0) throw new UserError(`${failures.length} failing case(s); see above`);
  },
};
