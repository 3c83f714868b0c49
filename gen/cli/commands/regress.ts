import { preflightFiles, preflightFolders } from '../../../common/preflight.ts';
import { autoJobs, capJobs } from '../../../verif/regress/workerPool.ts';
import { integerOption, SEED_RANGE } from '../../../common/optionValues.ts';
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { projectRoot } from '../../../common/projectRoot.ts';
import { UserError } from '../../../common/errors.ts';
import { ENGINE_NAMES, engineHelp } from '../../../engines/index.ts';
import type { EngineName } from '../../../hw/contract/engine.ts';
import { parseShard, type Shard } from '../../../verif/regress/cases.ts';
import { shardFromEnvironment } from '../../../verif/regress/shardFromEnv.ts';
import { writeJunit } from '../../../verif/regress/junit.ts';
import { runRegression, type RegressionOptions } from '../../../verif/regress/regression.ts';
import { DEFAULT_FARM_QUEUE } from '../../../verif/regress/farm/farmJob.ts';
import { parseFarmUrl } from '../../../verif/regress/farm/redisUrl.ts';
import type { FarmOptions } from '../../../verif/regress/farm/submitFarm.ts';
import { summaryTable } from '../../../verif/regress/summary.ts';
import { selectSuites } from '../../../verif/regress/suiteSources.ts';
import { FAILURE_FILES, type FailureIdentity } from '../../../verif/regress/failureFolder.ts';
import { filesWithModules, projectSuites } from '../../project/project.ts';
import { outputFolder, projectOf, withDesigns, type DesignArguments } from '../project.ts';
import { runMutation } from '../../../verif/regress/mutation/mutationRun.ts';
import { writeCoverageFile } from '../../../verif/regress/coverage/data.ts';
import { coverageSummary } from '../../../verif/regress/coverage/summary.ts';
import { writeCoveragePage } from '../../../verif/regress/coverage/coverageHtml.ts';
import { regressMergeCommand } from './regressMerge.ts';
import { readUserText } from '../../../common/userFiles.ts';
import { quoteValue } from '../../../common/optionValues.ts';

interface RegressArguments extends DesignArguments {
  suite?: string;
  engine?: string;
  runs: number;
  seed?: number;
  jobs?: number;
  shard: string;
  junit?: string;
  coverage?: string;
  out?: string;
  replay?: string;
  case?: number;
  path?: string;
  load: string[];
  'shrink-time': number;
  'max-saved': number;
  mutate: boolean;
  mutants: number;
  'time-budget'?: number;
  'shard-from-env': boolean;
  'shard-count'?: number;
  farm?: string;
  queue: string;
  'farm-shards'?: number;
  'farm-timeout': number;
}

/** Failing cases printed in full; a broken block fails most cases and the rest would drown the summary. */
const MAX_LISTED_FAILURES = 10;

