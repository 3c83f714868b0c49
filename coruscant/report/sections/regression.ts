import { join } from 'node:path';
import type { EngineName } from '../../../api/engines.ts';
import { WHOLE } from '../../../api/regress.ts';
import { runRegression, type SuiteRun } from '../../../api/regress.ts';
import type { RegressSuite } from '../../../api/regress.ts';
import { availableEngines } from '../engines.ts';
import { escapeHtml, ShownNumbers, tableHtml } from '../html.ts';
import type { ReportSection, SectionContext, SectionResult } from '../../../api/plugin.ts';
import { coverageTotals } from '../../../api/regress.ts';
import { regressionFinding } from '../findings.ts';

const SEED = 1;

/** Cases per suite and engine: a smoke run, not a soak (`gen regress --runs 1000` is the soak). */
const runsFor = (context: SectionContext): number => (context.quick ? 3 : 10);

/**
 * Suite groups kept off the external engines, and why: their builds, not their cases, cost the
 * time (a first Verilator build of the whole MmaUnit takes minutes; a fuzz case is its own design,
 * so its own build). They still run on the in-process engine.
 */
const EXTERNAL_SKIPS: readonly { readonly group: string; readonly inQuickOnly: boolean; readonly why: string }[] = [
  { group: 'mma', inQuickOnly: true, why: 'a first Verilator or Icarus build of the 32-lane MmaUnit takes minutes' },
  { group: 'fuzz', inQuickOnly: false, why: 'every case is its own design and so its own build' },
];

const skippedOnExternal = (suite: RegressSuite, context: SectionContext): string | undefined =>
  EXTERNAL_SKIPS.find((skip) => suite.groups.includes(skip.group) && (context.quick || !skip.inQuickOnly))?.why;

const regressCommand = (suites: readonly RegressSuite[], all: number, engines: readonly EngineName[], runs: number): string =>
  `npx gen regress --suite ${suites.length === all ? 'all' : suites.map((suite) => suite.name).join(',')} --engine ${engines.join(',')} --runs ${runs} --seed ${SEED}`;

/** The (suites, engines) groups to run: every suite on the in-process engine, the cheap-to-build ones on the external engines too. */
function plan(context: SectionContext): { suites: RegressSuite[]; engines: EngineName[] }[] {
  const { available } = availableEngines();
  const external = available.filter((engine) => engine !== 'ts');
  const groups: { suites: RegressSuite[]; engines: EngineName[] }[] = [
    { suites: [...context.suites], engines: ['ts'] },
    { suites: context.suites.filter((suite) => skippedOnExternal(suite, context) === undefined), engines: external },
  ];
  return groups.filter((group) => group.engines.length > 0 && group.suites.length > 0);
}

/** One table cell: cases and failures of a suite on an engine. */
function cell(run: SuiteRun | undefined, shown: ShownNumbers, whyNot: string | undefined): string {
  if (run === undefined) return `<small>not run here: ${escapeHtml(whyNot ?? '')}</small>`;
  const key = `${run.suite}.${run.engine}`;
  const failures = run.failures.length;
  return (
    `<span class="${failures === 0 ? 'pass' : 'fail'}">${shown.show(`${key}.failures`, failures, 'integer')} failing</span> of ${shown.show(`${key}.cases`, run.cases, 'integer')}` +
    ` <small>(${shown.show(`${key}.seconds`, run.milliseconds / 1000, { digits: 2 })} s)</small>`
  );
}

/**
 * `gen regress` in small: every randomized equivalence suite (FP units, tensor lane, decoder
 * blocks) on every engine installed here, RTL against the golden models, seed fixed so the run
 * replays. Failing cases are listed with their replay command.
 */
