/**
 * NumPy .npy files (format versions 1.0 and 2.0): the matrix exchange format of docs/spec.md §3.4.
 * Little-endian, C order, 1–3 dimensions. FP16 data stays as bit patterns (Uint16Array) so −0,
 * subnormals and NaN payloads survive a round trip exactly.
 * Format: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
 */
import { writeFileAtomic } from '../../../api/plugin.ts';
import { FileFormatError } from '../../../api/plugin.ts';
import { quoteValue } from '../../../api/plugin.ts';
import { readUserFile } from '../../../api/plugin.ts';
import type { Fp16Matrix, Fp32Matrix } from '../matrix.ts';

/** The typed array each supported dtype is read into (float16 as raw bits). */
export interface NpyDataTypes {
  float16: Uint16Array;
  float32: Float32Array;
  float64: Float64Array;
  uint8: Uint8Array;
  uint16: Uint16Array;
  uint32: Uint32Array;
  uint64: BigUint64Array;
  int32: Int32Array;
}

export type NpyDtype = keyof NpyDataTypes;

/** A parsed .npy array; `data` is a fresh, aligned copy in C order. */
export type NpyArray = {
  [D in NpyDtype]: { readonly dtype: D; readonly shape: number[]; readonly data: NpyDataTypes[D] };
}[NpyDtype];

interface DtypeInfo<D extends NpyDtype> {
  /** The descr numpy writes on a little-endian machine. */
  readonly descr: string;
  readonly itemSize: number;
  readonly arrayName: string;
  readonly view: (buffer: ArrayBuffer) => NpyDataTypes[D];
  readonly isData: (data: unknown) => data is NpyDataTypes[D];
}

function dtypeInfo<D extends NpyDtype>(
  descr: string,
  Ctor: { readonly BYTES_PER_ELEMENT: number; readonly name: string; new (buffer: ArrayBuffer): NpyDataTypes[D] },
): DtypeInfo<D> {
  return {
    descr,
    itemSize: Ctor.BYTES_PER_ELEMENT,
    arrayName: Ctor.name,
    view: (buffer) => new Ctor(buffer),
    isData: (data): data is NpyDataTypes[D] => data instanceof Ctor,
  };
}

const DTYPES: { readonly [D in NpyDtype]: DtypeInfo<D> } = {
  float16: dtypeInfo('<f2', Uint16Array),
  float32: dtypeInfo('<f4', Float32Array),
  float64: dtypeInfo('<f8', Float64Array),
  uint8: dtypeInfo('|u1', Uint8Array),
  uint16: dtypeInfo('<u2', Uint16Array),
  uint32: dtypeInfo('<u4', Uint32Array),
  uint64: dtypeInfo('<u8', BigUint64Array),
  int32: dtypeInfo('<i4', Int32Array),
};

/** descr → dtype, including the spellings of single-byte types that carry no byte order. */
const DTYPE_BY_DESCR: ReadonlyMap<string, NpyDtype> = new Map<string, NpyDtype>([
  ...Object.entries(DTYPES).map(([dtype, info]) => [info.descr, dtype as NpyDtype] as const),
  ['<u1', 'uint8'],
  ['>u1', 'uint8'],
]);

const MAGIC = [0x93, ...Buffer.from('NUMPY', 'latin1')];
/** Longer headers are corrupt or hostile; numpy itself caps header reading at 10 000 bytes by default. */
const MAX_HEADER_BYTES = 64 * 1024;
const MAX_DIMENSIONS = 3;
/** numpy pads the header so that data starts on this boundary. */
const DATA_ALIGNMENT = 64;
/** Header-length field width per major version. */
const LENGTH_FIELD_BYTES: ReadonlyMap<number, number> = new Map([
  [1, 2],
  [2, 4],
]);

/** Typed arrays use the host's byte order, and .npy here is little-endian. */
const HOST_IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function requireLittleEndianHost(): void {
  if (!HOST_IS_LITTLE_ENDIAN) throw new Error('the .npy codec needs a little-endian host');
}

