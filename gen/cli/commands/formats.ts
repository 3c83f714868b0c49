import type { Argv, CommandModule } from 'yargs';
import { UserError } from '../../../common/errors.ts';
import { writeFileAtomic } from '../../../common/atomicWrite.ts';
import { startProgress } from '../../../common/progress.ts';
import { computeSizeReport, renderSizeChart, renderSizeTable } from '../../../verif/formats/sizeReport.ts';
import { MEASURE_STRIP_ROWS, type Accounting } from '../../../verif/formats/sizes.ts';
import { checkSparsity } from '../../../verif/pruning/sparsity.ts';

interface FormatsArgs {
  shape: string;
  sparsity: string;
  accounting: Accounting | 'both';
  json: boolean;
  svg?: string;
  seed: number;
}

/** Largest side we accept: keeps 16-bit paper indices meaningful and a run to seconds. */
const MAX_SIDE = 65_536;

function parseShape(text: string): { rows: number; cols: number } {
  const match = /^(\d+)x(\d+)$/.exec(text.trim());
  const [rows, cols] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(rows >= 1 && cols >= 1 && rows <= MAX_SIDE && cols <= MAX_SIDE)) {
    throw new UserError(`--shape must be MxK with 1 ≤ M, K ≤ ${MAX_SIDE} (e.g. 9216x9216), got "${text}"`);
  }
  return { rows, cols };
}

function parseSparsities(text: string): number[] {
  const values = text.split(',').map((part) => {
    const value = part.trim() === '' ? NaN : Number(part);
    if (Number.isNaN(value)) throw new UserError(`--sparsity must be a comma-separated list of numbers in [0, 1), got "${text}"`);
    checkSparsity(value);
    return value;
  });
  return [...new Set(values)].sort((a, b) => a - b);
}

export const formatsCommand: CommandModule<object, FormatsArgs> = {
  command: 'formats',
  describe: 'Storage size of a pruned FP16 matrix in CSR, CSC, COO, ELL, Tiled-CSL, 2:4 and Coruscant, as % of dense (paper Fig. 3)',
  builder: (yargs: Argv) =>
    yargs
      .option('shape', { type: 'string', default: '9216x9216', describe: 'matrix shape MxK (rows × columns)' })
      .option('sparsity', { type: 'string', default: '0.3,0.4,0.5,0.6,0.7', describe: 'comma-separated sparsities in [0, 1)' })
      .option('accounting', {
        choices: ['paper', 'exact', 'both'] as const,
        default: 'both' as const,
        describe:
          'paper: 16-bit indices/pointers, no padding (formulas); exact: bytes as the real encoders lay them out, padding and offsets included, measured on a seeded random mask of exactly that sparsity',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print machine-readable JSON instead of tables' })
      .option('svg', { type: 'string', describe: 'also write a Fig. 3-style line chart here (paper accounting when computed, else exact), atomically' })
      .option('seed', { type: 'number', default: 1, describe: 'seed of the random masks the exact accounting measures' }) as unknown as Argv<FormatsArgs>,
  handler: (argv) => {
    // Validate everything before any work or output, so a mistake leaves nothing behind.
    const { rows, cols } = parseShape(argv.shape);
    const sparsities = parseSparsities(argv.sparsity);
    if (!Number.isSafeInteger(argv.seed)) throw new UserError(`--seed must be an integer, got ${argv.seed}`);
    const accountings: Accounting[] = argv.accounting === 'both' ? ['paper', 'exact'] : [argv.accounting];
    const strips = accountings.includes('exact') ? Math.ceil(rows / MEASURE_STRIP_ROWS) : 0;
    const progress = startProgress('measuring', strips);
    const report = computeSizeReport({ rows, cols, sparsities, accountings, seed: argv.seed, onStrip: () => progress.tick() });
    progress.stop();
    if (argv.svg !== undefined) writeFileAtomic(argv.svg, renderSizeChart(report));
    process.stdout.write(argv.json ? `${JSON.stringify(report, null, 2)}\n` : renderSizeTable(report));
    if (argv.svg !== undefined && !argv.json) process.stdout.write(`wrote ${argv.svg}\n`);
  },
};
