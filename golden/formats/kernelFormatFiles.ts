import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { FileFormatError, UserError } from '../../common/errors.ts';
import { writeFileAtomic } from '../../common/atomicWrite.ts';
import { KERNEL_TILE_ROWS, kernelRowBlocks, kernelTileWords, popcount64, type KernelFormat } from './kernelFormat.ts';

/**
 * The kernel format on disk, for exchange with the CUDA implementation: a directory holding the
 * three arrays exactly as the kernel takes them (little-endian, no headers, so a C program can
 * `fread` them straight into `uint64_t*` / `uint32_t*`), plus `header.json` with the shape.
 */
export const KERNEL_FILES = {
  header: 'header.json',
  bitmaps: 'bitmaps.bin',
  offsets: 'offsets.bin',
  values: 'values.bin',
} as const;

const FORMAT_TAG = 'coruscant-kernel-format';
const FORMAT_VERSION = 1;

interface KernelHeader {
  format: typeof FORMAT_TAG;
  version: number;
  rows: number;
  cols: number;
  tiles: number;
  valueWords: number;
}

function littleEndianBytes(array: BigUint64Array | Uint32Array): Uint8Array {
  const bytes = new Uint8Array(array.byteLength);
  const view = new DataView(bytes.buffer);
  if (array instanceof BigUint64Array) array.forEach((x, i) => view.setBigUint64(i * 8, x, true));
  else array.forEach((x, i) => view.setUint32(i * 4, x, true));
  return bytes;
}

/**
 * Writes the format into directory `dir`. The whole directory appears at once: it is built under
 * a temporary sibling name and renamed into place, so a reader never sees a mix of old and new
 * arrays. An existing directory is replaced only if it holds nothing but these files.
 */
