import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeKernelFormat } from '../../../../coruscant/golden/formats/kernelFormat.ts';
import {
  decodeStc,
  encodeStc,
  kernelToStc,
  stcThreadRegisters,
  stcToKernel,
} from '../../../../coruscant/golden/formats/stcFormat.ts';
import { arbitraryFp16Matrix, firstDifference, propertySeed } from './arbitraryMatrix.ts';

const seed = propertySeed('tests/golden/formats/stcFormat.test.ts');

describe('Coruscant STC format (docs/spec.md §3.2)', () => {
  it('lays out a hand-worked 2×70 example', () => {
    const bits = new Uint16Array(2 * 70);
    bits[0] = 0x3c00; // row 0, column 0
    bits[5] = 0x8000; // row 0, column 5 (−0 is a value)
    bits[64] = 0x4000; // row 0, column 64: second tile, bit 0
    bits[69] = 0x7e00; // row 0, column 69: the last real column of the padded tile
    bits[70 + 63] = 0xc000; // row 1, column 63: bit 63
    const stc = encodeStc({ rows: 2, cols: 70, bits });
    expect(stc.tilesPerRow).toBe(2);
    expect(stc.tiles.map((t) => t.bitmap)).toEqual([0x21n, 0x21n, 1n << 63n, 0n]);
    expect(stc.tiles.map((t) => [...t.values])).toEqual([[0x3c00, 0x8000], [0x4000, 0x7e00], [0xc000], []]);
    const registers = stcThreadRegisters(stc.tiles[0]!);
    expect(registers.bitmapLo).toBe(0x21);
    expect(registers.bitmapHi).toBe(0);
    expect(registers.values.length).toBe(32);
    expect(registers.values[0]).toBe(0x8000_3c00);
    expect([...registers.values.subarray(1)].every((r) => r === 0)).toBe(true);
    const last = stcThreadRegisters(stc.tiles[2]!);
    expect(last.bitmapHi).toBe(0x8000_0000);
    expect(last.values[0]).toBe(0xc000);
  });

  it('places value v in register v >> 1, low half when v is even, for a full tile', () => {
    const bits = Uint16Array.from({ length: 64 }, (_, c) => 0x100 + c);
    const registers = stcThreadRegisters(encodeStc({ rows: 1, cols: 64, bits }).tiles[0]!);
    expect(registers.bitmapLo).toBe(0xffff_ffff);
    expect(registers.bitmapHi).toBe(0xffff_ffff);
    for (let v = 0; v < 64; v++) {
      const register = registers.values[v >> 1]!;
      expect(v % 2 === 0 ? register & 0xffff : register >>> 16).toBe(0x100 + v);
    }
  });

  it('round-trips any matrix bit-exactly', () => {
    fc.assert(
      fc.property(arbitraryFp16Matrix(), (matrix) => {
        const stc = encodeStc(matrix);
        expect(stc.tiles.length).toBe(matrix.rows * Math.ceil(matrix.cols / 64));
        const badTile = stc.tiles.findIndex((tile) => {
          const registers = stcThreadRegisters(tile);
          return ((BigInt(registers.bitmapHi) << 32n) | BigInt(registers.bitmapLo)) !== tile.bitmap;
        });
        expect(badTile).toBe(-1);
        expect(firstDifference(decodeStc(stc).bits, matrix.bits)).toBe(-1);
      }),
      { seed, numRuns: 150 },
    );
  });

  it('converts kernel ↔ STC exactly', () => {
    fc.assert(
      fc.property(arbitraryFp16Matrix(), (matrix) => {
        const kernel = encodeKernelFormat(matrix);
        const stc = kernelToStc(kernel);
        const direct = encodeStc(matrix);
        expect(
          stc.tiles.findIndex(
            (tile, i) =>
              tile.bitmap !== direct.tiles[i]!.bitmap || firstDifference(tile.values, direct.tiles[i]!.values) !== -1,
          ),
        ).toBe(-1);
        expect(stc.tiles.length).toBe(direct.tiles.length);
        const back = stcToKernel(stc);
        expect([back.rows, back.cols]).toEqual([kernel.rows, kernel.cols]);
        expect(firstDifference(back.bitmaps, kernel.bitmaps)).toBe(-1);
        expect(firstDifference(back.offsets, kernel.offsets)).toBe(-1);
        expect(firstDifference(back.values, kernel.values)).toBe(-1);
      }),
      { seed, numRuns: 100 },
    );
  });

  it('rejects tiles whose values disagree with the bitmap', () => {
    const stc = encodeStc({ rows: 1, cols: 3, bits: Uint16Array.of(1, 0, 2) });
    expect(() => decodeStc({ ...stc, tiles: [{ bitmap: 0b101n, values: Uint16Array.of(1) }] })).toThrow(
      /1 values for 2 bitmap bits/,
    );
    expect(() => decodeStc({ ...stc, tiles: [{ bitmap: 0b1001n, values: Uint16Array.of(1, 2) }] })).toThrow(/past K=3/);
  });
});
