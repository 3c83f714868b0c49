import { FileFormatError } from '../common/errors.ts';
import { quoteValue } from '../common/optionValues.ts';
import { fileChunks } from '../common/chunkedRead.ts';
import type { PortValues } from '../hw/contract/engine.ts';

/** One line of a vector file: the inputs of one cycle, and optionally the outputs expected then. */
export interface VectorLine {
  readonly inputs: PortValues;
  readonly expected?: PortValues;
  /** 1-based line number in the file, for messages. */
  readonly line: number;
}

/** Ports of the top a vector file is checked against. */
export interface VectorPorts {
  readonly inputs: ReadonlyMap<string, number>;
  readonly outputs: ReadonlyMap<string, number>;
}

/** Vector files are at most this big; larger ones are refused before a byte is read. */
export const MAX_VECTOR_FILE_BYTES = 512 * 1024 * 1024;
/** One line of a vector file is at most this long (a cycle of the widest ports fits many times over). */
export const MAX_VECTOR_LINE_BYTES = 16 * 1024 * 1024;

/** Parses `"0x1f"`, `"31"` or a safe-integer JSON number into a bigint (any width). */
export function parseVectorValue(value: unknown): bigint | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  if (typeof value !== 'string') return undefined;
  if (/^0x[0-9a-fA-F]+$/.test(value) || /^[0-9]+$/.test(value)) return BigInt(value);
  return undefined;
}

/** `0x…` text of a value: the form vector outputs are written in. */
export function formatVectorValue(value: bigint): string {
  return `0x${value.toString(16)}`;
}

/** A port name from the file, as shown in a message: short, printable. */
const quoteName = (name: string): string => quoteValue(name).slice(1, -1);

/**
 * A parsed JSON value as a message shows it: a scalar quoted, an array or object named by its kind.
 * Never stringified whole: a value nested 10^5 deep (which JSON.parse builds without recursion)
 * would overflow the stack, and a large one would make a long line.
 */
function shownValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  return quoteValue(typeof value === 'string' ? value : String(value));
}

function parsePortMap(
  raw: unknown,
  ports: ReadonlyMap<string, number>,
  what: string,
  file: string,
  line: number,
): PortValues {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new FileFormatError(file, `"${what}" must be an object of port: value`, { line });
  const values: PortValues = {};
  for (const [name, text] of Object.entries(raw as Record<string, unknown>)) {
    const width = ports.get(name);
    if (width === undefined)
      throw new FileFormatError(
        file,
        `unknown ${what === 'in' ? 'input' : 'output'} '${quoteName(name)}' (known: ${[...ports.keys()].join(', ')})`,
        { line },
      );
    const value = parseVectorValue(text);
    if (value === undefined) {
      // JSON.parse makes 1e309 Infinity (which JSON.stringify would print as null) and rounds
      // integers past 2^53: say so, and how to write such a value.
      const problem =
        typeof text === 'number' && !Number.isFinite(text)
          ? 'a number beyond ±1.8e308 (such as 1e309), more than a JSON number holds; write big values as "0x…" strings'
          : typeof text === 'number' && Number.isInteger(text) && !Number.isSafeInteger(text)
            ? `a whole number beyond 2^53 (read as ${text}), which a JSON number does not hold exactly; write it as a "0x…" or decimal string`
            : `${shownValue(text)} is not a decimal string, "0x…" hex string or non-negative integer`;
      throw new FileFormatError(file, `'${quoteName(name)}': ${problem}`, { line });
    }
    if (value >> BigInt(width) !== 0n)
      throw new FileFormatError(
        file,
        `'${quoteName(name)}': ${quoteValue(String(text))} does not fit in ${width} bits`,
        { line },
      );
    values[name] = value;
  }
  return values;
}

/**
 * Reads a JSON Lines vector file: one object per line, `{"in": {port: value}}` with an optional
 * `"expect": {port: value}`; for sequential tops one line per clock cycle. Blank lines are skipped.
 */
export function parseVectors(text: string, file: string, ports: VectorPorts): VectorLine[] {
  const vectors: VectorLine[] = [];
  text.split('\n').forEach((raw, index) => parseVectorLine(raw, index + 1, file, ports, vectors));
  return vectors;
}

/** One line of a vector file, appended to `vectors` (blank lines are skipped). */
function parseVectorLine(raw: string, line: number, file: string, ports: VectorPorts, vectors: VectorLine[]): void {
  if (raw.trim() === '') return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new FileFormatError(file, `not valid JSON (${(error as Error).message})`, { line });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new FileFormatError(file, 'each line must be a JSON object like {"in": {...}}', { line });
  const record = parsed as Record<string, unknown>;
  const unknownKeys = Object.keys(record).filter((key) => key !== 'in' && key !== 'expect');
  if (unknownKeys.length > 0)
    throw new FileFormatError(file, `unknown key '${unknownKeys[0]}' (a line has "in" and optionally "expect")`, {
      line,
    });
  const inputs = parsePortMap(record['in'] ?? {}, ports.inputs, 'in', file, line);
  const expected =
    record['expect'] === undefined ? undefined : parsePortMap(record['expect'], ports.outputs, 'expect', file, line);
  vectors.push({ inputs, line, ...(expected ? { expected } : {}) });
}

/**
 * Reads and parses a vector file line by line (1 MiB at a time: the text is never held whole),
 * after checking its size: a file over the limit is refused before any of it is read.
 */
export function readVectors(file: string, ports: VectorPorts): VectorLine[] {
  return [...vectorLines(file, ports)];
}

/**
 * The lines of a vector file as readVectors reads them, one at a time as they are pulled: a run
 * of 10^7 cycles holds one piece of them, not the file's worth of objects (~115 MB per 10^6).
 */
export function* vectorLines(file: string, ports: VectorPorts): Generator<VectorLine, void, undefined> {
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let line = 0;
  const parsed: VectorLine[] = [];
  const limit = {
    maxBytes: MAX_VECTOR_FILE_BYTES,
    tooLarge: (size: number) =>
      `${file}: vector file is larger than ${MAX_VECTOR_FILE_BYTES} bytes (512 MiB): ${size} bytes`,
  };
  for (const chunk of fileChunks(file, limit)) {
    const length = chunk.length;
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline >= 0; newline = chunk.indexOf(10, start)) {
      // Lines are cut at the newline byte, so a multi-byte UTF-8 character is never split.
      const piece = chunk.subarray(start, newline);
      const text = partialBytes > 0 ? Buffer.concat([...partial, piece]).toString('utf8') : piece.toString('utf8');
      partial = [];
      partialBytes = 0;
      parseVectorLine(text, ++line, file, ports, parsed);
      start = newline + 1;
    }
    if (start < length) {
      partial.push(Buffer.from(chunk.subarray(start, length)));
      partialBytes += length - start;
      if (partialBytes > MAX_VECTOR_LINE_BYTES)
        throw new FileFormatError(file, `a line longer than ${MAX_VECTOR_LINE_BYTES} bytes`, { line: line + 1 });
    }
    // The chunk's lines go out before the next chunk is read into the same buffer.
    yield* parsed;
    parsed.length = 0;
  }
  if (partialBytes > 0) parseVectorLine(Buffer.concat(partial).toString('utf8'), ++line, file, ports, parsed);
  yield* parsed;
}
