import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FileFormatError } from '../../../../common/errors.ts';
import {
  encodeNpy,
  parseNpy,
  readFp16Matrix,
  readFp32Matrix,
  readNpy,
  writeFp32Matrix,
  writeNpy,
  type NpyArray,
  type NpyDtype,
} from '../../../../coruscant/golden/io/npy.ts';

const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2 ** 31);
console.log(
  `npy property tests: seed ${seed} (replay with FC_SEED=${seed} npx vitest run tests/golden/io/npy.test.ts)`,
);

const directory = mkdtempSync(join(tmpdir(), 'npy-test-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const bytesOf = (data: ArrayBufferView): Buffer => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/** Random data of each dtype, built from raw bytes so every bit pattern (NaNs, −0) can occur. */
const DATA_FROM_BYTES: Record<NpyDtype, (bytes: Uint8Array) => NpyArray['data']> = {
  float16: (b) => new Uint16Array(b.buffer),
  float32: (b) => new Float32Array(b.buffer),
  float64: (b) => new Float64Array(b.buffer),
  uint8: (b) => new Uint8Array(b.buffer),
  uint16: (b) => new Uint16Array(b.buffer),
  uint32: (b) => new Uint32Array(b.buffer),
  uint64: (b) => new BigUint64Array(b.buffer),
  int32: (b) => new Int32Array(b.buffer),
};
const ITEM_SIZE: Record<NpyDtype, number> = {
  float16: 2,
  float32: 4,
  float64: 8,
  uint8: 1,
  uint16: 2,
  uint32: 4,
  uint64: 8,
  int32: 4,
};
const DTYPE_NAMES = Object.keys(ITEM_SIZE) as NpyDtype[];

const arbitraryArray = fc
  .record({
    dtype: fc.constantFrom(...DTYPE_NAMES),
    shape: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 3 }),
  })
  .chain(({ dtype, shape }) => {
    const count = shape.reduce((p, d) => p * d, 1);
    return fc.uint8Array({ minLength: count * ITEM_SIZE[dtype], maxLength: count * ITEM_SIZE[dtype] }).map((bytes) => ({
      dtype,
      shape,
      data: DATA_FROM_BYTES[dtype](Uint8Array.from(bytes)),
    }));
  });

/** Re-frames a version 1.0 file as 2.0 (4-byte header length), keeping the data where numpy would find it. */
function asVersion2(v1: Uint8Array): Uint8Array {
  const headerLength = v1[8]! | (v1[9]! << 8);
  const out = new Uint8Array(v1.length + 2);
  out.set(v1.subarray(0, 8));
  out[6] = 2;
  new DataView(out.buffer).setUint32(8, headerLength, true);
  out.set(v1.subarray(10), 12);
  return out;
}

describe('npy codec', () => {
  it('round-trips every dtype and 1–3-dimensional shape bit for bit (v1.0 and v2.0 headers)', () => {
    fc.assert(
      fc.property(arbitraryArray, ({ dtype, shape, data }) => {
        const encoded = encodeNpy(dtype, shape, data as never);
        for (const bytes of [encoded, asVersion2(encoded)]) {
          const parsed = parseNpy(bytes, 'mem.npy');
          expect(parsed.dtype).toBe(dtype);
          expect(parsed.shape).toEqual(shape);
          expect(parsed.data.constructor).toBe(data.constructor);
          expect(bytesOf(parsed.data).equals(bytesOf(data))).toBe(true);
        }
      }),
      { seed, numRuns: 300 },
    );
  });

  it('aligns the data to 64 bytes (as numpy does) and writes files atomically that read back', () => {
    const path = join(directory, 'sub', 'a.npy');
    writeNpy(path, 'float16', [2, 3], Uint16Array.from([0x3c00, 0x8000, 0x7e01, 0x0001, 0xfc00, 0x7bff]));
    const bytes = readFileSync(path);
    expect(bytes.length).toBe(128 + 12);
    expect(bytes.subarray(10, 128).toString('latin1')).toMatch(
      /^\{'descr': '<f2', 'fortran_order': False, 'shape': \(2, 3\), \} *\n$/,
    );
    const back = readNpy(path);
    expect(back.dtype).toBe('float16');
    expect([...back.data]).toEqual([0x3c00, 0x8000, 0x7e01, 0x0001, 0xfc00, 0x7bff]);
  });

  it('accepts the single-byte spellings |u1 and <u1 and old Python 2 long shapes', () => {
    const file = encodeNpy('uint8', [3], Uint8Array.from([1, 2, 3]));
    const text = Buffer.from(file).toString('latin1');
    for (const variant of [text.replace("'|u1'", "'<u1'"), text.replace('(3,)', '(3L,)').replace(' \n', '\n')]) {
      const parsed = parseNpy(Buffer.from(variant, 'latin1'), 'v.npy');
      expect(parsed.dtype).toBe('uint8');
      expect([...parsed.data]).toEqual([1, 2, 3]);
    }
  });

  it('rejects the wrong data type handed to the writer', () => {
    expect(() => encodeNpy('float32', [2], new Uint16Array(2) as never)).toThrow(TypeError);
    expect(() => encodeNpy('float32', [3], new Float32Array(2))).toThrow(RangeError);
    expect(() => encodeNpy('float32', [1, 1, 1, 2], new Float32Array(2))).toThrow(RangeError);
  });
});