export const regressionSection: ReportSection = {
  id: 'regression',
  title: 'Regression: RTL = golden model on every engine',
  reproduce: (context) => plan(context).map((group) => regressCommand(group.suites, context.suites.length, group.engines, runsFor(context))),
  run: async (context): Promise<SectionResult> => {
    const { available, missing } = availableEngines();
    const runs = runsFor(context);
    const results: SuiteRun[] = [];
    const replayCommand = (suite: string, engine: EngineName, caseIndex: number, path?: string): string =>
      `npx gen regress --suite ${suite} --engine ${engine} --seed ${SEED} --runs ${runs} --case ${caseIndex}${path ? ` --path ${path}` : ''}`;
    for (const group of plan(context)) {
      // Coverage on the in-process engine only: it samples nets directly, the external engines need a VCD per case.
      const coverage = group.engines.length === 1 && group.engines[0] === 'ts';
      const options = { ...group, runs, seed: SEED, shard: WHOLE, jobs: 1, out: join(context.scratch, 'regress'), shrinkTimeMs: 5_000, maxSavedFailures: 0, replayCommand, load: [], coverage };
      results.push(...(await runRegression(options)));
    }
    const shown = new ShownNumbers('regression');
    const rows = context.suites.map((suite) => [
      `<b>${escapeHtml(suite.name)}</b><br><small>${escapeHtml(suite.description)}</small>`,
      ...available.map((engine) => cell(results.find((run) => run.suite === suite.name && run.engine === engine), shown, skippedOnExternal(suite, context))),
    ]);
    const failures = results.flatMap((run) => run.failures.map((failure) => ({ run, failure })));
    const cases = results.reduce((sum, run) => sum + run.cases, 0);
    const covered = coverageTotals({ format: 'gen-coverage/1', seed: SEED, runs, shards: ['1/1'], suites: results.flatMap((run) => (run.coverage ? [run.coverage] : [])) });
    const percent = (part: number, whole: number): number => (whole === 0 ? 0 : (100 * part) / whole);
    const coverageLine =
      `Coverage on ts (<code>--coverage</code>): ${shown.show('coverage.toggledBits', covered.toggled, 'integer')} of ${shown.show('coverage.bits', covered.bits, 'integer')} named signal bits toggled both ways ` +
      `(${shown.show('coverage.togglePercent', percent(covered.toggled, covered.bits), { digits: 1 })} %), ${shown.show('coverage.binsReached', covered.reached, 'integer')} of ${shown.show('coverage.bins', covered.bins, 'integer')} goal bins reached ` +
      `(${shown.show('coverage.binPercent', percent(covered.reached, covered.bins), { digits: 1 })} %) in ${runs} cases per suite; docs/regressions.md has the closure at the default 100.`;
    const missedGoals = covered.goals.filter((goal) => goal.missed.length > 0);
    const html = [
      `<p>Every suite of <code>gen regress</code> on every engine installed here (seed ${SEED}, ${shown.show('runsPerSuite', runs, 'integer')} cases per suite and engine): ` +
        `the RTL's outputs equal the golden model's bit for bit in every checked cycle. ${shown.show('cases', cases, 'integer')} cases in all, ` +
        `<span class="${failures.length === 0 ? 'pass' : 'fail'}">${shown.show('failures', failures.length, 'integer')} failing</span>.` +
        `${missing.length > 0 ? ` Not installed, so not run: ${escapeHtml(missing.map((entry) => `${entry.engine} (${entry.program})`).join(', '))}.` : ''}</p>`,
      tableHtml(['suite', ...available], rows, 'numeric'),
      `<p>${coverageLine}</p>`,
      ...(missedGoals.length > 0
        ? [`<p class="note">Goal bins not reached in this smoke run:</p><ul>${missedGoals.map((goal) => `<li>${escapeHtml(`${goal.suite}, ${goal.goal}: ${goal.reached}/${goal.bins}; missed ${goal.missed.map((bin) => bin.bin).join(', ')}`)}</li>`).join('')}</ul>`]
        : []),
      ...(failures.length > 0
        ? [`<p class="note">Failing cases (replay each with its command):</p><ul>${failures.map(({ run, failure }) => `<li>${escapeHtml(`${run.suite} on ${run.engine}, case ${failure.caseIndex}: ${failure.message}`)}<br><code>${escapeHtml(failure.replay)}</code></li>`).join('')}</ul>`]
        : []),
    ].join('\n');
    return {
      numbers: shown.values,
      html,
      findings: [...[regressionFinding(shown.values)].filter((line) => line !== undefined), coverageLine],
      headline: `${context.suites.length} suites × ${available.length} engines (${available.join(', ')}), ${cases} cases, ${failures.length === 0 ? 'all equal to golden' : `${failures.length} failing`}`,
      ...(failures.length > 0 ? { failed: `${failures.length} regression case(s) differ from golden` } : {}),
    };
  },
};
