import { integerOption, quoteValue } from '../../api/plugin.ts';
import type { CommandModule } from 'yargs';
import { UserError } from '../../api/plugin.ts';
import { writeFileAtomic } from '../../api/plugin.ts';
import { startProgress } from '../../api/plugin.ts';
import {
  computeSizeReport,
  renderSizeChart,
  renderSizeTable,
  type MatrixSource,
} from '../golden/formats/sizeReport.ts';
import { MEASURE_STRIP_ROWS, type Accounting } from '../golden/formats/sizes.ts';
import { magnitudePrune, wandaPrune } from '../golden/pruning/prune.ts';
import { checkSparsity } from '../golden/pruning/sparsity.ts';
import { readActivationNormsNpy, readWeightsNpy } from '../golden/pruning/weightsFile.ts';
import { formatsDecodeCommand, formatsEncodeCommand } from './formatsFiles.ts';

interface FormatsArgs {
  shape?: string;
  sparsity: string;
  accounting: Accounting | 'both';
  json: boolean;
  svg?: string;
  seed: number;
  weights?: string;
  prune: 'magnitude' | 'wanda';
  norms?: string;
}

const DEFAULT_SHAPE = '9216x9216';
/** Largest side we accept: keeps 16-bit paper indices meaningful and a run to seconds. */
const MAX_SIDE = 65_536;

function parseShape(text: string): { rows: number; cols: number } {
  const match = /^(\d+)x(\d+)$/.exec(text.trim());
  const [rows, cols] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(rows >= 1 && cols >= 1 && rows <= MAX_SIDE && cols <= MAX_SIDE)) {
    throw new UserError(`--shape must be MxK with 1 ≤ M, K ≤ ${MAX_SIDE} (e.g. 9216x9216), got ${quoteValue(text)}`);
  }
  return { rows, cols };
}

function parseSparsities(text: string): number[] {
  const values = text.split(',').map((part) => {
    const value = part.trim() === '' ? NaN : Number(part);
    if (Number.isNaN(value))
      throw new UserError(`--sparsity must be a comma-separated list of numbers in [0, 1), got ${quoteValue(text)}`);
    checkSparsity(value);
    return value;
  });
  return [...new Set(values)].sort((a, b) => a - b);
}

/** The matrix to measure: a seeded random mask of --shape, or the --weights file pruned by --prune. */
function matrixSource(argv: FormatsArgs): MatrixSource {
  if (argv.weights === undefined) {
    if (argv.norms !== undefined) throw new UserError('--norms needs --weights (and --prune wanda)');
    return { kind: 'random', ...parseShape(argv.shape ?? DEFAULT_SHAPE), seed: argv.seed };
  }
  if (argv.shape !== undefined)
    throw new UserError('--shape and --weights exclude each other: the weights have their own shape');
  // Option combinations first, so a mistake is reported before any file is read.
  if (argv.prune === 'magnitude' && argv.norms !== undefined)
    throw new UserError('--norms is only used by --prune wanda');
  if (argv.prune === 'wanda' && argv.norms === undefined)
    throw new UserError('--prune wanda needs --norms (a 1-D .npy of per-input-channel activation norms)');
  const weights = readWeightsNpy(argv.weights);
  if (argv.norms === undefined)
    return { kind: 'pruned', weights, prune: magnitudePrune, description: `${argv.weights}, magnitude-pruned` };
  const norms = readActivationNormsNpy(argv.norms, weights.cols);
  return {
    kind: 'pruned',
    weights,
    prune: (w, s) => wandaPrune(w, norms, s),
    description: `${argv.weights}, Wanda-pruned`,
  };
}

export const formatsCommand: CommandModule<object, FormatsArgs> = {
  command: 'formats',
  builder: (yargs) =>
    yargs
      .command(formatsEncodeCommand)
      .command(formatsDecodeCommand)
      .option('shape', {
        type: 'string',
        describe: `shape MxK (rows × columns) of the random mask measured [default: ${DEFAULT_SHAPE}]`,
      })
      .option('sparsity', {
        type: 'string',
        default: '0.3,0.4,0.5,0.6,0.7',
        describe: 'comma-separated sparsities in [0, 1)',
      })
      .option('accounting', {
        choices: ['paper', 'exact', 'both'] as const,
        default: 'both' as const,
        describe:
          'paper: 16-bit indices/pointers, no padding (formulas); exact: bytes as the real encoders lay them out, padding and offsets included, measured on the matrix',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print machine-readable JSON instead of tables' })
      .option('svg', {
        type: 'string',
        describe: 'also write a Fig. 3-style line chart here (paper accounting when computed, else exact), atomically',
      })
      .option('seed', {
        type: 'string',
        coerce: (text: unknown) => integerOption('seed', text),
        default: 1,
        describe: 'seed of the random masks (exactly round(s·M·K) zeros each)',
      })
      .option('weights', {
        type: 'string',
        describe:
          'measure this 2-D float16/float32 .npy weight matrix (M outputs × K inputs) pruned to each sparsity, instead of a random mask',
      })
      .option('prune', {
        choices: ['magnitude', 'wanda'] as const,
        default: 'magnitude' as const,
        describe: 'how --weights is pruned: |W| per matrix, or Wanda |W|·‖X_j‖ per row',
      })
      .option('norms', {
        type: 'string',
        describe: "for --prune wanda: 1-D float32/float64 .npy of the K input channels' activation norms ‖X_j‖₂",
      }),
  handler: (argv) => {
    // Validate everything before any work or output, so a mistake leaves nothing behind.
    const sparsities = parseSparsities(argv.sparsity);
    if (!Number.isSafeInteger(argv.seed)) throw new UserError(`--seed must be an integer, got ${argv.seed}`);
    const source = matrixSource(argv);
    const accountings: Accounting[] = argv.accounting === 'both' ? ['paper', 'exact'] : [argv.accounting];
    const steps =
      source.kind === 'pruned'
        ? sparsities.length
        : accountings.includes('exact')
          ? Math.ceil(source.rows / MEASURE_STRIP_ROWS)
          : 0;
    const progress = startProgress('measuring', steps);
    const report = computeSizeReport({ source, sparsities, accountings, onProgress: () => progress.tick() });
    progress.stop();
    if (argv.svg !== undefined) writeFileAtomic(argv.svg, renderSizeChart(report));
    process.stdout.write(argv.json ? `${JSON.stringify(report, null, 2)}\n` : renderSizeTable(report));
    if (argv.svg !== undefined && !argv.json) process.stdout.write(`wrote ${argv.svg}\n`);
  },
};
