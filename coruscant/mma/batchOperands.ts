/**
 * Reads the operands of a batch of MMAs from .npy files for `gen mma`. A is T×m×k (or m×k for one
 * MMA); B and C are either per MMA (T×k×n, T×m×n) or one matrix shared by every MMA (k×n, m×n:
 * broadcast). C defaults to +0. Every mistake is a UserError naming the file.
 */
import { FileFormatError } from '../../api/plugin.ts';
import { readNpy, type NpyArray } from '../golden/io/npy.ts';
import type { Fp16Matrix, Fp32Matrix } from '../golden/matrix.ts';
import { MMA_SHAPES, type MmaMode } from './registerImages.ts';

export interface MmaBatch {
  /** Number of MMAs. */
  readonly count: number;
  /** Whether A was 3-D (D is then written 3-D too). */
  readonly batched: boolean;
  readonly A: Fp16Matrix[];
  readonly B: Fp16Matrix[];
  readonly C: Fp32Matrix[];
}

const shapeText = (shape: readonly number[]): string => shape.join('×');

/** Slices of a 2-D or 3-D array as matrices of rows × cols; `count` copies when 2-D (broadcast). */
function matrices<T extends Uint16Array | Uint32Array>(
  file: string,
  array: NpyArray,
  data: T,
  rows: number,
  cols: number,
  count: number | undefined,
): { rows: number; cols: number; bits: T }[] {
  const { shape } = array;
  const expected =
    count === undefined ? `${rows}×${cols} or T×${rows}×${cols}` : `${rows}×${cols} or ${count}×${rows}×${cols}`;
  const fits =
    shape.length === 2
      ? shape[0] === rows && shape[1] === cols
      : shape.length === 3 && shape[1] === rows && shape[2] === cols && (count === undefined || shape[0] === count);
  if (!fits) throw new FileFormatError(file, `shape ${shapeText(shape)} does not fit: expected ${expected}`);
  const slices = shape.length === 3 ? shape[0]! : (count ?? 1);
  const size = rows * cols;
  return Array.from({ length: slices }, (_, index) => ({
    rows,
    cols,
    bits: (shape.length === 3 ? data.subarray(index * size, (index + 1) * size) : data) as T,
  }));
}

function requireDtype(file: string, array: NpyArray, dtype: 'float16' | 'float32'): void {
  if (array.dtype !== dtype) throw new FileFormatError(file, `expected ${dtype}, found ${array.dtype}`);
}

/** Reads A, B and (optionally) C for `mode`; see the file comment for the shapes accepted. */
export function readMmaBatch(mode: MmaMode, files: { a: string; b: string; c?: string }): MmaBatch {
  const { m, n, k } = MMA_SHAPES[mode];
  const a = readNpy(files.a);
  requireDtype(files.a, a, 'float16');
  const A = matrices(files.a, a, a.data as Uint16Array, m, k, undefined);
  if (A.length === 0) throw new FileFormatError(files.a, 'holds no MMA (T = 0)');
  const b = readNpy(files.b);
  requireDtype(files.b, b, 'float16');
  const B = matrices(files.b, b, b.data as Uint16Array, k, n, A.length);
  let C: Fp32Matrix[];
  if (files.c === undefined) C = A.map(() => ({ rows: m, cols: n, bits: new Uint32Array(m * n) }));
  else {
    const c = readNpy(files.c);
    requireDtype(files.c, c, 'float32');
    const data = c.data as Float32Array;
    C = matrices(files.c, c, new Uint32Array(data.buffer, data.byteOffset, data.length), m, n, A.length);
  }
  return { count: A.length, batched: a.shape.length === 3, A, B, C };
}
