import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileFormatError, UserError } from '../../../../common/errors.ts';
import { encodeKernelFormat } from '../../../../coruscant/golden/formats/kernelFormat.ts';
import {
  KERNEL_FILES,
  readKernelFormatDir,
  writeKernelFormatDir,
} from '../../../../coruscant/golden/formats/kernelFormatFiles.ts';
import { encodeStc } from '../../../../coruscant/golden/formats/stcFormat.ts';
import { readStcDir, writeStcDir } from '../../../../coruscant/golden/formats/stcFormatFiles.ts';
import { arbitraryFp16Matrix, firstDifference, propertySeed } from './arbitraryMatrix.ts';

const seed = propertySeed('tests/golden/formats/kernelFormatFiles.test.ts');
const scratch = mkdtempSync(join(tmpdir(), 'kernel-format-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The 64×2 example of the layout test: column 0 rows 0, 3, 63; column 1 row 1. */
function example() {
  const bits = new Uint16Array(128);
  bits[0] = 0x3c00;
  bits[3 * 2] = 0x8000;
  bits[63 * 2] = 0x7e00;
  bits[1 * 2 + 1] = 0x4000;
  return encodeKernelFormat({ rows: 64, cols: 2, bits });
}

function writtenExample(name: string): string {
  const dir = join(scratch, name);
  writeKernelFormatDir(dir, example());
  return dir;
}

describe('kernel format files', () => {
  it('writes the arrays little-endian, exactly as the CUDA kernel reads them', () => {
    const dir = writtenExample('bytes');
    expect(readdirSync(dir).sort()).toEqual(['bitmaps.bin', 'header.json', 'offsets.bin', 'values.bin']);
    expect([...readFileSync(join(dir, KERNEL_FILES.bitmaps))]).toEqual([
      1, 0, 0, 0, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 0, 0, 0x40,
    ]);
    expect([...readFileSync(join(dir, KERNEL_FILES.offsets))]).toEqual([0, 0, 0, 0, 4, 0, 0, 0, 8, 0, 0, 0]);
    expect([...readFileSync(join(dir, KERNEL_FILES.values)).subarray(0, 8)]).toEqual([
      0x00, 0x3c, 0x00, 0x80, 0x00, 0x7e, 0x00, 0x00,
    ]);
    expect(JSON.parse(readFileSync(join(dir, KERNEL_FILES.header), 'utf8'))).toMatchObject({
      rows: 64,
      cols: 2,
      tiles: 2,
      valueWords: 8,
    });
  });

  it('round-trips any matrix through files', () => {
    let n = 0;
    fc.assert(
      fc.property(arbitraryFp16Matrix(100), (matrix) => {
        const format = encodeKernelFormat(matrix);
        const dir = join(scratch, `roundtrip-${n++ % 3}`);
        writeKernelFormatDir(dir, format); // also exercises replacing an existing directory
        const back = readKernelFormatDir(dir);
        expect([back.rows, back.cols]).toEqual([matrix.rows, matrix.cols]);
        expect(firstDifference(back.bitmaps, format.bitmaps)).toBe(-1);
        expect(firstDifference(back.offsets, format.offsets)).toBe(-1);
        expect(firstDifference(back.values, format.values)).toBe(-1);
      }),
      { seed, numRuns: 30 },
    );
    expect(readdirSync(scratch).filter((name) => /\.(staging|previous)-/.test(name))).toEqual([]);
  });

  const corruptions: [what: string, file: string, corrupt: (bytes: Buffer) => Buffer, message: RegExp][] = [
    ['a truncated bitmap file', KERNEL_FILES.bitmaps, (b) => b.subarray(0, 12), /bitmaps\.bin: expected 16 bytes/],
    [
      'an offset that disagrees with the popcount',
      KERNEL_FILES.offsets,
      (b) => (b.writeUInt32LE(3, 4), b),
      /offsets\.bin \(byte 4\): entry 1 is 3, expected 4/,
    ],
    [
      'nonzero padding',
      KERNEL_FILES.values,
      (b) => (b.writeUInt32LE(7, 12), b),
      /values\.bin \(byte 12\): tile 0 has nonzero padding/,
    ],
    [
      'a marked value that is 0x0000',
      KERNEL_FILES.values,
      (b) => (b.writeUInt16LE(0, 16), b),
      /values\.bin \(byte 16\): tile 1: marked value 0 is 0x0000/,
    ],
    ['a header that is not JSON', KERNEL_FILES.header, () => Buffer.from('{ rows: '), /header\.json: not valid JSON/],
    [
      'a header with the wrong tile count',
      KERNEL_FILES.header,
      (b) => Buffer.from(b.toString().replace('"tiles": 2', '"tiles": 3')),
      /header\.json: "tiles" is 3/,
    ],
  ];
  it.each(corruptions)('rejects %s with a FileFormatError naming the file', (_what, file, corrupt, message) => {
    const dir = writtenExample(`corrupt-${file}`);
    writeFileSync(join(dir, file), corrupt(readFileSync(join(dir, file))));
    expect(() => readKernelFormatDir(dir)).toThrow(FileFormatError);
    expect(() => readKernelFormatDir(dir)).toThrow(message);
  });

  it('rejects bits set in padded rows past M', () => {
    const format = encodeKernelFormat({ rows: 3, cols: 1, bits: Uint16Array.of(1, 0, 0) });
    const dir = join(scratch, 'padded-rows');
    writeKernelFormatDir(dir, { ...format, bitmaps: BigUint64Array.of(format.bitmaps[0]! | 1n) });
    expect(() => readKernelFormatDir(dir)).toThrow(/bitmaps\.bin \(byte 0\): tile 0 marks rows past M=3/);
  });

  it('names a missing file and refuses to overwrite a foreign directory', () => {
    const dir = writtenExample('missing');
    rmSync(join(dir, KERNEL_FILES.values));
    expect(() => readKernelFormatDir(dir)).toThrow(/values\.bin: cannot read: ENOENT/);
    const foreign = join(scratch, 'foreign');
    writtenExample('foreign');
    writeFileSync(join(foreign, 'notes.txt'), 'mine');
    expect(() => writeKernelFormatDir(foreign, example())).toThrow(UserError);
    expect(readFileSync(join(foreign, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('writes and checks the device padding, and reads a directory without header.json given the shape', () => {
    const dir = join(scratch, 'padded');
    writeKernelFormatDir(dir, example(), { devicePadding: true });
    expect(readFileSync(join(dir, KERNEL_FILES.values)).byteLength).toBe(4 * (8 + 4));
    expect(JSON.parse(readFileSync(join(dir, KERNEL_FILES.header), 'utf8'))).toMatchObject({
      valueWords: 8,
      paddingWords: 4,
    });
    expect(readKernelFormatDir(dir).values).toEqual(example().values);
    rmSync(join(dir, KERNEL_FILES.header));
    expect(() => readKernelFormatDir(dir)).toThrow(/header\.json: missing; give the shape/);
    expect(readKernelFormatDir(dir, { shape: { rows: 64, cols: 2 } }).values).toEqual(example().values);
    const values = readFileSync(join(dir, KERNEL_FILES.values));
    values.writeUInt32LE(1, 40);
    writeFileSync(join(dir, KERNEL_FILES.values), values);
    expect(() => readKernelFormatDir(dir, { shape: { rows: 64, cols: 2 } })).toThrow(
      /values\.bin \(byte 40\): nonzero device padding/,
    );
  });

  it('round-trips the STC format through files and rejects bits for columns past K', () => {
    fc.assert(
      fc.property(arbitraryFp16Matrix(90), (matrix) => {
        const stc = encodeStc(matrix);
        const dir = join(scratch, 'stc');
        writeStcDir(dir, stc);
        expect(readStcDir(dir)).toEqual(stc);
      }),
      { seed, numRuns: 20 },
    );
    const dir = join(scratch, 'stc-outside');
    const stc = encodeStc({ rows: 1, cols: 3, bits: Uint16Array.of(1, 0, 2) });
    writeStcDir(dir, { ...stc, tiles: [{ bitmap: stc.tiles[0]!.bitmap | 8n, values: Uint16Array.of(1, 2, 3) }] });
    expect(() => readStcDir(dir)).toThrow(/bitmaps\.bin \(byte 0\): tile 0 marks columns past K=3/);
  });
});
