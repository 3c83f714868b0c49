import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeTiledCsl, encodeTiledCsl, tiledCslBytes } from '../../../../coruscant/golden/formats/tiledCsl.ts';
import { arbitraryFp16Matrix, firstDifference, propertySeed } from './arbitraryMatrix.ts';

const seed = propertySeed('tests/golden/formats/tiledCsl.test.ts');

describe('Tiled-CSL (Flash-LLM) encoder', () => {
  it('lays out a hand-worked example: swizzled locations, ×4 padding at zero positions, int32 offsets +2', () => {
    const bits = new Uint16Array(2 * 3);
    bits[1 * 3 + 2] = 0x3c00; // row 1, column 2 → location 1·64 + (2 ^ (1 << 3)) = 74
    const format = encodeTiledCsl({ rows: 2, cols: 3, bits });
    expect([...format.items]).toEqual([0x3c00 | (74 << 16), 0 << 16, 1 << 16, 2 << 16]);
    expect([...format.tileOffsets]).toEqual([0, 1, 1]);
    expect(tiledCslBytes(format)).toBe(4 * 4 + 3 * 4);
  });

  it('round-trips any matrix (padding items decode to harmless zeros)', () => {
    fc.assert(
      fc.property(arbitraryFp16Matrix(300), (matrix) => {
        const format = encodeTiledCsl(matrix);
        expect(firstDifference(decodeTiledCsl(format).bits, matrix.bits)).toBe(-1);
        const tiles = format.tileOffsets.length - 2;
        expect(tiles).toBe(Math.ceil(matrix.rows / 128) * Math.ceil(matrix.cols / 64));
        expect(format.items.length).toBe(format.tileOffsets[tiles]! * 4);
        expect(format.tileOffsets[tiles + 1]).toBe(format.tileOffsets[tiles]);
      }),
      { seed, numRuns: 60 },
    );
  });
});