/** `--engine` → engine names (`all` = every engine). */
function parseEngines(text: string): EngineName[] {
  if (text === 'all') return [...ENGINE_NAMES];
  const names = text.split(',');
  const unknown = names.find((name) => !(ENGINE_NAMES as string[]).includes(name));
  if (unknown !== undefined)
    throw new UserError(`unknown engine ${quoteValue(unknown)} (known: ${ENGINE_NAMES.join(', ')}, all)`);
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
    withDesigns(yargs)
      .command(regressMergeCommand)
      .option('design', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe: 'module file exporting `suites` (its designs may be exported beside them; repeatable, like --load)',
      })
      .option('suite', {
        type: 'string',
        describe: 'all (the default), a group or suite names, comma-separated (gen regress --suite x lists them)',
      })
      .option('engine', {
        type: 'string',
        describe: `engine(s), comma-separated, or all (default: defaults.engine of gen.config.ts, else ts); ${engineHelp()}`,
      })
      .option('runs', {
        type: 'string',
        coerce: (text: unknown) => integerOption('runs', text, { min: 1 }),
        default: 100,
        describe: 'cases per suite (the whole case space, before sharding)',
      })
      .option('seed', {
        type: 'string',
        coerce: (text: unknown) => integerOption('seed', text, SEED_RANGE),
        describe: 'run seed (random and printed when absent); case k uses a seed derived from (seed, k)',
      })
      .option('jobs', {
        type: 'string',
        coerce: (text: unknown) => integerOption('jobs', text, { min: 1 }),
        describe:
          'worker threads (external builds are made once, before fanning out); default: one per core, as memory allows, when each gets enough cases to repay its start',
      })
      .option('shard', { type: 'string', default: '1/1', describe: 'i/n: run only cases k with k mod n = i − 1' })
      .option('shard-from-env', {
        type: 'boolean',
        default: false,
        describe:
          "the shard of this array task: Slurm's SLURM_ARRAY_TASK_ID/_COUNT, a Kubernetes Indexed Job's JOB_COMPLETION_INDEX (with --shard-count), LSF's LSB_JOBINDEX (docs/farm.md)",
      })
      .option('shard-count', {
        type: 'string',
        coerce: (text: unknown) => (text === undefined ? undefined : integerOption('shard-count', text, { min: 1 })),
        describe: "with --shard-from-env: the number of tasks (a Kubernetes Job's completions)",
      })
      .option('junit', { type: 'string', describe: 'write JUnit XML here (one testsuite per suite × engine)' })
      .option('coverage', {
        type: 'string',
        describe:
          "collect coverage (toggles of every named signal bit, m.cover points, the suites' goal bins) and write it here as JSON",
      })
      .option('out', {
        type: 'string',
        describe: 'failure folders go to OUT/<suite>-<engine>-<seed>/case-<k>/ (default: out/regress)',
      })
      .option('replay', {
        type: 'string',
        describe: 'rerun the saved failure in this folder (OUT/<suite>-<engine>-<seed>/case-<k>) as it was found',
      })
      .option('case', {
        type: 'string',
        coerce: (text: unknown) => integerOption('case', text, { min: 0 }),
        describe: 'replay: run only case k of --seed',
      })
      .option('path', {
        type: 'string',
        describe: 'replay: with --case, the fast-check path of the shrunk case (from its folder)',
      })
      .option('load', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe: 'module file(s) exporting `suites`, besides the suites of gen.config.ts (e.g. a test fixture)',
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
      .option('farm', {
        type: 'string',
        describe:
          'run on a farm: enqueue the shards on this Redis (redis://[user:password@]host:port, rediss:// for TLS) for gen worker processes (docs/farm.md)',
      })
      .option('queue', { type: 'string', default: DEFAULT_FARM_QUEUE, describe: "with --farm: the farm's queue" })
      .option('farm-shards', {
        type: 'string',
        coerce: (text: unknown) => (text === undefined ? undefined : integerOption('farm-shards', text, { min: 1 })),
        describe: 'with --farm: shards per suite × engine (default: one per 2,000 cases)',
      })
      .option('farm-timeout', {
        type: 'string',
        coerce: (text: unknown) => integerOption('farm-timeout', text, { min: 1 }),
        default: 30,
        describe: 'with --farm: seconds Redis may stay unreachable before the run stops (exit 1)',
      })
      .option('time-budget', {
        type: 'string',
        coerce: (text: unknown) => (text === undefined ? undefined : integerOption('time-budget', text, { min: 1 })),
        describe:
          'seconds after which no new chunk of cases starts: the run reports the cases it ran (a nightly run of "as many as fit")',
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
    if (args.replay !== undefined) Object.assign(args, replayArguments(args));
    // Here --design files are suite files (a design's file may export its `suites` too).
    const project = await projectOf({ design: [] });
    const load = [...args.load, ...args.design].map((file) => resolve(file));
    const { suites: known, sources } = await projectSuites(project, load);
    // The suite files that also export module definitions: `gen sim` of a saved stimulus needs them.
    const designFiles = await filesWithModules(load);
    const suites = selectSuites(known, args.suite ?? 'all');
    const startedAt = new Date();
    const seed = args.seed ?? Date.now() % 2 ** 31;
    const runs = wholeNumber('runs', args.runs, 1);
    const out = outputFolder(project, args.out, 'regress');
    // Before the run, not after it: a read-only --junit folder fails now.
    preflightFiles([
      args.junit === undefined ? undefined : resolve(args.junit),
      args.coverage === undefined ? undefined : resolve(args.coverage),
    ]);
    preflightFolders([out]);
    if (args.mutate) {
      await runMutation({ suites, runs, seed, mutants: wholeNumber('mutants', args.mutants, 1), out });
      return;
    }
    if (args.path !== undefined && args.case === undefined) throw new UserError('--path needs --case');
    const engines = parseEngines(args.engine ?? project.defaults.engine ?? 'ts');
    // Replay commands are typed where the user is: `npx gen`, paths relative to here.
    const here = (file: string): string => {
      const path = relative(process.cwd(), file);
      return path === '' ? '.' : path.startsWith('..') ? file : path;
    };
    const fileArguments = [
      ...args.design.map((file) => ` --design ${here(resolve(file))}`),
      ...args.load.map((file) => ` --load ${here(resolve(file))}`),
    ].join('');
    // Workers beyond the cores or the memory only slow the run down or exhaust the machine.
    const capped = capJobs(args.jobs === undefined ? autoJobs(runs) : wholeNumber('jobs', args.jobs, 1));
    const checked = {
      shard: shardOf(args),
      jobs: capped.jobs,
      shrinkTimeMs: wholeNumber('shrink-time', args['shrink-time'], 0),
      maxSavedFailures: wholeNumber('max-saved', args['max-saved'], 0),
    };
    if (capped.note !== undefined) process.stderr.write(`gen regress: ${capped.note}\n`);
    process.stderr.write(`gen regress: seed ${seed} (replay the whole run: --seed ${seed})\n`);
    const regression: RegressionOptions = {
      ...checked,
      suites,
      engines,
      runs,
      seed,
      out,
      sources,
      ...(args.coverage === undefined ? {} : { coverage: true }),
      ...(args['time-budget'] === undefined ? {} : { timeBudgetMs: args['time-budget'] * 1000 }),
      replayCommand: (suite, engine, caseIndex, path, folder) =>
        folder !== undefined
          ? `npx gen regress --replay ${here(folder)}`
          : `npx gen regress --suite ${suite} --engine ${engine} --seed ${seed} --case ${caseIndex}${path === undefined ? '' : ` --path ${path}`}${fileArguments} --out ${here(out)}`,
      simCommand: (top, params, vectors) =>
        `npx gen sim --top ${top}${Object.entries(params)
          .map(([name, value]) => ` --param ${name}=${value}`)
          .join('')} --vectors ${here(vectors)}${designFiles.map((file) => ` --design ${here(file)}`).join('')}`,
      ...(args.case === undefined
        ? {}
        : {
            replay: {
              caseIndex: wholeNumber('case', args.case, 0),
              ...(args.path === undefined ? {} : { path: args.path }),
            },
          }),
    };
    const results =
      args.farm === undefined
        ? await runRegression(regression)
        : await (await import('../../../verif/regress/farm/submitFarm.ts')).runOnFarm(regression, farmOf(args, runs));
    process.stdout.write(`${summaryTable(results)}\n`);
    for (const run of results.filter((result) => result.stopped !== undefined))
      process.stderr.write(`gen regress: ${run.suite} on ${run.engine}: ${run.stopped}\n`);
    if (args.junit) await writeJunit(resolve(args.junit), results, { seed, startedAt });
    if (args.coverage !== undefined && args.case !== undefined)
      process.stderr.write('gen regress: --coverage is not collected when one case is replayed\n');
    if (args.coverage !== undefined && args.case === undefined) {
      const coverage = {
        format: 'gen-coverage/1' as const,
        seed,
        runs,
        shards: [`${checked.shard.index}/${checked.shard.count}`],
        suites: results.flatMap((run) => (run.coverage ? [run.coverage] : [])),
      };
      writeCoverageFile(resolve(args.coverage), coverage);
      const page = writeCoveragePage(resolve(args.coverage), coverage);
      process.stdout.write(`${coverageSummary(coverage)}\ncoverage: ${here(resolve(args.coverage))}, ${here(page)}\n`);
    }
    const failures = results.flatMap((run) => run.failures.map((failure) => ({ run, failure })));
    for (const { run, failure } of failures.slice(0, MAX_LISTED_FAILURES))
      process.stdout.write(
        `FAIL ${run.suite} on ${run.engine}, case ${failure.caseIndex}: ${failure.message}\n  replay: ${failure.replay}\n${failure.folder ? `  saved: ${here(failure.folder)}\n` : ''}`,
      );
    if (failures.length > MAX_LISTED_FAILURES)
      process.stdout.write(
        `… and ${failures.length - MAX_LISTED_FAILURES} more failing cases (--junit lists them all)\n`,
      );
    if (failures.length > 0) throw new UserError(`${failures.length} failing case(s); see above`);
  },
};

/** Cases per farm shard by default: a shard is a few seconds of work, so a dead worker costs little. */
const FARM_SHARD_CASES = 2_000;

/** `--farm URL` and its options, checked: what a run on the farm needs. */
function farmOf(args: RegressArguments, runs: number): FarmOptions {
  for (const [given, name] of [
    [args.shard !== '1/1' || args['shard-from-env'], '--shard'],
    [args.case !== undefined, '--case'],
    [args['time-budget'] !== undefined, '--time-budget'],
  ] as const)
    if (given) throw new UserError(`--farm splits the run itself; leave out ${name}`);
  return {
    connection: parseFarmUrl(args.farm!),
    queue: args.queue,
    shards: args['farm-shards'] ?? Math.ceil(runs / FARM_SHARD_CASES),
    unreachableMs: args['farm-timeout'] * 1000,
  };
}

/** `--shard i/n`, or with `--shard-from-env` the array task's shard (said on stderr). */
function shardOf(args: RegressArguments): Shard {
  if (!args['shard-from-env']) {
    if (args['shard-count'] !== undefined) throw new UserError('--shard-count goes with --shard-from-env');
    return parseShard(args.shard);
  }
  if (args.shard !== '1/1') throw new UserError('give --shard or --shard-from-env, not both');
  const { shard, scheduler } = shardFromEnvironment(process.env, args['shard-count']);
  process.stderr.write(`gen regress: shard ${shard.index}/${shard.count} from ${scheduler}'s array task\n`);
  return shard;
}

/**
 * `--replay FOLDER`: the options that rerun a saved failure (its suite, engine, run seed, case
 * and shrunk path from case.json), writing its folder again in place. `--design`/`--load` are the
 * user's (the printed replay command carries those of the original run).
 */
function replayArguments(args: RegressArguments): Partial<RegressArguments> {
  const folder = resolve(args.replay!);
  const file = join(folder, FAILURE_FILES.case);
  if (!existsSync(file))
    throw new UserError(
      `--replay ${args.replay}: no ${FAILURE_FILES.case} there (give a failure folder, OUT/<suite>-<engine>-<seed>/case-<k>)`,
    );
  for (const name of ['suite', 'engine', 'seed', 'case', 'path', 'mutate', 'shard'] as const)
    if (
      args[name] !== undefined &&
      !(name === 'mutate' && args.mutate === false) &&
      !(name === 'shard' && args.shard === '1/1')
    )
      throw new UserError(`--replay takes the ${name} from the folder; leave out --${name}`);
  const text = readUserText(file);
  let saved: FailureIdentity;
  try {
    saved = JSON.parse(text) as FailureIdentity;
  } catch (error) {
    throw new UserError(`${file}: not a failure record (${(error as Error).message})`);
  }
  // The folder is OUT/<suite>-<engine>-<seed>/case-<k>: the rerun saves into it again.
  return {
    suite: saved.suite,
    engine: saved.engine,
    seed: saved.runSeed,
    case: saved.caseIndex,
    path: saved.path,
    out: args.out ?? dirname(dirname(folder)),
    load: [...args.load, ...(saved.suiteFiles ?? []).map((path) => resolve(projectRoot(), path))].filter(
      (path, index, all) => all.indexOf(path) === index,
    ),
  };
}
