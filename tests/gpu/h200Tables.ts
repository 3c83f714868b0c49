/**
 * Prints what the H200 tests hold, as Markdown: the probes' and the calibration table's memory rows,
 * the SpMM cells of the calibration table and every other cell the harness ran on the H200, each
 * with the model's figure, silicon's and the error, then the ranges and counts that
 * docs/system-model.md's "Where issue #32's targets stand" quotes. The figures are the tests' own
 * (the same rows, cells and comparisons); the tests hold the bounds. `footprints` and `parallelism`
 * add the second batch's whole stream sweeps, of which the tests hold PROBE_STREAMS' configurations.
 *
 * Usage: npx tsx tests/gpu/h200Tables.ts [rows|cells|harness|footprints|parallelism]…   (all when none is named)
 */
import { H200_PROBE_ROWS, H200_SILICON_ROWS, modelValue, probeSweepRows, type SiliconRow } from './h200Silicon.ts';
import {
  calibrationCells,
  type CellComparison,
  describeCell,
  PAPER_KERNELS,
  harnessCells,
  percentError,
} from './system/h200Cells.ts';

/** One memory row as a table line: its name, silicon, the model and the error (and a known miss's bound). */
function rowLine(row: SiliconRow): { line: string; error: number } {
  const model = modelValue(row);
  const error = model / row.silicon - 1;
  const miss = row.knownMiss ? `known miss, held to ${Math.round(100 * row.knownMiss.tolerance)} %` : '';
  return {
    line: `| ${row.name} | ${+row.silicon.toFixed(1)} ${row.unit} | ${model.toFixed(1)} | ${percentError(model / row.silicon)} | ${miss} |`,
    error,
  };
}

function printRows(title: string, rows: readonly SiliconRow[]): void {
  console.log(`\n### ${title}\n\n| row | silicon | model | error | |\n|---|---:|---:|---:|---|`);
  let within = 0;
  for (const row of rows) {
    const { line, error } = rowLine(row);
    console.log(line);
    if (Math.abs(error) < 0.1) within++;
  }
  console.log(`\n${within} of ${rows.length} within 10 %.`);
}

/** The range of model / silicon − 1 over some cells, as the docs quote it ('−6.5 … +8.5 %'). */
function range(ratios: readonly number[]): string {
  if (ratios.length === 0) return '–';
  const low = Math.min(...ratios);
  const high = Math.max(...ratios);
  return `${percentError(low).replace(' %', '')} … ${percentError(high)}`;
}

/** How many of some errors (model / silicon) lie within 15 %, as 'n of N within 15 %'. */
function within15(ratios: readonly number[]): string {
  return `${ratios.filter((ratio) => Math.abs(ratio - 1) < 0.15).length} of ${ratios.length} within 15 %`;
}

function printCells(title: string, cells: readonly CellComparison[]): void {
  console.log(`\n### ${title}\n`);
  for (const cell of cells) console.log(`- ${describeCell(cell)}`);
  console.log('\n| kernel | times | ratios to cuBLAS | winners |\n|---|---|---|---|');
  for (const kernel of ['dense', ...PAPER_KERNELS] as const) {
    const mine = cells.filter((cell) => cell.kernel === kernel);
    const timeErrors = mine.map((cell) => cell.modelUs / cell.siliconUs);
    const withRatios = mine.filter((cell) => cell.ratios);
    const ratioErrors = withRatios.map((cell) => cell.ratios!.model / cell.ratios!.silicon);
    const ratios = kernel === 'dense' ? '–' : `${range(ratioErrors)}; ${within15(ratioErrors)}`;
    const decided = withRatios.filter((cell) => cell.siliconWins !== undefined);
    const right = decided.filter((cell) => cell.ratios!.model > 1 === cell.siliconWins).length;
    const winners = kernel === 'dense' ? '–' : `${right} of ${decided.length} where silicon's runs agree`;
    console.log(`| ${kernel} | ${range(timeErrors)}; ${within15(timeErrors)} | ${ratios} | ${winners} |`);
  }
}

const SECTIONS: Record<string, () => void> = {
  rows: () => {
    printRows('The probes’ own configurations', H200_PROBE_ROWS);
    printRows('The calibration table (h200-silicon.md §1)', H200_SILICON_ROWS);
  },
  cells: () => printCells('The calibration cells (h200-silicon.md §2)', [7168, 9216].flatMap(calibrationCells)),
  harness: () => printCells("The harness's cells beyond the calibration table", harnessCells()),
  footprints: () =>
    printRows('The probe’s stream by footprint and mapping, every footprint', probeSweepRows('footprints')),
  parallelism: () =>
    printRows('The probe’s stream by warps and loads in flight at 24, 40 and 56 MiB', probeSweepRows('parallelism')),
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in SECTIONS));
if (unknown.length > 0) {
  console.error(`h200Tables: ${unknown.join(', ')}: give ${Object.keys(SECTIONS).join(', ')}, or nothing for all`);
  process.exit(1);
}
for (const name of asked.length > 0 ? asked : Object.keys(SECTIONS)) SECTIONS[name]!();
