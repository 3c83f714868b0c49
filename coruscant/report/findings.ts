import { escapeHtml, formatNumber, type NumberFormat } from './html.ts';

/**
 * The report's opening: what it found, one line per headline result, each linking to the section
 * that shows it. Every figure is taken from the numbers the sections recorded (summary.json) and
 * rendered with the same `data-key`/`data-value` marks, so the summary cannot drift from them.
 * A section with no summarizer here (a new one, e.g. coverage) contributes its own headline; a
 * skipped one says why.
 */

/** What the summary needs of a finished section. */
export interface FindingSource {
  readonly id: string;
  readonly title: string;
  readonly status: 'ok' | 'failed' | 'skipped';
  readonly headline: string;
}

type Numbers = Readonly<Record<string, number>>;

/** A number as the page shows it, marked with its summary.json key; undefined when the key is absent. */
function shown(numbers: Numbers, key: string, format: NumberFormat = { digits: 2 }): string | undefined {
  const value = numbers[key];
  if (value === undefined) return undefined;
  return `<span class="num" data-key="${escapeHtml(key)}" data-value="${value}">${formatNumber(value, format)}</span>`;
}

const keysMatching = (numbers: Numbers, pattern: RegExp): RegExpExecArray[] =>
  Object.keys(numbers).flatMap((key) => {
    const match = pattern.exec(key);
    return match ? [match] : [];
  });

/** The regression's line (the regression section also gives it first among its own `findings`). */
export function regressionFinding(numbers: Numbers): string | undefined {
  const cases = shown(numbers, 'regression.cases', 'integer');
  const failures = numbers['regression.failures'];
  if (cases === undefined || failures === undefined) return undefined;
  const perEngine = keysMatching(numbers, /^regression\.([^.]+)\.([^.]+)\.cases$/);
  const engines = [...new Set(perEngine.map((m) => m[2]!))];
  const suites = new Set(perEngine.map((m) => m[1]!)).size;
  const verdict =
    failures === 0
      ? `<span class="pass">equal to the golden models on every engine</span>`
      : `<span class="fail">${shown(numbers, 'regression.failures', 'integer')} ${failures === 1 ? 'case differs' : 'cases differ'} from the golden models</span>`;
  return `Regression: ${cases} cases of ${suites} suite${suites === 1 ? '' : 's'} on ${engines.length} engine${engines.length === 1 ? '' : 's'} (${escapeHtml(engines.join(', '))}), ${verdict}.`;
}

function formatsFinding(numbers: Numbers): string | undefined {
  const at50 = shown(numbers, 'formats.Coruscant.s50');
  const at70 = shown(numbers, 'formats.Coruscant.s70');
  if (at50 === undefined || at70 === undefined) return undefined;
  // The paper's Fig. 3 values for the Coruscant format at 50 % and 70 % sparsity.
  const paper = numbers['formats.Coruscant.s50'] === 56.25 && numbers['formats.Coruscant.s70'] === 36.25;
  const csr = shown(numbers, 'formats.CSR.s50');
  return (
    `Formats: the Coruscant bitmap format stores a 50 % / 70 % sparse FP16 matrix in ${at50} % / ${at70} % of the dense bytes` +
    (paper ? ', <span class="pass">as in the paper\'s Fig. 3</span>' : ' (the paper\'s Fig. 3: 56.25 % / 36.25 %)') +
    (csr === undefined ? '.' : `; CSR needs ${csr} % at 50 %.`)
  );
}

function synthesisFinding(numbers: Numbers): string | undefined {
  const totals = keysMatching(numbers, /^synthesis\.(BitmapDecoder[^.]*)\.total\.area45$/);
  const top = totals[0]?.[1];
  if (top === undefined) return undefined;
  const key = (part: string, field: string): string => `synthesis.${top}.${part}.${field}`;
  const parts = keysMatching(numbers, new RegExp(`^synthesis\\.${top}\\.([^.]+)\\.area45$`))
    .map((m) => m[1]!)
    .filter((part) => part !== 'total');
  // The largest block's share of the decoder's area and power.
  const largest = parts.sort((a, b) => numbers[key(b, 'area45')]! - numbers[key(a, 'area45')]!)[0];
  const share =
    largest === undefined
      ? ''
      : `; ${escapeHtml(largest)} is ${(100 * numbers[key(largest, 'area45')]! / numbers[key('total', 'area45')]!).toFixed(0)} % of its area and ` +
        `${(100 * numbers[key(largest, 'total45')]! / numbers[key('total', 'total45')]!).toFixed(0)} % of its power`;
  return (
    `Synthesis: the ${escapeHtml(top)} decoder takes ${shown(numbers, key('total', 'area45'), { digits: 1 })} µm² and ` +
    `${shown(numbers, key('total', 'total45'), { digits: 0 })} µW at 45 nm (${shown(numbers, key('total', 'areaTarget'), { digits: 1 })} µm², ` +
    `${shown(numbers, key('total', 'totalTarget'), { digits: 1 })} µW scaled to 7 nm)${share}.`
  );
}

function spmmFinding(numbers: Numbers, headline: string): string | undefined {
  const speedups = keysMatching(numbers, /^spmm\.([^.]+)\.s(\d+)\.stcOverDense$/).sort(
    (a, b) => a[1]!.localeCompare(b[1]!) || Number(a[2]) - Number(b[2]),
  );
  if (speedups.length === 0) return undefined;
  const profile = /model, ([^,]+),/.exec(headline)?.[1];
  const items = speedups.map((m) => {
    const paper = shown(numbers, `spmm.paper.s${m[2]}`);
    return `${shown(numbers, m[0])}× at ${m[2]} % on ${escapeHtml(m[1]!.replace('x', '×'))}${paper === undefined ? '' : ` (paper ${paper}×)`}`;
  });
  return `SpMM (model${profile ? `, ${escapeHtml(profile)}` : ''}, N = ${shown(numbers, 'spmm.n', 'integer') ?? '?'}): the Coruscant STC over dense ${items.join(', ')}; which resource bounds each kernel is in the section's table.`;
}

const SUMMARIZERS: Readonly<Record<string, (numbers: Numbers, headline: string) => string | undefined>> = {
  regression: regressionFinding,
  formats: formatsFinding,
  synthesis: synthesisFinding,
  spmm: spmmFinding,
};

/**
 * The findings list, in page order; the inventory (an appendix) is not a finding. A section's own
 * `findings` (SectionResult) win over what is derived here.
 */
export function findingsHtml(
  sections: readonly FindingSource[],
  numbers: Numbers,
  own: Readonly<Record<string, readonly string[]>> = {},
): string {
  const items = sections
    .filter((section) => section.id !== 'inventory')
    .map((section) => {
      const text =
        section.status === 'skipped'
          ? `${escapeHtml(section.title)}: not available here (${escapeHtml(section.headline)}).`
          : own[section.id] !== undefined && section.status === 'ok'
            ? own[section.id]!.join(' ')
            : section.status === 'failed'
            ? `${escapeHtml(section.title)}: <span class="fail">${escapeHtml(section.headline)}</span>.`
            : (SUMMARIZERS[section.id]?.(numbers, section.headline) ??
              `${escapeHtml(section.title)}: ${escapeHtml(section.headline)}.`);
      return `<li data-finding="${escapeHtml(section.id)}">${text} <a href="#${escapeHtml(section.id)}">more</a></li>`;
    });
  return `<div id="findings">\n<h2>What this report found</h2>\n<ul>\n${items.join('\n')}\n</ul>\n</div>`;
}
