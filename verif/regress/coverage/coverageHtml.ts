import { escapeHtml, PAGE_STYLE, tableHtml } from '../../../common/htmlPage.ts';
import { writeFileAtomic } from '../../../common/atomicWrite.ts';
import type { CoverageFile, SuiteCoverage } from './data.ts';
import { coverageSummary, goalStatuses, toggleFigures, type GoalStatus } from './summary.ts';

/** The coverage page's file next to a coverage JSON: `coverage.json` → `coverage.html`. */
export function coverageHtmlPath(jsonPath: string): string {
  return jsonPath.replace(/(\.json)?$/i, '.html');
}

/** Writes the coverage page next to the JSON at `jsonPath` (whole or not at all); returns its path. */
export function writeCoveragePage(jsonPath: string, file: CoverageFile): string {
  const path = coverageHtmlPath(jsonPath);
  writeFileAtomic(path, coverageHtml(file));
  return path;
}

const percent = (part: number, whole: number): string => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`);

const KIND_TITLE: Record<string, string> = {
  'fsm-states': 'FSM states',
  'fsm-transitions': 'FSM transitions',
  cross: 'cross',
};

/** The holes first: every missed bin and every illegal state or move, as a list a person closes one by one. */
function holesHtml(goals: readonly GoalStatus[]): string {
  const items = goals.flatMap((goal) => [
    ...(goal.illegal ?? []).map(
      ({ bin, hits }) =>
        `<li class="fail">ILLEGAL ${escapeHtml(`${goal.suite} on ${goal.engine}, ${goal.goal}: ${bin}`)} (${hits} times)</li>`,
    ),
    ...goal.missed.map(
      ({ bin, why }) =>
        `<li>${escapeHtml(`${goal.suite} on ${goal.engine}, ${goal.goal}: ${bin}`)}${why === undefined ? '' : ` <span class="meta">(${escapeHtml(why)})</span>`}</li>`,
    ),
  ]);
  return items.length === 0
    ? '<p class="pass">No holes: every bin was reached and no state register made an illegal move.</p>'
    : `<ul>\n${items.join('\n')}\n</ul>`;
}

/** One suite on one engine: a row per goal (kind, bins reached), and each goal's bins with their hits. */
function suiteHtml(coverage: SuiteCoverage): string {
  const toggles = toggleFigures(coverage);
  const goals = goalStatuses(coverage);
  const rows = goals.map((goal) => [
    escapeHtml(goal.goal),
    escapeHtml(
      goal.kind === undefined ? (goal.goal === 'cover points' ? 'cover points' : 'bins') : KIND_TITLE[goal.kind]!,
    ),
    `${goal.reached}/${goal.bins}`,
    percent(goal.reached, goal.bins),
  ]);
  const details = Object.entries(coverage.bins).map(([name, counts]) => {
    const cells = [
      ...Object.entries(counts.bins).map(([bin, hits]) => [
        escapeHtml(bin),
        hits === 0 ? '<span class="fail">0</span>' : String(hits),
      ]),
      ...Object.entries(counts.other).map(([bin, hits]) => [
        `${escapeHtml(bin)} <span class="meta">(${counts.kind?.startsWith('fsm') ? 'illegal' : 'other'})</span>`,
        String(hits),
      ]),
    ];
    return `<h4>${escapeHtml(name)}</h4>\n${tableHtml(['bin', 'hits'], cells, 'numeric')}`;
  });
  return [
    `<h3>${escapeHtml(coverage.suite)} on ${escapeHtml(coverage.engine)}</h3>`,
    `<p>Toggle coverage: ${toggles.both}/${toggles.bits} bits seen rising and falling (${percent(toggles.both, toggles.bits)}), ${toggles.signals} signals; ${coverage.caseIndices.length} cases.</p>`,
    rows.length === 0 ? '' : tableHtml(['goal', 'kind', 'reached', ''], rows, 'numeric'),
    ...details,
  ].join('\n');
}

/**
 * The coverage page `gen regress --coverage` writes next to its JSON: the holes to close first,
 * the summary table, then per suite × engine every goal's bins (the suites' bins, cover points,
 * FSM states and transitions, crosses). Self-contained, in the report's style.
 */
export function coverageHtml(file: CoverageFile): string {
  const goals = file.suites.flatMap(goalStatuses);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Coverage: seed ${file.seed}, ${file.runs} runs</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header>
<h1>Coverage</h1>
<p class="meta">Seed ${file.seed}, ${file.runs} runs, shards ${escapeHtml(file.shards.join(', '))}. The same figures are in the JSON next to this page.</p>
</header>
<main>
<section id="holes"><h2>Holes</h2>
${holesHtml(goals)}
</section>
<section id="summary"><h2>Summary</h2>
<pre class="reproduce">${escapeHtml(coverageSummary(file))}</pre>
</section>
<section id="suites"><h2>By suite and engine</h2>
${file.suites.map(suiteHtml).join('\n')}
</section>
</main>
</body>
</html>
`;
}
