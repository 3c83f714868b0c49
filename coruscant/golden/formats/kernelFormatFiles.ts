import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readUserFile, UnreadableFileError } from '../../../api/plugin.ts';
import { join } from 'node:path';
import { FileFormatError, UserError } from '../../../api/plugin.ts';
import { writeFileAtomic } from '../../../api/plugin.ts';
import { writeError } from '../../../api/plugin.ts';
import { createStagingFolder, swapFolderIn } from '../../../api/plugin.ts';
import { KERNEL_TILE_ROWS, kernelRowBlocks, kernelTileWords, popcount64, type KernelFormat } from './kernelFormat.ts';

/**
 * The kernel format on disk, for exchange with the CUDA implementation: a directory holding the
 * three arrays exactly as the kernel takes them (little-endian, no headers, so a C program can
 * `fread` them straight into `uint64_t*` / `uint32_t*`), plus `header.json` with the shape. The
 * reference encoder writes no header: such a directory is read when the shape is given instead.
 *
 * Device-side padding: the reference kernel loads each tile's values 16 bytes (one uint4) at a
 * time and, for a tile whose nonzero count is a multiple of 8, issues one more load past the
 * tile's end; for the last tile that is past the end of the array. `devicePadding` appends those
 * 16 zero bytes (4 words) to values.bin so a buffer sized from the file is never over-read; the
 * offsets do not count them, and readers accept the file with or without them.
 */
export const KERNEL_FILES = {
  header: 'header.json',
  bitmaps: 'bitmaps.bin',
  offsets: 'offsets.bin',
  values: 'values.bin',
} as const;

/** Zero words `devicePadding` appends to values.bin: one 16-byte vector load. */
export const DEVICE_PADDING_WORDS = 4;

/** The three arrays every tiled format here is stored as: uint64 bitmaps, uint32 prefix offsets, uint32 packed values. */
export interface TileArrays {
  readonly rows: number;
  readonly cols: number;
  readonly bitmaps: BigUint64Array;
  readonly offsets: Uint32Array;
  readonly values: Uint32Array;
}

/** What distinguishes one tiled format's files from another's. */
export interface TileFileLayout {
  /** `format` field of header.json. */
  readonly tag: string;
  /** Tiles of a rows×cols matrix. */
  tiles(rows: number, cols: number): number;
  /** Bits of tile t that lie outside the matrix (must be clear), as a mask. */
  outsideMask(tile: number, rows: number, cols: number): bigint;
  /** How the outside bits are named in an error: "rows past M=3". */
  outsideName(rows: number, cols: number): string;
}

export interface WriteTileOptions {
  /** Append DEVICE_PADDING_WORDS zero words to values.bin (see above). */
  readonly devicePadding?: boolean;
}

export interface ReadTileOptions {
  /** The shape, for a directory without header.json (as the CUDA encoder leaves it). */
  readonly shape?: { readonly rows: number; readonly cols: number };
}

const FORMAT_TAG = 'coruscant-kernel-format';
const FORMAT_VERSION = 1;

interface TileHeader {
  format: string;
  version: number;
  rows: number;
  cols: number;
  tiles: number;
  valueWords: number;
  /** Zero words after the last tile's values (device padding); absent = 0. */
  paddingWords?: number;
}
function littleEndianBytes(array: BigUint64Array | Uint32Array): Uint8Array {
  const bytes = new Uint8Array(array.byteLength);
  const view = new DataView(bytes.buffer);
  if (array instanceof BigUint64Array) array.forEach((x, i) => view.setBigUint64(i * 8, x, true));
  else array.forEach((x, i) => view.setUint32(i * 4, x, true));
  return bytes;
}

/**
 * Writes the arrays into directory `dir`. The whole directory appears at once: it is built in a
 * staging folder beside it and swapped in (common/folderSwap.ts, as gen verilog does), so a reader
 * never sees a mix of old and new arrays. An existing directory is replaced only if it holds
 * nothing but these files.
 */
