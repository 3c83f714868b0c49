import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { captureSourceLocation, type SourceLocation } from './sourceLocation.ts';
import { Value, bitsFor, checkWidth, coerce, maskOf, type ValueLike } from './value.ts';
import type { AssignmentSink, Signal } from './signal.ts';
import { HdlError, InvalidParameterError, WidthMismatchError } from './errors.ts';
import type { ClockDomain } from './domain.ts';

/** Deepest memory the framework accepts. */
export const MAX_MEMORY_DEPTH = 1 << 20;

/**
 * What a registered read (`readSync`) returns when the same edge writes the word it reads:
 * 'read-first' the word as it was before the edge (old data), 'write-first' the word as written
 * at that edge (new data, through the write's mask). Combinational reads (`read`) always see the
 * contents before the edge.
 */
export type ReadDuringWrite = 'read-first' | 'write-first';

const READ_DURING_WRITE: ReadonlySet<string> = new Set(['read-first', 'write-first']);

/**
 * Initial contents: words from address 0 up (numbers or bigints; missing words are 0), or the
 * path of a hex file in `$readmemh` style (one or more hex words per line, `//` comments, blank
 * lines), absolute or relative to the file declaring the memory (else to the working directory).
 */
export type MemoryInit = readonly (number | bigint)[] | string;

export interface MemoryOptions {
  /** Words, any whole number from 1 to 2^20 (addresses past the last word read 0, writes there do nothing). */
  readonly depth: number;
  readonly width: number;
  /**
   * Bits per write-mask bit: a masked `write` takes a mask of `width / granularity` bits, one per
   * lane (8: a byte mask). Default 1: a bit mask as wide as the word.
   */
  readonly granularity?: number;
  /** The contents at the start (and after nothing else: memories have no reset). Default all 0. */
  readonly init?: MemoryInit;
  /** Default for this memory's `readSync` (default 'read-first'). */
  readonly readDuringWrite?: ReadDuringWrite;
  /** The clock domain of its writes and registered reads (default: the module's current domain). */
  readonly domain?: ClockDomain;
}

export interface RomOptions {
  readonly width: number;
  /** The contents (required); the ROM's depth is its length unless `depth` says more. */
  readonly init: MemoryInit;
  readonly depth?: number;
}

/** A memory write statement, as the module builder records it in the current `when` context. */
export interface MemoryWrite {
  readonly kind: 'write';
  readonly memory: Memory;
  readonly address: Value;
  readonly data: Value;
  readonly enable: Value;
  /** Lane mask (`memory.width / memory.granularity` bits); absent: the whole word. */
  readonly mask?: Value;
  readonly location: SourceLocation;
}

/** What a memory needs of the module builder that made it (kept narrow: module.ts imports this file). */
export interface MemoryOwner {
  reg(name: string, width: number, options?: { domain?: ClockDomain }): Signal;
  recordWrite(statement: MemoryWrite): void;
}

/**
 * A memory of `depth` words of `width` bits (any depth; a ROM when declared with `m.rom`). Reads
 * are combinational (`read`) or registered (`readSync`, with a chosen read-during-write
 * behaviour); writes happen at the clock edge, in statement order (a later write wins), optionally
 * through a bit or lane mask. Addresses past the last word read 0 and are not written.
 */
export class Memory implements AssignmentSink {
  readonly addressWidth: number;
  /** Bits per mask bit of masked writes. */
  readonly granularity: number;
  /** The initial contents, `depth` words, or undefined for all zero. */
  readonly init: readonly bigint[] | undefined;
  readonly readDuringWrite: ReadDuringWrite;
  /** The domain its writes (and registered reads) are clocked by; undefined: the default. */
  readonly domain: ClockDomain | undefined;
  private syncReads = 0;
  /** The memread values of write-first registered reads (lowering adds their bypass). */
  private readonly bypassed = new Set<Value>();
  constructor(
    readonly name: string,
    readonly width: number,
    readonly depth: number,
    private readonly builder: MemoryOwner,
    readonly location: SourceLocation,
    options: {
      granularity?: number;
      init?: readonly bigint[];
      readDuringWrite?: ReadDuringWrite;
      readOnly?: boolean;
      domain?: ClockDomain;
    } = {},
    /** A ROM: initial contents and no write port. */
    readonly readOnly = options.readOnly ?? false,
  ) {
    this.addressWidth = bitsFor(depth - 1);
    this.granularity = options.granularity ?? 1;
    this.init = options.init;
    this.readDuringWrite = options.readDuringWrite ?? 'read-first';
    this.domain = options.domain;
  }

