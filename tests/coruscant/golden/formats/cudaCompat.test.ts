import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  cudaReferenceMatrix,
  encodeKernelFormat,
  type KernelFormat,
} from '../../../../coruscant/golden/formats/kernelFormat.ts';
import { arbitraryFp16Matrix, propertySeed } from './arbitraryMatrix.ts';
import { referenceLayout } from './referenceEncoder.ts';

const seed = propertySeed('tests/golden/formats/cudaCompat.test.ts');

/** The three arrays as the little-endian bytes a file (or cudaMemcpy) holds. */
function bytesOf(format: KernelFormat): { bitmaps: Buffer; offsets: Buffer; values: Buffer } {
  const le = (array: BigUint64Array | Uint32Array): Buffer => {
    const out = Buffer.alloc(array.byteLength);
    array.forEach((x: bigint | number, i: number) =>
      typeof x === 'bigint' ? out.writeBigUInt64LE(x, i * 8) : out.writeUInt32LE(x, i * 4),
    );
    return out;
  };
  return { bitmaps: le(format.bitmaps), offsets: le(format.offsets), values: le(format.values) };
}

describe('the reference encoder (InitSparseMatrixA_API_bmp_real) reproduced', () => {
  it('encodes any matrix to the reference layout once −0 is a zero and a partial row block is dropped', () => {
    fc.assert(
      fc.property(arbitraryFp16Matrix(200), (matrix) => {
        const reference = cudaReferenceMatrix(matrix);
        const kept = Math.floor(matrix.rows / 64) * 64;
        expect(reference.droppedRows).toBe(matrix.rows - kept);
        expect(reference.negativeZeros).toBe(
          matrix.bits.subarray(0, kept * matrix.cols).filter((b) => b === 0x8000).length,
        );
        expect(bytesOf(encodeKernelFormat(reference.matrix))).toEqual(
          referenceLayout(matrix.rows, matrix.cols, matrix.bits),
        );
      }),
      { seed, numRuns: 60 },
    );
  });

  it('changes nothing for a matrix without −0 and with M a multiple of 64', () => {
    fc.assert(
      fc.property(arbitraryFp16Matrix(150), fc.integer({ min: 1, max: 3 }), (matrix, blocks) => {
        const rows = 64 * blocks;
        const bits = Uint16Array.from({ length: rows * matrix.cols }, (_, i) => {
          const half = matrix.bits[i % matrix.bits.length]!;
          return half === 0x8000 ? 0 : half;
        });
        const reference = cudaReferenceMatrix({ rows, cols: matrix.cols, bits });
        expect([reference.negativeZeros, reference.droppedRows]).toEqual([0, 0]);
        expect(reference.matrix.bits).toEqual(bits);
        expect(bytesOf(encodeKernelFormat({ rows, cols: matrix.cols, bits }))).toEqual(
          referenceLayout(rows, matrix.cols, bits),
        );
      }),
      { seed, numRuns: 30 },
    );
  });
});