type HeaderValue = string | boolean | number[];

/** A strict reader of the Python dict literal in a .npy header; errors carry the file offset. */
class HeaderReader {
  private position = 0;

  constructor(
    private readonly text: string,
    private readonly fileOffset: number,
    private readonly file: string,
  ) {}

  fail(detail: string, at = this.position): never {
    throw new FileFormatError(this.file, `bad .npy header: ${detail}`, { offset: this.fileOffset + at });
  }

  readDict(): Map<string, { value: HeaderValue; at: number }> {
    const entries = new Map<string, { value: HeaderValue; at: number }>();
    this.expect('{');
    while (!this.accept('}')) {
      const keyAt = this.position;
      const key = this.readString();
      if (entries.has(key)) this.fail(`duplicate key ${quoteValue(key)}`, keyAt);
      this.expect(':');
      const at = this.skipSpace();
      entries.set(key, { value: this.readValue(), at });
      if (!this.accept(',')) {
        this.expect('}');
        break;
      }
    }
    if (this.skipSpace() !== this.text.length) this.fail('unexpected text after the dictionary');
    return entries;
  }

  private readValue(): HeaderValue {
    const next = this.text[this.position];
    if (next === "'" || next === '"') return this.readString();
    if (next === '(') return this.readTuple();
    for (const [word, value] of [
      ['True', true],
      ['False', false],
    ] as const) {
      if (this.text.startsWith(word, this.position)) {
        this.position += word.length;
        return value;
      }
    }
    return this.fail('expected a string, a tuple, True or False');
  }

  private readString(): string {
    this.skipSpace();
    const quote = this.text[this.position];
    if (quote !== "'" && quote !== '"') this.fail('expected a quoted string');
    const end = this.text.indexOf(quote, this.position + 1);
    if (end < 0) this.fail('unterminated string');
    const value = this.text.slice(this.position + 1, end);
    this.position = end + 1;
    return value;
  }

  private readTuple(): number[] {
    this.expect('(');
    const items: number[] = [];
    while (!this.accept(')')) {
      this.skipSpace();
      const match = /^(\d+)L?/.exec(this.text.slice(this.position));
      if (!match?.[1]) this.fail('expected a non-negative integer in the shape');
      const value = Number(match[1]);
      if (!Number.isSafeInteger(value)) this.fail(`dimension ${quoteValue(match[1])} is too large`);
      items.push(value);
      this.position += match[0].length;
      if (!this.accept(',')) {
        this.expect(')');
        break;
      }
    }
    return items;
  }

  private skipSpace(): number {
    while (/\s/.test(this.text[this.position] ?? '')) this.position++;
    return this.position;
  }

  private accept(token: string): boolean {
    this.skipSpace();
    if (this.text[this.position] !== token) return false;
    this.position++;
    return true;
  }

  private expect(token: string): void {
    if (!this.accept(token)) this.fail(`expected '${token}'`);
  }
}

function formatShape(shape: readonly number[]): string {
  return `(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`;
}

/** A shape as a message quotes it: a file's hostile one (10^4 dimensions) stays short. */
const quoteShape = (shape: readonly number[]): string => quoteValue(formatShape(shape)).slice(1, -1);

function elementCount(shape: readonly number[]): number {
  return shape.reduce((product, dimension) => product * dimension, 1);
}

interface Header {
  dtype: NpyDtype;
  shape: number[];
  dataStart: number;
}

