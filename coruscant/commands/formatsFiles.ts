import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { UserError } from '../../api/plugin.ts';
import { writeNpy } from '../golden/io/npy.ts';
import type { Fp16Matrix } from '../golden/matrix.ts';
import {
  cudaReferenceMatrix,
  decodeKernelFormat,
  encodeKernelFormat,
  KERNEL_TILE_ROWS,
} from '../golden/formats/kernelFormat.ts';
import {
  DEVICE_PADDING_WORDS,
  KERNEL_FILES,
  readKernelFormatDir,
  writeKernelFormatDir,
  writeTileArraysDir,
} from '../golden/formats/kernelFormatFiles.ts';
import { decodeStc, encodeStc } from '../golden/formats/stcFormat.ts';
import { readStcDir, STC_FILE_LAYOUT, stcToArrays } from '../golden/formats/stcFormatFiles.ts';
import { readWeightsNpy } from '../golden/pruning/weightsFile.ts';
import { quoteValue, refuseFolderOverInputs, refuseOutputsOverInputs } from '../../api/plugin.ts';

/**
 * `gen formats encode` / `gen formats decode`: a dense .npy matrix to the kernel format's (or the
 * STC format's) three little-endian arrays in a directory, and back. The default is the
 * project's bit-exact encoding (−0 kept, a partial last row block padded); `--compat cuda` gives
 * exactly the bytes of the paper's reference encoder `InitSparseMatrixA_API_bmp_real`.
 */

type FileFormat = 'kernel' | 'stc';

interface EncodeArgs {
  a: string;
  out: string;
  format: FileFormat;
  compat: 'none' | 'cuda';
  partial: 'refuse' | 'drop';
  'device-padding': boolean;
}

interface DecodeArgs {
  in: string;
  out: string;
  format: FileFormat;
  shape?: string;
}

function parseShape(text: string): { rows: number; cols: number } {
  const match = /^(\d+)x(\d+)$/.exec(text.trim());
  const [rows, cols] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(Number.isSafeInteger(rows) && Number.isSafeInteger(cols) && rows >= 1 && cols >= 1)) {
    throw new UserError(`--shape must be MxK with M, K ≥ 1 (e.g. 4096x4096), got ${quoteValue(text)}`);
  }
  return { rows, cols };
}

const bytesOf = (file: string): number => statSync(file).size;

/** The matrix as the reference encoder would see it, with a warning for each change and a refusal by option. */
function cudaCompatible(file: string, matrix: Fp16Matrix, partial: EncodeArgs['partial']): Fp16Matrix {
  const reference = cudaReferenceMatrix(matrix);
  if (reference.droppedRows > 0) {
    if (partial === 'refuse') {
      throw new UserError(
        `${file}: M=${matrix.rows} is not a multiple of ${KERNEL_TILE_ROWS}; the reference encoder drops the last ${reference.droppedRows} rows — pass --partial drop to do the same, or leave out --compat cuda to keep them (padded)`,
      );
    }
    if (reference.matrix.rows === 0)
      throw new UserError(`${file}: M=${matrix.rows} leaves no full 64-row block to encode`);
    process.stderr.write(
      `warning: dropped the last ${reference.droppedRows} rows (M=${matrix.rows} is not a multiple of ${KERNEL_TILE_ROWS}), as the reference encoder does; the files hold ${reference.matrix.rows}×${matrix.cols}\n`,
    );
  }
  if (reference.negativeZeros > 0) {
    process.stderr.write(
      `warning: ${reference.negativeZeros} element${reference.negativeZeros === 1 ? ' is' : 's are'} −0 (0x8000), encoded as zero as the reference encoder does; decoding gives +0 there\n`,
    );
  }
  return reference.matrix;
}

