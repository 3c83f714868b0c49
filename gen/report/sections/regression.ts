import { join } from 'node:path';
import type { EngineName } from '../../../verif/engines/engine.ts';
import { WHOLE } from '../../../verif/regress/cases.ts';
import { runRegression, type SuiteRun } from '../../../verif/regress/regression.ts';
import { REGRESS_SUITES } from '../../../verif/regress/suites/index.ts';
import { availableEngines } from '../engines.ts';
import { escapeHtml, ShownNumbers, tableHtml } from '../html.ts';
import type { ReportSection, SectionContext, SectionResult } from '../types.ts';

const SEED = 1;

/** Cases per suite and engine: a smoke run, not a soak (`gen regress --runs 1000` is the soak). */
const runsFor = (context: SectionContext): number => (context.quick ? 3 : 20);

const regressCommand = (engines: readonly EngineName[], runs: number): string => `node bin/gen.js regress --suite all --engine ${engines.join(',')} --runs ${runs} --seed ${SEED}`;

/** One table cell: cases and failures of a suite on an engine. */
function cell(run: SuiteRun | undefined, shown: ShownNumbers): string {
  if (run === undefined) return '—';
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
  reproduce: (context) => [regressCommand(availableEngines().available, runsFor(context))],
  run: async (context): Promise<SectionResult> => {
    const { available, missing } = availableEngines();
    const runs = runsFor(context);
    const results = await runRegression({
      suites: REGRESS_SUITES,
      engines: available,
      runs,
      seed: SEED,
      shard: WHOLE,
      jobs: 1,
      out: join(context.scratch, 'regress'),
      shrinkTimeMs: 5_000,
      maxSavedFailures: 0,
      replayCommand: (suite, engine, caseIndex, path) => `node bin/gen.js regress --suite ${suite} --engine ${engine} --seed ${SEED} --runs ${runs} --case ${caseIndex}${path ? ` --path ${path}` : ''}`,
      load: [],
    });
    const shown = new ShownNumbers('regression');
    const rows = REGRESS_SUITES.map((suite) => [
      `<b>${escapeHtml(suite.name)}</b><br><small>${escapeHtml(suite.description)}</small>`,
      ...available.map((engine) => cell(results.find((run) => run.suite === suite.name && run.engine === engine), shown)),
    ]);
    const failures = results.flatMap((run) => run.failures.map((failure) => ({ run, failure })));
    const cases = results.reduce((sum, run) => sum + run.cases, 0);
    const html = [
      `<p>Every suite of <code>gen regress</code> on every engine installed here (seed ${SEED}, ${shown.show('runsPerSuite', runs, 'integer')} cases per suite and engine): ` +
        `the RTL's outputs equal the golden model's bit for bit in every checked cycle. ${shown.show('cases', cases, 'integer')} cases in all, ` +
        `<span class="${failures.length === 0 ? 'pass' : 'fail'}">${shown.show('failures', failures.length, 'integer')} failing</span>.` +
        `${missing.length > 0 ? ` Not installed, so not run: ${escapeHtml(missing.map((entry) => `${entry.engine} (${entry.program})`).join(', '))}.` : ''}</p>`,
      tableHtml(['suite', ...available], rows, 'numeric'),
      ...(failures.length > 0
        ? [`<p class="note">Failing cases (replay each with its command):</p><ul>${failures.map(({ run, failure }) => `<li>${escapeHtml(`${run.suite} on ${run.engine}, case ${failure.caseIndex}: ${failure.message}`)}<br><code>${escapeHtml(failure.replay)}</code></li>`).join('')}</ul>`]
        : []),
    ].join('\n');
    return {
      numbers: shown.values,
      html,
      headline: `${REGRESS_SUITES.length} suites × ${available.length} engines (${available.join(', ')}), ${cases} cases, ${failures.length === 0 ? 'all equal to golden' : `${failures.length} failing`}`,
      ...(failures.length > 0 ? { failed: `${failures.length} regression case(s) differ from golden` } : {}),
    };
  },
};