function readHeader(bytes: Uint8Array, file: string): Header {
  const fail = (detail: string, offset: number): never => {
    throw new FileFormatError(file, detail, { offset });
  };
  MAGIC.forEach((byte, offset) => {
    if (bytes[offset] !== byte)
      fail(
        offset < bytes.length ? 'not a .npy file (bad magic string)' : 'file ends inside the .npy magic string',
        offset,
      );
  });
  const major = bytes[6];
  const lengthBytes = LENGTH_FIELD_BYTES.get(major ?? -1);
  if (lengthBytes === undefined)
    return fail(`unsupported .npy format version ${major ?? '?'}.${bytes[7] ?? '?'} (1.0 and 2.0 are)`, 6);
  const headerStart = 8 + lengthBytes;
  if (bytes.length < headerStart) fail('file ends inside the header length', 8);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = lengthBytes === 2 ? view.getUint16(8, true) : view.getUint32(8, true);
  if (headerLength > MAX_HEADER_BYTES)
    fail(`header length ${headerLength} exceeds the ${MAX_HEADER_BYTES}-byte limit`, 8);
  const dataStart = headerStart + headerLength;
  if (bytes.length < dataStart)
    fail(`truncated header: it claims ${headerLength} bytes but the file ends at byte ${bytes.length}`, 8);

  const text = Buffer.from(bytes.buffer, bytes.byteOffset + headerStart, headerLength).toString('latin1');
  const reader = new HeaderReader(text, headerStart, file);
  const entries = reader.readDict();
  const field = (key: string): { value: HeaderValue; at: number } =>
    entries.get(key) ?? reader.fail(`missing key '${key}'`, 0);
  for (const key of entries.keys()) {
    if (!['descr', 'fortran_order', 'shape'].includes(key)) reader.fail(`unexpected key ${quoteValue(key)}`, 0);
  }

  const descr = field('descr');
  if (typeof descr.value !== 'string') return reader.fail("'descr' must be a string", descr.at);
  const dtype = DTYPE_BY_DESCR.get(descr.value);
  if (dtype === undefined) {
    const bigEndian = descr.value.startsWith('>') && DTYPE_BY_DESCR.has(`<${descr.value.slice(1)}`);
    return reader.fail(
      bigEndian
        ? `big-endian data (${quoteValue(descr.value)}) is not supported; save it as little-endian ('<…')`
        : `unsupported dtype ${quoteValue(descr.value)} (supported: ${Object.keys(DTYPES).join(', ')})`,
      descr.at,
    );
  }

  const fortranOrder = field('fortran_order');
  if (typeof fortranOrder.value !== 'boolean')
    return reader.fail("'fortran_order' must be True or False", fortranOrder.at);
  if (fortranOrder.value)
    reader.fail('Fortran-order arrays are not supported; save with numpy.ascontiguousarray', fortranOrder.at);

  const shape = field('shape');
  if (!Array.isArray(shape.value)) return reader.fail("'shape' must be a tuple", shape.at);
  if (shape.value.length < 1 || shape.value.length > MAX_DIMENSIONS) {
    reader.fail(
      `shape ${quoteShape(shape.value)} has ${shape.value.length} dimensions; 1 to ${MAX_DIMENSIONS} are supported`,
      shape.at,
    );
  }
  return { dtype, shape: shape.value, dataStart };
}

/** Parses the bytes of a .npy file; `file` names it in errors (FileFormatError with the byte offset). */
export function parseNpy(bytes: Uint8Array, file: string): NpyArray {
  requireLittleEndianHost();
  const { dtype, shape, dataStart } = readHeader(bytes, file);
  const info = DTYPES[dtype];
  const expectedBytes = elementCount(shape) * info.itemSize;
  const actualBytes = bytes.length - dataStart;
  if (actualBytes !== expectedBytes) {
    throw new FileFormatError(
      file,
      `data is ${actualBytes} bytes but shape ${formatShape(shape)} of ${dtype} needs ${expectedBytes}`,
      { offset: dataStart },
    );
  }
  // A copy, so the typed array is aligned whatever the header length was.
  const buffer = bytes.buffer.slice(bytes.byteOffset + dataStart, bytes.byteOffset + bytes.length) as ArrayBuffer;
  return { dtype, shape, data: info.view(buffer) } as NpyArray;
}

/** The largest .npy read (a 16384×32768 float16 matrix): the file and its typed copy stay within 2 GiB. */
export const NPY_MAX_BYTES = 2 ** 30;