export const formatsEncodeCommand: CommandModule<object, EncodeArgs> = {
  command: 'encode',
  describe:
    'Encode a 2-D .npy matrix into the kernel (or STC) format: bitmaps.bin, offsets.bin, values.bin, header.json',
  builder: (yargs) =>
    yargs
      .option('a', {
        type: 'string',
        demandOption: true,
        describe: 'the dense matrix: 2-D float16 .npy (float32 is rounded to FP16, nearest even)',
      })
      .option('out', { type: 'string', demandOption: true, describe: 'directory to write (replaced as a whole)' })
      .option('format', {
        choices: ['kernel', 'stc'] as const,
        default: 'kernel' as const,
        describe: 'kernel: 64×1 column tiles, MSB-first bitmaps (the CUDA kernel); stc: 1×64 row tiles, LSB first',
      })
      .option('compat', {
        choices: ['none', 'cuda'] as const,
        default: 'none' as const,
        describe:
          "cuda: the reference encoder's bytes (InitSparseMatrixA_API_bmp_real): −0 encoded as zero, a partial last row block refused or dropped (--partial); none: bit-exact round trip",
      })
      .option('partial', {
        choices: ['refuse', 'drop'] as const,
        default: 'refuse' as const,
        describe: 'with --compat cuda, when M is not a multiple of 64: refuse, or drop the partial row block (warning)',
      })
      .option('device-padding', {
        type: 'boolean',
        default: false,
        describe: `append ${DEVICE_PADDING_WORDS} zero words (16 bytes) to values.bin: the reference kernel loads one vector past a tile whose nonzero count is a multiple of 8`,
      }),
  handler: (argv) => {
    if (argv.compat === 'cuda' && argv.format === 'stc') {
      throw new UserError(
        "--compat cuda applies to --format kernel: the paper's CUDA STC kernel also takes the kernel format (InitSparseMatrixA_API_bmp_real)",
      );
    }
    if (argv.partial === 'drop' && argv.compat !== 'cuda')
      throw new UserError('--partial is for --compat cuda; without it a partial last row block is padded');
    refuseFolderOverInputs({ '--a': argv.a }, { name: '--out', path: argv.out });
    const dense = readWeightsNpy(argv.a);
    const matrix = argv.compat === 'cuda' ? cudaCompatible(argv.a, dense, argv.partial) : dense;
    const options = { devicePadding: argv['device-padding'] };
    let tiles: number;
    let valueWords: number;
    if (argv.format === 'kernel') {
      const format = encodeKernelFormat(matrix);
      writeKernelFormatDir(argv.out, format, options);
      [tiles, valueWords] = [format.bitmaps.length, format.values.length];
    } else {
      const arrays = stcToArrays(encodeStc(matrix));
      writeTileArraysDir(argv.out, STC_FILE_LAYOUT, arrays, options);
      [tiles, valueWords] = [arrays.bitmaps.length, arrays.values.length];
    }
    const sizes = [KERNEL_FILES.bitmaps, KERNEL_FILES.offsets, KERNEL_FILES.values]
      .map((name) => `${name} ${bytesOf(join(argv.out, name))} B`)
      .join(', ');
    process.stdout.write(
      `wrote ${argv.out}: ${argv.format} format of a ${matrix.rows}×${matrix.cols} matrix, ${tiles} tiles, ${valueWords} value words${options.devicePadding ? ` + ${DEVICE_PADDING_WORDS} device padding` : ''} (${sizes})\n`,
    );
  },
};

export const formatsDecodeCommand: CommandModule<object, DecodeArgs> = {
  command: 'decode',
  describe: 'Decode a kernel- (or STC-) format directory back into a float16 .npy matrix',
  builder: (yargs) =>
    yargs
      .option('in', {
        type: 'string',
        demandOption: true,
        describe: 'directory with bitmaps.bin, offsets.bin, values.bin',
      })
      .option('out', { type: 'string', demandOption: true, describe: 'the float16 .npy to write (atomically)' })
      .option('format', {
        choices: ['kernel', 'stc'] as const,
        default: 'kernel' as const,
        describe: 'the layout of the arrays (see gen formats encode)',
      })
      .option('shape', {
        type: 'string',
        describe:
          'MxK of the matrix: needed when there is no header.json (as the CUDA encoder leaves it), checked when there is',
      }),
  handler: (argv) => {
    const options = argv.shape === undefined ? {} : { shape: parseShape(argv.shape) };
    refuseOutputsOverInputs(
      Object.fromEntries(Object.values(KERNEL_FILES).map((name) => [name, join(argv.in, name)])),
      { '--out': argv.out },
    );
    const matrix =
      argv.format === 'kernel'
        ? decodeKernelFormat(readKernelFormatDir(argv.in, options))
        : decodeStc(readStcDir(argv.in, options));
    writeNpy(argv.out, 'float16', [matrix.rows, matrix.cols], matrix.bits);
    let nonzeros = 0;
    for (const half of matrix.bits) if (half !== 0) nonzeros++;
    process.stdout.write(`wrote ${argv.out}: ${matrix.rows}×${matrix.cols} float16, ${nonzeros} nonzeros\n`);
  },
};