  /** The word at `address`, combinationally (0 past the last word). */
  read(address: Value): Value {
    const location = captureSourceLocation();
    this.checkAddress(address, location);
    return new Value('memread', this.width, [address], location, { target: this });
  }

  /**
   * The word at `address`, registered: visible one cycle after the edge where it was read. When
   * that edge also writes the word, `readDuringWrite` (default: the memory's) says which one it
   * is: 'read-first' the old word, 'write-first' the new one.
   */
  readSync(address: Value, options: { readDuringWrite?: ReadDuringWrite } = {}): Value {
    const location = captureSourceLocation();
    const mode = options.readDuringWrite ?? this.readDuringWrite;
    checkReadDuringWrite(mode, location);
    this.checkAddress(address, location);
    const data = this.builder.reg(`${this.name}_rdata${this.syncReads++ === 0 ? '' : this.syncReads}`, this.width, {
      ...(this.domain ? { domain: this.domain } : {}),
    });
    const word = new Value('memread', this.width, [address], location, { target: this });
    if (mode === 'write-first') this.bypassed.add(word);
    data.set(word);
    return data;
  }

  /** @internal whether lowering must route this edge's writes around the read `value`. */
  bypasses(value: Value): boolean {
    return this.bypassed.has(value);
  }

  /**
   * Writes `data` at `address` on the clock edge when `enable` (and the enclosing `when`) holds.
   * With `mask` (`width / granularity` bits), only the lanes whose mask bit is 1 are written.
   */
  write(address: Value, data: ValueLike, enable: ValueLike = 1, mask?: ValueLike): void {
    const location = captureSourceLocation();
    if (this.readOnly)
      throw new InvalidParameterError(
        location,
        `'${this.name}' is a ROM (declared at line ${this.location.line}): it cannot be written`,
      );
    this.checkAddress(address, location);
    const dataValue = coerce(data, this.width, location);
    if (dataValue.width !== this.width)
      throw new WidthMismatchError(
        location,
        `memory '${this.name}' holds ${this.width}-bit words, got ${dataValue.width} bits`,
      );
    const enableValue = coerce(enable, 1, location);
    if (enableValue.width !== 1)
      throw new WidthMismatchError(location, `write enable must be 1 bit, got ${enableValue.width}`);
    const lanes = this.width / this.granularity;
    const maskValue = mask === undefined ? undefined : coerce(mask, lanes, location);
    if (maskValue && maskValue.width !== lanes)
      throw new WidthMismatchError(
        location,
        `memory '${this.name}' takes a ${lanes}-bit write mask (one bit per ${this.granularity} bits), got ${maskValue.width} bits`,
      );
    this.builder.recordWrite({
      kind: 'write',
      memory: this,
      address,
      data: dataValue,
      enable: enableValue,
      ...(maskValue ? { mask: maskValue } : {}),
      location,
    });
  }

  recordAssignment(): void {
    throw new Error('internal: memories are written with write()');
  }

  private checkAddress(address: Value, location: SourceLocation): void {
    if (!(address instanceof Value))
      throw new WidthMismatchError(location, `memory '${this.name}' needs a hardware value as its address`);
    if (address.width !== this.addressWidth)
      throw new WidthMismatchError(
        location,
        `memory '${this.name}' (depth ${this.depth}) needs a ${this.addressWidth}-bit address, got ${address.width} bits`,
      );
  }
}

function checkReadDuringWrite(mode: string, location: SourceLocation): void {
  if (!READ_DURING_WRITE.has(mode))
    throw new InvalidParameterError(
      location,
      `read-during-write '${mode}' is not supported: choose 'read-first' (old data) or 'write-first' (new data)`,
    );
}