export function writeTileArraysDir(
  dir: string,
  layout: TileFileLayout,
  arrays: TileArrays,
  options: WriteTileOptions = {},
): void {
  if (existsSync(dir)) {
    const foreign = readdirSync(dir).filter((name) => !Object.values(KERNEL_FILES).includes(name as never));
    if (!statSync(dir).isDirectory() || foreign.length > 0) {
      throw new UserError(`${dir}: exists and is not a ${layout.tag} directory; refusing to overwrite it`);
    }
  }
  const paddingWords = options.devicePadding ? DEVICE_PADDING_WORDS : 0;
  const header: TileHeader = {
    format: layout.tag,
    version: FORMAT_VERSION,
    rows: arrays.rows,
    cols: arrays.cols,
    tiles: arrays.bitmaps.length,
    valueWords: arrays.values.length,
    ...(paddingWords > 0 ? { paddingWords } : {}),
  };
  const values = new Uint32Array(arrays.values.length + paddingWords);
  values.set(arrays.values);
  const staging = createStagingFolder(dir);
  try {
    writeFileAtomic(join(staging, KERNEL_FILES.bitmaps), littleEndianBytes(arrays.bitmaps));
    writeFileAtomic(join(staging, KERNEL_FILES.offsets), littleEndianBytes(arrays.offsets));
    writeFileAtomic(join(staging, KERNEL_FILES.values), littleEndianBytes(values));
    writeFileAtomic(join(staging, KERNEL_FILES.header), `${JSON.stringify(header, null, 2)}\n`);
    swapFolderIn(staging, dir);
  } catch (error) {
    throw writeError(dir, error);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Mask of the bitmap bits that belong to rows past M in the last (padded) row block. */
function paddingRowsMask(rows: number): bigint {
  const used = rows - (kernelRowBlocks(rows) - 1) * KERNEL_TILE_ROWS;
  return used >= KERNEL_TILE_ROWS ? 0n : (1n << BigInt(KERNEL_TILE_ROWS - used)) - 1n;
}

/** The kernel format's files: 64×1 column tiles, MSB-first bitmaps (kernelFormat.ts). */
export const KERNEL_FILE_LAYOUT: TileFileLayout = {
  tag: FORMAT_TAG,
  tiles: (rows, cols) => kernelRowBlocks(rows) * cols,
  outsideMask: (tile, rows, cols) => (tile >= (kernelRowBlocks(rows) - 1) * cols ? paddingRowsMask(rows) : 0n),
  outsideName: (rows) => `rows past M=${rows}`,
};

/** Writes the kernel format into directory `dir` (see writeTileArraysDir). */
export function writeKernelFormatDir(dir: string, format: KernelFormat, options: WriteTileOptions = {}): void {
  writeTileArraysDir(dir, KERNEL_FILE_LAYOUT, format, options);
}

/** A header larger than this is not one gen wrote (it is a few lines of JSON). */
const HEADER_MAX_BYTES = 64 * 1024;

/** A file's bytes, refused unread (a FileFormatError) when it is not a regular file or holds more than `maxBytes`. */
function readBytes(file: string, maxBytes: number): Uint8Array {
  try {
    return readUserFile(file, {
      maxBytes,
      tooLarge: (size) => new FileFormatError(file, `expected at most ${maxBytes} bytes, found ${size}`),
    });
  } catch (error) {
    if (error instanceof UnreadableFileError) throw new FileFormatError(file, `cannot read: ${error.reason}`);
    throw error;
  }
}

function readHeader(file: string, layout: TileFileLayout): TileHeader {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(readBytes(file, HEADER_MAX_BYTES)));
  } catch (error) {
    if (error instanceof FileFormatError) throw error;
    throw new FileFormatError(file, `not valid JSON (${(error as Error).message})`);
  }
  const header = parsed as Partial<TileHeader> | null;
  if (typeof header !== 'object' || header === null || header.format !== layout.tag) {
    throw new FileFormatError(file, `not a ${layout.tag} header`);
  }
  if (header.version !== FORMAT_VERSION)
    throw new FileFormatError(file, `unsupported version ${String(header.version)}`);
  for (const key of ['rows', 'cols', 'tiles', 'valueWords', 'paddingWords'] as const) {
    const value = header[key];
    if (key === 'paddingWords' && value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw new FileFormatError(file, `"${key}" must be a non-negative integer`);
    }
  }
  const full = header as TileHeader;
  const tiles = layout.tiles(full.rows, full.cols);
  if (full.tiles !== tiles) {
    throw new FileFormatError(file, `"tiles" is ${full.tiles} but a ${full.rows}×${full.cols} matrix has ${tiles}`);
  }
  return full;
}