describe('matrix files', () => {
  it('keeps FP32 bit patterns (NaN payloads, −0) through write and read', () => {
    const path = join(directory, 'd.npy');
    const bits = Uint32Array.from([0x7fc00001, 0x80000000, 0x00000001, 0xff800000, 0x3f800000, 0x7f800001]);
    writeFp32Matrix(path, { rows: 2, cols: 3, bits });
    const back = readFp32Matrix(path);
    expect({ rows: back.rows, cols: back.cols, bits: [...back.bits] }).toEqual({ rows: 2, cols: 3, bits: [...bits] });
  });

  it('reads FP16 matrices as bits and names the file when the dtype or rank is wrong', () => {
    const f16 = join(directory, 'a16.npy');
    writeNpy(f16, 'float16', [1, 2], Uint16Array.from([0x7c01, 0x8001]));
    expect(readFp16Matrix(f16)).toEqual({ rows: 1, cols: 2, bits: Uint16Array.from([0x7c01, 0x8001]) });
    expect(() => readFp32Matrix(f16)).toThrow(
      /a16\.npy: expected a 2-D float32 matrix, found a 2-D float16 array of shape \(1, 2\)/,
    );
    const vector = join(directory, 'v16.npy');
    writeNpy(vector, 'float16', [2], Uint16Array.from([1, 2]));
    expect(() => readFp16Matrix(vector)).toThrow(
      /v16\.npy: expected a 2-D float16 matrix, found a 1-D float16 array of shape \(2,\)/,
    );
  });
});

/** A valid file's header text, to corrupt one field at a time. */
const GOOD = Buffer.from(encodeNpy('float32', [2, 2], new Float32Array([1, 2, 3, 4])));
const DATA_START = 10 + GOOD.readUInt16LE(8);
const goodHeader = GOOD.subarray(0, DATA_START).toString('latin1');
const withHeader = (edit: (header: string) => string, data = GOOD.subarray(DATA_START)): Uint8Array => {
  const dictionary = edit(goodHeader.slice(10).trimEnd());
  const header = dictionary.padEnd(DATA_START - 11, ' ') + '\n';
  const prefix = Buffer.from(goodHeader.slice(0, 8), 'latin1');
  const length = Buffer.alloc(2);
  length.writeUInt16LE(header.length);
  return Buffer.concat([prefix, length, Buffer.from(header, 'latin1'), data]);
};

function withHeaderLength(v2: Uint8Array, length: number): Uint8Array {
  new DataView(v2.buffer, v2.byteOffset).setUint32(8, length, true);
  return v2;
}

describe('npy rejections (FileFormatError naming the file and byte offset)', () => {
  const cases: [string, Uint8Array, RegExp][] = [
    ['bad magic', Buffer.concat([Buffer.from('PK'), GOOD.subarray(2)]), /bad\.npy \(byte 0\): not a \.npy file/],
    ['empty file', new Uint8Array(0), /\(byte 0\): file ends inside the \.npy magic/],
    [
      'version 3.0',
      Buffer.concat([GOOD.subarray(0, 6), Buffer.from([3, 0]), GOOD.subarray(8)]),
      /\(byte 6\): unsupported \.npy format version 3\.0/,
    ],
    ['truncated header', GOOD.subarray(0, 40), /\(byte 8\): truncated header/],
    [
      'header length over the cap',
      withHeaderLength(asVersion2(GOOD), 100_000),
      /\(byte 8\): header length 100000 exceeds the 65536-byte limit/,
    ],
    [
      'Fortran order',
      withHeader((h) => h.replace("'fortran_order': False", "'fortran_order': True")),
      /\(byte 44\): bad \.npy header: Fortran-order/,
    ],
    [
      'unknown dtype',
      withHeader((h) => h.replace("'<f4'", "'<c8'")),
      /\(byte 20\): bad \.npy header: unsupported dtype '<c8'/,
    ],
    ['big-endian', withHeader((h) => h.replace("'<f4'", "'>f4'")), /big-endian data \('>f4'\) is not supported/],
    [
      'zero dimensions',
      withHeader((h) => h.replace('(2, 2)', '()'), GOOD.subarray(DATA_START, DATA_START + 4)),
      /shape \(\) has 0 dimensions/,
    ],
    ['four dimensions', withHeader((h) => h.replace('(2, 2)', '(1, 1, 2, 2)')), /has 4 dimensions/],
    ['missing key', withHeader((h) => h.replace("'fortran_order': False, ", '')), /missing key 'fortran_order'/],
    ['garbage header', withHeader((h) => h.replace("'shape'", 'shape')), /bad \.npy header: expected a quoted string/],
    [
      'short data',
      GOOD.subarray(0, GOOD.length - 1),
      /\(byte 128\): data is 15 bytes but shape \(2, 2\) of float32 needs 16/,
    ],
    ['trailing data', Buffer.concat([GOOD, Buffer.from([0])]), /data is 17 bytes/],
  ];
  it.each(cases)('%s', (_name, bytes, message) => {
    let error: unknown;
    try {
      parseNpy(bytes, 'bad.npy');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FileFormatError);
    expect((error as Error).message).toMatch(/^bad\.npy \(byte \d+\): /);
    expect((error as Error).message).toMatch(message);
  });

  it('reports an unreadable file by name', () => {
    expect(() => readNpy(join(directory, 'missing.npy'))).toThrow(/cannot read .*missing\.npy: ENOENT/);
  });
});

