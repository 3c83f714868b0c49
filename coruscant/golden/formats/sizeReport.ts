import { lineChartSvg } from '../../../api/plugin.ts';
import { randomSparseStrips } from '../pruning/randomMask.ts';
import type { Fp16Matrix } from '../matrix.ts';
import {
  exactSizes,
  MEASURE_STRIP_ROWS,
  measureMatrix,
  paperSizes,
  SIZE_FORMATS,
  StripMeasurer,
  stripsOf,
  type Accounting,
  type MeasuredMatrix,
  type SizeFormat,
} from './sizes.ts';

/**
 * The data behind `gen formats` and the paper's Fig. 3: sizes of an M×K FP16 matrix in each
 * format, per sparsity and accounting, for one of two kinds of matrix:
 * - `random`: a seeded uniform random mask of exactly each sparsity (Fig. 3's setting). Paper
 *   sizes are formulas; such a mask is not 2:4, so 2:4 is not applicable in either accounting;
 * - `pruned`: a real weight matrix pruned to each sparsity (e.g. magnitude or Wanda). Both
 *   accountings take 2:4 applicability from the pruned matrix.
 */
export interface SizeEntry {
  readonly accounting: Accounting;
  readonly sparsity: number;
  readonly format: SizeFormat;
  /** null = not applicable to this matrix. */
  readonly bytes: number | null;
  readonly percentOfDense: number | null;
}

export type MatrixSource =
  | { readonly kind: 'random'; readonly rows: number; readonly cols: number; readonly seed: number }
  | {
      readonly kind: 'pruned';
      readonly weights: Fp16Matrix;
      /** Returns the weights pruned to the sparsity. */
      readonly prune: (weights: Fp16Matrix, sparsity: number) => Fp16Matrix;
      /** Shown in reports, e.g. "W.npy, magnitude-pruned". */
      readonly description: string;
    };

export interface SizeReport {
  readonly rows: number;
  readonly cols: number;
  readonly denseBytes: number;
  /** What was measured: "uniform random mask, seed 1" or the pruned source's description. */
  readonly matrix: string;
  readonly sparsities: readonly number[];
  readonly accountings: readonly Accounting[];
  readonly entries: readonly SizeEntry[];
}

export interface SizeReportRequest {
  readonly source: MatrixSource;
  readonly sparsities: readonly number[];
  readonly accountings: readonly Accounting[];
  /** Called once per measured 128-row strip of a random mask (all sparsities together), or per pruned sparsity. */
  readonly onProgress?: () => void;
}

/** Computes every requested (accounting, sparsity, format) size. */
export function computeSizeReport(request: SizeReportRequest): SizeReport {
  const { source, sparsities, accountings } = request;
  const [rows, cols] =
    source.kind === 'random' ? [source.rows, source.cols] : [source.weights.rows, source.weights.cols];
  // A random mask needs measuring only for the exact accounting; a pruned matrix always, since
  // its 2:4 applicability is the matrix's.
  const measured =
    source.kind === 'pruned'
      ? measurePruned(source, request)
      : accountings.includes('exact')
        ? measureRandomMasks(source, request)
        : undefined;
  const entries: SizeEntry[] = [];
  sparsities.forEach((sparsity, i) => {
    const matrix = measured?.[i];
    for (const accounting of accountings) {
      const sizes =
        accounting === 'paper'
          ? paperSizes(rows, cols, sparsity, source.kind === 'pruned' && matrix!.satisfies24)
          : exactSizes(matrix!);
      for (const size of sizes) entries.push({ accounting, sparsity, ...size });
    }
  });
  const matrix = source.kind === 'random' ? `uniform random mask, seed ${source.seed}` : source.description;
  return { rows, cols, denseBytes: 2 * rows * cols, matrix, sparsities, accountings, entries };
}

/** One seeded random mask per sparsity, generated and measured together strip by strip. */
function measureRandomMasks(
  source: { rows: number; cols: number; seed: number },
  request: SizeReportRequest,
): MeasuredMatrix[] {
  const measurers = request.sparsities.map(() => new StripMeasurer());
  for (const strips of randomSparseStrips(
    source.rows,
    source.cols,
    request.sparsities,
    source.seed,
    MEASURE_STRIP_ROWS,
  )) {
    strips.forEach((strip, i) => measurers[i]!.add(strip));
    request.onProgress?.();
  }
  return measurers.map((m) => m.result());
}

/** The weights pruned to each sparsity, measured. */
function measurePruned(
  source: Extract<MatrixSource, { kind: 'pruned' }>,
  request: SizeReportRequest,
): MeasuredMatrix[] {
  return request.sparsities.map((sparsity) => {
    const measured = measureMatrix(stripsOf(source.prune(source.weights, sparsity)));
    request.onProgress?.();
    return measured;
  });
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
    lines.push(
      `${report.rows}×${report.cols} FP16 (${report.matrix}), size as % of dense (${ACCOUNTING_NOTES[accounting]})`,
    );
    lines.push(['format'.padEnd(10), ...report.sparsities.map((s) => percentLabel(s).padStart(9))].join(''));
    for (const format of SIZE_FORMATS) {
      const cells = report.sparsities.map((sparsity) => {
        const entry = report.entries.find(
          (e) => e.accounting === accounting && e.format === format && e.sparsity === sparsity,
        );
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
      y:
        report.entries.find((e) => e.accounting === accounting && e.format === format && e.sparsity === sparsity)
          ?.percentOfDense ?? null,
    })),
  })).filter((s) => s.points.some((p) => p.y !== null));
  return lineChartSvg({
    title: `Storage of a ${report.rows}×${report.cols} FP16 matrix (${report.matrix}; ${accounting} accounting)`,
    xLabel: 'sparsity (%)',
    yLabel: 'size (% of dense)',
    series,
    referenceLines: [{ y: 100, label: 'dense (100 %)' }],
    yIncludes: [0],
    formatX: (x) => `${Math.round(x * 10) / 10}`,
  });
}
