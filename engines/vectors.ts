import { readFileSync } from 'node:fs';
import { FileFormatError, UserError } from '../common/errors.ts';
import type { PortValues } from './engine.ts';

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

/** Vector files are at most this big; larger ones are refused rather than read into memory. */
const MAX_VECTOR_FILE_BYTES = 512 * 1024 * 1024;

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
        `unknown ${what === 'in' ? 'input' : 'output'} '${name}' (known: ${[...ports.keys()].join(', ')})`,
        { line },
      );
    const value = parseVectorValue(text);
    if (value === undefined)
      throw new FileFormatError(
        file,
        `'${name}': ${JSON.stringify(text)} is not a decimal string, "0x…" hex string or non-negative integer`,
        { line },
      );
    if (value >> BigInt(width) !== 0n)
      throw new FileFormatError(file, `'${name}': ${text} does not fit in ${width} bits`, { line });
    values[name] = value;
  }
  return values;
}

/**
 * Reads a JSON Lines vector file: one object per line, `{"in": {port: value}}` with an optional
 * `"expect": {port: value}`; for sequential tops one line per clock cycle. Blank lines are skipped.
 */
export function parseVectors(text: string, file: string, ports: VectorPorts): VectorLine[] {
  const lines = text.split('\n');
  const vectors: VectorLine[] = [];
  lines.forEach((raw, index) => {
    const line = index + 1;
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
  });
  return vectors;
}

/** Reads and parses a vector file, with a clear error for a missing or oversized file. */
export function readVectors(file: string, ports: VectorPorts): VectorLine[] {
  let text: string;
  try {
    const bytes = readFileSync(file);
    if (bytes.length > MAX_VECTOR_FILE_BYTES)
      throw new UserError(`${file}: vector file is larger than ${MAX_VECTOR_FILE_BYTES} bytes`);
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return parseVectors(text, file, ports);
}
