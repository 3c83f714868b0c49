import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decodeKernelFormat,
  encodeKernelFormat,
  kernelFormatBytes,
  kernelTileValues,
} from '../../../../coruscant/golden/formats/kernelFormat.ts';
import type { Fp16Matrix } from '../../../../coruscant/golden/matrix.ts';
import { arbitraryFp16Matrix, firstDifference, propertySeed } from './arbitraryMatrix.ts';

const seed = propertySeed('tests/golden/formats/kernelFormat.test.ts');

function matrixWith(rows: number, cols: number, entries: [row: number, col: number, bits: number][]): Fp16Matrix {
  const bits = new Uint16Array(rows * cols);
  for (const [row, col, value] of entries) bits[row * cols + col] = value;
  return { rows, cols, bits };
}

describe('Coruscant kernel format (docs/spec.md §3.1)', () => {
  it('lays out a hand-worked 64×2 example byte for byte', () => {
    // Column 0: rows 0, 3, 63 hold 1.0, −0, NaN; column 1: row 1 holds 2.0.
    const matrix = matrixWith(64, 2, [
      [0, 0, 0x3c00],
      [3, 0, 0x8000],
      [63, 0, 0x7e00],
      [1, 1, 0x4000],
    ]);
    const format = encodeKernelFormat(matrix);
    // MSB first: row 0 ↔ bit 63, row 3 ↔ bit 60, row 63 ↔ bit 0.
    expect([...format.bitmaps]).toEqual([0x9000_0000_0000_0001n, 0x4000_0000_0000_0000n]);
    // 3 halves pad to 8 (4 words), 1 half pads to 8: offsets in uint32 units.
    expect([...format.offsets]).toEqual([0, 4, 8]);
    // First half of each pair in the low 16 bits; −0 is kept as a value.
    expect([...format.values]).toEqual([0x8000_3c00, 0x0000_7e00, 0, 0, 0x0000_4000, 0, 0, 0]);
    expect(kernelFormatBytes(format)).toBe(2 * 8 + 3 * 4 + 8 * 4);
  });

  it('orders tiles row-block outer, column inner, and pads M to a multiple of 64', () => {
    // 65×3: two row blocks; row 64 (block 1, tile row 0) of column 2 is the only entry of tile 5.
    const matrix = matrixWith(65, 3, [
      [64, 2, 0x1234],
      [0, 1, 0xabcd],
    ]);
    const format = encodeKernelFormat(matrix);
    expect(format.bitmaps.length).toBe(6);
    expect([...format.bitmaps]).toEqual([0n, 1n << 63n, 0n, 0n, 0n, 1n << 63n]);
    expect([...format.offsets]).toEqual([0, 0, 4, 4, 4, 4, 8]);
    expect([...kernelTileValues(format, 5)]).toEqual([0x1234]);
    expect([...kernelTileValues(format, 1)]).toEqual([0xabcd]);
  });

  it('packs a full tile into 32 words with no padding', () => {
    const bits = Uint16Array.from({ length: 64 }, (_, row) => row + 1);
    const format = encodeKernelFormat({ rows: 64, cols: 1, bits });
    expect(format.bitmaps[0]).toBe(0xffff_ffff_ffff_ffffn);
    expect([...format.offsets]).toEqual([0, 32]);
    expect(format.values[0]).toBe(0x0002_0001);
    expect(format.values[31]).toBe(0x0040_003f);
  });

  it('round-trips any matrix bit-exactly, with offsets and padding as specified', () => {
    fc.assert(
      fc.property(arbitraryFp16Matrix(), (matrix) => {
        const format = encodeKernelFormat(matrix);
        const decoded = decodeKernelFormat(format);
        expect(decoded.rows).toBe(matrix.rows);
        expect(decoded.cols).toBe(matrix.cols);
        expect(firstDifference(decoded.bits, matrix.bits)).toBe(-1);
        expect(format.bitmaps.length).toBe(Math.ceil(matrix.rows / 64) * matrix.cols);
        expect(format.offsets[0]).toBe(0);
        const badTile = format.bitmaps.findIndex((_, t) => {
          const padHalves = (format.offsets[t + 1]! - format.offsets[t]!) * 2 - kernelTileValues(format, t).length;
          return padHalves < 0 || padHalves >= 8 || (padHalves + kernelTileValues(format, t).length) % 8 !== 0;
        });
        expect(badTile).toBe(-1);
        expect(format.values.length).toBe(format.offsets[format.bitmaps.length]);
      }),
      { seed, numRuns: 150 },
    );
  });
});