const numpy = spawnSync('python3', ['-c', 'import numpy'], { stdio: 'ignore' });
const haveNumpy = numpy.status === 0;

describe.skipIf(!haveNumpy)('npy interoperability with numpy', () => {
  it('numpy loads what we write, and we load what numpy writes (v1.0, v2.0, |u1, 3-D), with the same bits', () => {
    const samples: { dtype: NpyDtype; shape: number[]; data: NpyArray['data'] }[] = [
      { dtype: 'float16', shape: [2, 3], data: Uint16Array.from([0x3c00, 0x8000, 0x7e00, 0x0001, 0xfc00, 0x7bff]) },
      { dtype: 'float32', shape: [3], data: Float32Array.from([1.5, -0, 3.4e38]) },
      { dtype: 'float64', shape: [1, 2], data: Float64Array.from([Math.PI, -1e-310]) },
      { dtype: 'uint8', shape: [2, 2, 2], data: Uint8Array.from([0, 1, 2, 3, 252, 253, 254, 255]) },
      { dtype: 'uint16', shape: [2], data: Uint16Array.from([0, 65535]) },
      { dtype: 'uint32', shape: [2], data: Uint32Array.from([7, 4294967295]) },
      { dtype: 'uint64', shape: [2], data: BigUint64Array.from([1n, 2n ** 64n - 1n]) },
      { dtype: 'int32', shape: [3, 1], data: Int32Array.from([-2147483648, 0, 2147483647]) },
    ];
    for (const [index, sample] of samples.entries())
      writeNpy(join(directory, `ours${index}.npy`), sample.dtype, sample.shape, sample.data as never);
    const script = `
import json, sys, numpy as np
d = sys.argv[1]
out = {'ours': [], 'theirs': []}
for i in range(${samples.length}):
    a = np.load(f'{d}/ours{i}.npy')
    out['ours'].append({'dtype': a.dtype.name, 'shape': list(a.shape), 'hex': a.tobytes().hex(), 'c': bool(a.flags.c_contiguous)})
theirs = [
    ('f16', np.array([[1, -0.0, np.inf], [np.nan, 6.1e-5, 65504]], dtype=np.float16), (1, 0)),
    ('f32v2', np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7, (2, 0)),
    ('u8', np.arange(5, dtype=np.uint8), (1, 0)),
    ('u64', np.array([2**64 - 1, 3], dtype=np.uint64), (1, 0)),
    ('i32T', np.ascontiguousarray(np.arange(6, dtype=np.int32).reshape(2, 3).T), (1, 0)),
]
np.save(f'{d}/fortran.npy', np.arange(6, dtype=np.float32).reshape(2, 3).T)
for name, a, version in theirs:
    with open(f'{d}/{name}.npy', 'wb') as f:
        np.lib.format.write_array(f, a, version=version)
    out['theirs'].append({'name': name, 'dtype': a.dtype.name, 'shape': list(a.shape), 'hex': a.tobytes().hex()})
print(json.dumps(out))
`;
    const run = spawnSync('python3', ['-c', script, directory], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as {
      ours: { dtype: string; shape: number[]; hex: string; c: boolean }[];
      theirs: { name: string; dtype: string; shape: number[]; hex: string }[];
    };
    report.ours.forEach((loaded, index) => {
      const sample = samples[index]!;
      expect(loaded).toEqual({
        dtype: sample.dtype,
        shape: sample.shape,
        hex: bytesOf(sample.data).toString('hex'),
        c: true,
      });
    });
    for (const written of report.theirs) {
      const parsed = readNpy(join(directory, `${written.name}.npy`));
      expect({
        name: written.name,
        dtype: parsed.dtype,
        shape: parsed.shape,
        hex: bytesOf(parsed.data).toString('hex'),
      }).toEqual(written);
    }
    expect(() => readNpy(join(directory, 'fortran.npy'))).toThrow(
      /fortran\.npy \(byte \d+\): bad \.npy header: Fortran-order/,
    );
  });
});