/** Checks a memory's options at its declaration and reads its initial contents (words, or a hex file). */
export function memoryShape(
  name: string,
  options: MemoryOptions,
  location: SourceLocation,
): { granularity: number; init?: readonly bigint[]; readDuringWrite: ReadDuringWrite } {
  checkWidth(options.width, location);
  const depth = options.depth;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_MEMORY_DEPTH)
    throw new InvalidParameterError(location, `memory depth ${depth} must be a whole number from 1 to 2^20`);
  const granularity = options.granularity ?? 1;
  if (!Number.isInteger(granularity) || granularity < 1 || options.width % granularity !== 0)
    throw new InvalidParameterError(
      location,
      `write-mask granularity ${granularity} must be a whole number dividing the width ${options.width}`,
    );
  const readDuringWrite = options.readDuringWrite ?? 'read-first';
  checkReadDuringWrite(readDuringWrite, location);
  if (options.init === undefined) return { granularity, readDuringWrite };
  const init = initialWords(name, options.init, depth, options.width, location);
  return { granularity, init, readDuringWrite };
}

/** The initial words padded with 0 to `depth`, each checked to fit `width` bits and to fit the depth. */
export function initialWords(
  name: string,
  init: MemoryInit,
  depth: number,
  width: number,
  location: SourceLocation,
): bigint[] {
  const words = givenWords(name, init, depth, width, location);
  while (words.length < depth) words.push(0n);
  return words;
}

/** The initial words as given (not padded), checked as initialWords checks them. */
export function givenWords(
  name: string,
  init: MemoryInit,
  depth: number,
  width: number,
  location: SourceLocation,
): bigint[] {
  return typeof init === 'string'
    ? readHexFile(name, init, depth, width, location)
    : arrayWords(name, init, depth, width, location);
}

function arrayWords(
  name: string,
  init: readonly (number | bigint)[],
  depth: number,
  width: number,
  location: SourceLocation,
): bigint[] {
  if (!Array.isArray(init))
    throw new InvalidParameterError(location, `memory '${name}': init must be an array of words or a hex file path`);
  if (init.length > depth)
    throw new InvalidParameterError(location, `memory '${name}': init has ${init.length} words, the depth is ${depth}`);
  return init.map((word, index) => {
    let value: bigint;
    try {
      if (typeof word !== 'number' && typeof word !== 'bigint') throw new Error();
      value = BigInt(word);
    } catch {
      throw new InvalidParameterError(
        location,
        `memory '${name}': init word ${index} (${String(word)}) is not a whole number`,
      );
    }
    if (value < 0n || value > maskOf(width))
      throw new WidthMismatchError(
        location,
        `memory '${name}': init word ${index} (${word}) does not fit in ${width} bits`,
      );
    return value;
  });
}

/** The file an init path names: absolute, or next to the declaring source file, else in the working directory. */
export function resolveInitFile(path: string, location: SourceLocation): string {
  if (isAbsolute(path)) return path;
  const besideSource = resolve(dirname(location.file), path);
  if (existsSync(besideSource)) return besideSource;
  const inProject = resolve(path);
  return existsSync(inProject) ? inProject : besideSource;
}

const HEX_WORD = /^[0-9a-fA-F][0-9a-fA-F_]*$/;

/** Words of a `$readmemh`-style file; a bad word, an address (`@`) or one word too many is an HdlError at the file's line. */
function readHexFile(name: string, path: string, depth: number, width: number, location: SourceLocation): bigint[] {
  const file = resolveInitFile(path, location);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InvalidParameterError(
      location,
      `memory '${name}': cannot read its init file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const words: bigint[] = [];
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const at: SourceLocation = { file, line: index + 1, column: 1 };
    const content = lines[index]!.replace(/\/\/.*$/, '').trim();
    if (content === '') continue;
    for (const token of content.split(/\s+/)) {
      if (!HEX_WORD.test(token))
        throw new HdlError(
          at,
          `'${token}' is not a hex word (init file of memory '${name}' at line ${location.line}; one or more hex words per line, // comments)`,
        );
      const value = BigInt(`0x${token.replace(/_/g, '')}`);
      if (value > maskOf(width))
        throw new HdlError(at, `word ${token} does not fit memory '${name}' (${width}-bit words)`);
      if (words.length === depth)
        throw new HdlError(at, `word ${words.length} is past the last word of memory '${name}' (depth ${depth})`);
      words.push(value);
    }
  }
  return words;
}