export function writeKernelFormatDir(dir: string, format: KernelFormat): void {
  if (existsSync(dir)) {
    const foreign = readdirSync(dir).filter((name) => !Object.values(KERNEL_FILES).includes(name as never));
    if (!statSync(dir).isDirectory() || foreign.length > 0) {
      throw new UserError(`${dir}: exists and is not a kernel-format directory; refusing to overwrite it`);
    }
  }
  const temporary = join(dirname(dir), `.${basename(dir)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const header: KernelHeader = {
    format: FORMAT_TAG,
    version: FORMAT_VERSION,
    rows: format.rows,
    cols: format.cols,
    tiles: format.bitmaps.length,
    valueWords: format.values.length,
  };
  try {
    mkdirSync(temporary, { recursive: true });
    writeFileAtomic(join(temporary, KERNEL_FILES.bitmaps), littleEndianBytes(format.bitmaps));
    writeFileAtomic(join(temporary, KERNEL_FILES.offsets), littleEndianBytes(format.offsets));
    writeFileAtomic(join(temporary, KERNEL_FILES.values), littleEndianBytes(format.values));
    writeFileAtomic(join(temporary, KERNEL_FILES.header), `${JSON.stringify(header, null, 2)}\n`);
    const previous = existsSync(dir) ? `${temporary}.old` : undefined;
    if (previous) renameSync(dir, previous);
    renameSync(temporary, dir);
    if (previous) rmSync(previous, { recursive: true, force: true });
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true });
    if (error instanceof UserError) throw error;
    throw new UserError(`cannot write ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function readBytes(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new FileFormatError(file, `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function readHeader(file: string): KernelHeader {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(readBytes(file)));
  } catch (error) {
    if (error instanceof FileFormatError) throw error;
    throw new FileFormatError(file, `not valid JSON (${(error as Error).message})`);
  }
  const header = parsed as Partial<KernelHeader> | null;
  if (typeof header !== 'object' || header === null || header.format !== FORMAT_TAG) {
    throw new FileFormatError(file, `not a ${FORMAT_TAG} header`);
  }
  if (header.version !== FORMAT_VERSION)
    throw new FileFormatError(file, `unsupported version ${String(header.version)}`);
  for (const key of ['rows', 'cols', 'tiles', 'valueWords'] as const) {
    const value = header[key];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw new FileFormatError(file, `"${key}" must be a non-negative integer`);
    }
  }
  const full = header as KernelHeader;
  if (full.tiles !== kernelRowBlocks(full.rows) * full.cols) {
    throw new FileFormatError(
      file,
      `"tiles" is ${full.tiles} but a ${full.rows}×${full.cols} matrix has ${kernelRowBlocks(full.rows) * full.cols}`,
    );
  }
  return full;
}

/** Opens a little-endian array file and checks it holds exactly `count` elements. */
function arrayView(file: string, elementBytes: number, count: number): DataView {
  const bytes = readBytes(file);
  if (bytes.byteLength !== elementBytes * count) {
    throw new FileFormatError(
      file,
      `expected ${elementBytes * count} bytes (${count} × ${elementBytes}), found ${bytes.byteLength}`,
    );
  }
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function readUint64s(file: string, count: number): BigUint64Array {
  const view = arrayView(file, 8, count);
  const out = new BigUint64Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getBigUint64(i * 8, true);
  return out;
}

function readUint32s(file: string, count: number): Uint32Array {
  const view = arrayView(file, 4, count);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

/** Mask of the bitmap bits that belong to rows past M in the last (padded) row block. */
function paddingRowsMask(rows: number): bigint {
  const used = rows - (kernelRowBlocks(rows) - 1) * KERNEL_TILE_ROWS;
  return used >= KERNEL_TILE_ROWS ? 0n : (1n << BigInt(KERNEL_TILE_ROWS - used)) - 1n;
}

/**
 * Reads a directory written by writeKernelFormatDir (or by the CUDA side) and checks it is a
 * consistent encoding: sizes match the header, offsets agree with the bitmaps' popcounts and the
 * ×8-halves padding, padding is zero, and padded rows carry no bits. Any violation is a
 * FileFormatError naming the file and byte offset.
 */
export function readKernelFormatDir(dir: string): KernelFormat {
  const header = readHeader(join(dir, KERNEL_FILES.header));
  const bitmapsFile = join(dir, KERNEL_FILES.bitmaps);
  const offsetsFile = join(dir, KERNEL_FILES.offsets);
  const valuesFile = join(dir, KERNEL_FILES.values);
  const bitmaps = readUint64s(bitmapsFile, header.tiles);
  const offsets = readUint32s(offsetsFile, header.tiles + 1);
  const values = readUint32s(valuesFile, header.valueWords);

  if (offsets[0] !== 0) throw new FileFormatError(offsetsFile, `entry 0 must be 0, found ${offsets[0]}`, { offset: 0 });
  const lastBlockStart = (kernelRowBlocks(header.rows) - 1) * header.cols;
  const padMask = paddingRowsMask(header.rows);
  for (let tile = 0; tile < header.tiles; tile++) {
    const bitmap = bitmaps[tile]!;
    if (tile >= lastBlockStart && (bitmap & padMask) !== 0n) {
      throw new FileFormatError(bitmapsFile, `tile ${tile} marks rows past M=${header.rows}`, { offset: tile * 8 });
    }
    const nonzeros = popcount64(bitmap);
    const expected = offsets[tile]! + kernelTileWords(nonzeros);
    if (offsets[tile + 1] !== expected) {
      throw new FileFormatError(
        offsetsFile,
        `entry ${tile + 1} is ${offsets[tile + 1]}, expected ${expected} (tile ${tile} has ${nonzeros} nonzeros)`,
        {
          offset: (tile + 1) * 4,
        },
      );
    }
    for (let half = 0; half < kernelTileWords(nonzeros) * 2; half++) {
      const word = offsets[tile]! + (half >> 1);
      if (word >= values.length) break; // reported below as a length mismatch
      const isZero = (half & 1 ? values[word]! >>> 16 : values[word]! & 0xffff) === 0;
      // A marked 0x0000 would decode to a zero the bitmap calls nonzero: not a round-trippable file.
      if (half < nonzeros && isZero)
        throw new FileFormatError(valuesFile, `tile ${tile}: marked value ${half} is 0x0000`, { offset: word * 4 });
      if (half >= nonzeros && !isZero)
        throw new FileFormatError(valuesFile, `tile ${tile} has nonzero padding`, { offset: word * 4 });
    }
  }
  if (offsets[header.tiles] !== header.valueWords) {
    throw new FileFormatError(
      valuesFile,
      `holds ${header.valueWords} words but the offsets end at ${offsets[header.tiles]}`,
    );
  }
  return { rows: header.rows, cols: header.cols, bitmaps, offsets, values };
}