/**
 * Reads a .npy file; unreadable files, anything but a regular file, files over NPY_MAX_BYTES and
 * malformed contents are UserErrors naming the file.
 */
export function readNpy(path: string): NpyArray {
  const bytes = readUserFile(path, {
    maxBytes: NPY_MAX_BYTES,
    tooLarge: (size) => `${path}: ${size} bytes, more than the ${NPY_MAX_BYTES / 2 ** 30} GiB an .npy input may have`,
  });
  return parseNpy(bytes, path);
}

/** The bytes of a version 1.0 .npy file holding `data` in C order (1–3 dimensions never need 2.0's long header). */
export function encodeNpy<D extends NpyDtype>(dtype: D, shape: readonly number[], data: NpyDataTypes[D]): Uint8Array {
  requireLittleEndianHost();
  const info: DtypeInfo<D> = DTYPES[dtype];
  if (!info.isData(data)) throw new TypeError(`encodeNpy: ${dtype} data must be a ${info.arrayName}`);
  if (shape.length < 1 || shape.length > MAX_DIMENSIONS || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    throw new RangeError(
      `encodeNpy: shape ${formatShape(shape)} must have 1 to ${MAX_DIMENSIONS} non-negative integer dimensions`,
    );
  }
  if (elementCount(shape) !== data.length)
    throw new RangeError(`encodeNpy: shape ${formatShape(shape)} does not hold ${data.length} elements`);

  const dictionary = `{'descr': '${info.descr}', 'fortran_order': False, 'shape': ${formatShape(shape)}, }`;
  const headerStart = 10;
  const unpadded = headerStart + dictionary.length + 1;
  const header = dictionary + ' '.repeat((DATA_ALIGNMENT - (unpadded % DATA_ALIGNMENT)) % DATA_ALIGNMENT) + '\n';
  const out = new Uint8Array(headerStart + header.length + data.byteLength);
  out.set([...MAGIC, 1, 0], 0);
  new DataView(out.buffer).setUint16(8, header.length, true);
  out.set(Buffer.from(header, 'latin1'), headerStart);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), headerStart + header.length);
  return out;
}

/** Writes a .npy file atomically (readers never see half of it). */
export function writeNpy<D extends NpyDtype>(
  path: string,
  dtype: D,
  shape: readonly number[],
  data: NpyDataTypes[D],
): void {
  writeFileAtomic(path, encodeNpy(dtype, shape, data));
}

function describe(array: NpyArray): string {
  return `${array.shape.length}-D ${array.dtype} array of shape ${formatShape(array.shape)}`;
}

/** Reads a 2-D float16 .npy file as an FP16 matrix of bit patterns. */
export function readFp16Matrix(path: string): Fp16Matrix {
  const array = readNpy(path);
  if (array.dtype !== 'float16' || array.shape.length !== 2) {
    throw new FileFormatError(path, `expected a 2-D float16 matrix, found a ${describe(array)}`);
  }
  const [rows, cols] = array.shape as [number, number];
  return { rows, cols, bits: array.data };
}

/** Reads a 2-D float32 .npy file as an FP32 matrix of bit patterns (NaN payloads kept). */
export function readFp32Matrix(path: string): Fp32Matrix {
  const array = readNpy(path);
  if (array.dtype !== 'float32' || array.shape.length !== 2) {
    throw new FileFormatError(path, `expected a 2-D float32 matrix, found a ${describe(array)}`);
  }
  const [rows, cols] = array.shape as [number, number];
  return { rows, cols, bits: new Uint32Array(array.data.buffer, array.data.byteOffset, array.data.length) };
}

/** Writes an FP32 matrix as a 2-D float32 .npy file, bit for bit, atomically. */
export function writeFp32Matrix(path: string, matrix: Fp32Matrix): void {
  const { bits } = matrix;
  writeNpy(path, 'float32', [matrix.rows, matrix.cols], new Float32Array(bits.buffer, bits.byteOffset, bits.length));
}
