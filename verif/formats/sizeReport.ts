import { lineChartSvg } from '../../common/svgChart.ts';
import { randomSparseStrips } from '../pruning/randomMask.ts';
import { exactSizes, MEASURE_STRIP_ROWS, paperSizes, SIZE_FORMATS, StripMeasurer, type Accounting, type MeasuredMatrix, type SizeFormat } from './sizes.ts';

/**
 * The data behind `gen formats` and the paper's Fig. 3: sizes of a rows×cols FP16 matrix in each
 * format, per sparsity and accounting. Exact sizes come from measuring a seeded random mask of
 * exactly that sparsity; paper sizes from the formulas (for a uniform unstructured mask, which is
 * not 2:4, so 2:4 is not applicable there).
 */
export interface SizeEntry {
  readonly accounting: Accounting;
  readonly sparsity: number;
  readonly format: SizeFormat;
  /** null = not applicable to this matrix. */
  readonly bytes: number | null;
  readonly percentOfDense: number | null;
}

export interface SizeReport {
  readonly rows: number;
  readonly cols: number;
  readonly denseBytes: number;
  readonly seed: number;
  readonly sparsities: readonly number[];
  readonly accountings: readonly Accounting[];
  readonly entries: readonly SizeEntry[];
}

export interface SizeReportRequest {
  readonly rows: number;
  readonly cols: number;
  readonly sparsities: readonly number[];
  readonly accountings: readonly Accounting[];
  readonly seed: number;
  /** Called once per measured strip height (all sparsities together), for a progress bar. */
  readonly onStrip?: () => void;
}

/** Computes every requested (accounting, sparsity, format) size. */
export function computeSizeReport(request: SizeReportRequest): SizeReport {
  const { rows, cols, sparsities, accountings, seed } = request;
  const measured = accountings.includes('exact') ? measureRandomMasks(request) : [];
  const entries: SizeEntry[] = [];
  sparsities.forEach((sparsity, i) => {
    for (const accounting of accountings) {
      const sizes = accounting === 'paper' ? paperSizes(rows, cols, sparsity, false) : exactSizes(measured[i]!);
      for (const size of sizes) entries.push({ accounting, sparsity, ...size });
    }
  });
  return { rows, cols, denseBytes: 2 * rows * cols, seed, sparsities, accountings, entries };
}

/** One seeded random mask per sparsity, generated and measured together strip by strip. */
function measureRandomMasks(request: SizeReportRequest): MeasuredMatrix[] {
  const measurers = request.sparsities.map(() => new StripMeasurer());
  for (const strips of randomSparseStrips(request.rows, request.cols, request.sparsities, request.seed, MEASURE_STRIP_ROWS)) {
    strips.forEach((strip, i) => measurers[i]!.add(strip));
    request.onStrip?.();
  }
  return measurers.map((m) => m.result());
}

function percentLabel(sparsity: number): string {
  return `${Math.round(sparsity * 1000) / 10}%`;
}

const ACCOUNTING_NOTES: Record<Accounting, string> = {
  paper: 'paper accounting: 16-bit indices and pointers, no padding',
  exact: 'exact accounting: measured encodings, padding and offsets included',
};

/** The report as plain-text tables, one per accounting: formats down, sparsities across. */
export function renderSizeTable(report: SizeReport): string {
  const lines: string[] = [];
  for (const accounting of report.accountings) {
    lines.push(`${report.rows}×${report.cols} FP16, size as % of dense (${ACCOUNTING_NOTES[accounting]})`);
    lines.push(['format'.padEnd(10), ...report.sparsities.map((s) => percentLabel(s).padStart(9))].join(''));
    for (const format of SIZE_FORMATS) {
      const cells = report.sparsities.map((sparsity) => {
        const entry = report.entries.find((e) => e.accounting === accounting && e.format === format && e.sparsity === sparsity);
        return (entry?.percentOfDense == null ? 'n/a' : entry.percentOfDense.toFixed(2)).padStart(9);
      });
      lines.push([format.padEnd(10), ...cells].join(''));
    }
    lines.push('');
  }
  return lines.join('\n');
}

/**
 * A Fig. 3-style chart: size % vs sparsity, one line per format, the 100 % dense line marked.
 * It shows one accounting — the paper's when it was computed, else the exact one.
 */
export function renderSizeChart(report: SizeReport): string {
  const accounting: Accounting = report.accountings.includes('paper') ? 'paper' : 'exact';
  const series = SIZE_FORMATS.map((format) => ({
    name: format,
    points: report.sparsities.map((sparsity) => ({
      x: sparsity * 100,
      y: report.entries.find((e) => e.accounting === accounting && e.format === format && e.sparsity === sparsity)?.percentOfDense ?? null,
    })),
  })).filter((s) => s.points.some((p) => p.y !== null));
  return lineChartSvg({
    title: `Storage of a ${report.rows}×${report.cols} FP16 matrix (${accounting} accounting)`,
    xLabel: 'sparsity (%)',
    yLabel: 'size (% of dense)',
    series,
    referenceLines: [{ y: 100, label: 'dense (100 %)' }],
    yIncludes: [0],
    formatX: (x) => `${Math.round(x * 10) / 10}`,
  });
}