/** Opens a little-endian array file and checks it holds exactly `count` elements. */
function arrayView(file: string, elementBytes: number, count: number, read?: Uint8Array): DataView {
  const bytes = read ?? readBytes(file, elementBytes * count);
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

function readUint32s(file: string, count: number, read?: Uint8Array): Uint32Array {
  const view = arrayView(file, 4, count, read);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

/**
 * Reads a directory written by writeTileArraysDir (or, given the shape, by the CUDA side) and
 * checks it is a consistent encoding: sizes match the shape, offsets agree with the bitmaps'
 * popcounts and the ×8-halves padding, padding is zero (device padding included), and bits
 * outside the matrix are clear. Any violation is a FileFormatError naming the file and byte offset.
 */
export function readTileArraysDir(dir: string, layout: TileFileLayout, options: ReadTileOptions = {}): TileArrays {
  const headerFile = join(dir, KERNEL_FILES.header);
  const bitmapsFile = join(dir, KERNEL_FILES.bitmaps);
  const offsetsFile = join(dir, KERNEL_FILES.offsets);
  const valuesFile = join(dir, KERNEL_FILES.values);
  let rows: number;
  let cols: number;
  let valueWords: number | undefined;
  let paddingWords: number | undefined;
  if (existsSync(headerFile)) {
    const header = readHeader(headerFile, layout);
    ({ rows, cols, valueWords } = header);
    paddingWords = header.paddingWords ?? 0;
    if (options.shape && (options.shape.rows !== rows || options.shape.cols !== cols)) {
      throw new FileFormatError(
        headerFile,
        `holds a ${rows}×${cols} matrix, not the ${options.shape.rows}×${options.shape.cols} asked for`,
      );
    }
  } else if (options.shape) {
    ({ rows, cols } = options.shape);
  } else {
    throw new FileFormatError(headerFile, 'missing; give the shape (MxK) to read the arrays without it');
  }
  const tiles = layout.tiles(rows, cols);
  const bitmaps = readUint64s(bitmapsFile, tiles);
  const offsets = readUint32s(offsetsFile, tiles + 1);
  const end = offsets[tiles]!;
  if (valueWords !== undefined && end !== valueWords) {
    throw new FileFormatError(offsetsFile, `ends at ${end} but header.json says ${valueWords} value words`, {
      offset: tiles * 4,
    });
  }
  const valueBytes = readBytes(valuesFile, 4 * (end + DEVICE_PADDING_WORDS));
  // Without a header the device padding is recognised by the length: exactly 4 words more.
  const padding =
    paddingWords ?? (valueBytes.byteLength === 4 * (end + DEVICE_PADDING_WORDS) ? DEVICE_PADDING_WORDS : 0);
  const stored = readUint32s(valuesFile, end + padding, valueBytes);
  for (let word = end; word < end + padding; word++) {
    if (stored[word] !== 0) throw new FileFormatError(valuesFile, 'nonzero device padding', { offset: word * 4 });
  }
  const values = stored.subarray(0, end);

  if (offsets[0] !== 0) throw new FileFormatError(offsetsFile, `entry 0 must be 0, found ${offsets[0]}`, { offset: 0 });
  for (let tile = 0; tile < tiles; tile++) {
    const bitmap = bitmaps[tile]!;
    if ((bitmap & layout.outsideMask(tile, rows, cols)) !== 0n) {
      throw new FileFormatError(bitmapsFile, `tile ${tile} marks ${layout.outsideName(rows, cols)}`, {
        offset: tile * 8,
      });
    }
    const nonzeros = popcount64(bitmap);
    const expected = offsets[tile]! + kernelTileWords(nonzeros);
    if (offsets[tile + 1] !== expected) {
      throw new FileFormatError(
        offsetsFile,
        `entry ${tile + 1} is ${offsets[tile + 1]}, expected ${expected} (tile ${tile} has ${nonzeros} nonzeros)`,
        { offset: (tile + 1) * 4 },
      );
    }
    for (let half = 0; half < kernelTileWords(nonzeros) * 2; half++) {
      const word = offsets[tile]! + (half >> 1);
      const isZero = (half & 1 ? values[word]! >>> 16 : values[word]! & 0xffff) === 0;
      // A marked 0x0000 would decode to a zero the bitmap calls nonzero: not a round-trippable file.
      if (half < nonzeros && isZero)
        throw new FileFormatError(valuesFile, `tile ${tile}: marked value ${half} is 0x0000`, { offset: word * 4 });
      if (half >= nonzeros && !isZero)
        throw new FileFormatError(valuesFile, `tile ${tile} has nonzero padding`, { offset: word * 4 });
    }
  }
  return { rows, cols, bitmaps, offsets, values };
}

/** Reads the kernel format from a directory (see readTileArraysDir). */
export function readKernelFormatDir(dir: string, options: ReadTileOptions = {}): KernelFormat {
  return readTileArraysDir(dir, KERNEL_FILE_LAYOUT, options);
}
