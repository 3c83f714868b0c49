import { once } from 'node:events';
import { writeSync } from 'node:fs';
import { AtomicFileStream } from '../common/atomicWrite.ts';
import { writeError } from '../common/fileErrors.ts';
import { requireTimescale } from './timescale.ts';

/** A value handed to `change`: a number for signals up to 32 bits, a bigint for any width, or a bit string with x/z. */
export type VcdWriteValue = number | bigint | string;

/** `$var` types we emit; simulators of synchronous RTL need no others. */
export type VcdWriteVarType = 'wire' | 'reg' | 'integer';

export interface VcdWriterOptions {
  /** `$timescale`, e.g. `1ns`, `10ps` (default `1ns`). */
  timescale?: string;
  /** `$date` text; omitted when undefined so the same trace is byte-identical on every run. */
  date?: string;
  /** `$version` text. */
  version?: string;
}

/** Identifier codes as Verilator makes them: bijective base 94 over the printable ASCII `!`…`~`, least significant first. */
export function vcdIdCode(index: number): string {
  let code = '';
  let rest = index;
  for (;;) {
    code += String.fromCharCode(33 + (rest % 94));
    rest = Math.floor(rest / 94);
    if (rest === 0) return code;
    rest -= 1;
  }
}

interface Declared {
  readonly scope: readonly string[];
  readonly name: string;
  readonly width: number;
  readonly type: VcdWriteVarType;
  readonly code: string;
}

interface ScopeNode {
  readonly vars: Declared[];
  readonly children: Map<string, ScopeNode>;
}

/** Flushed to the file in pieces of about this many characters: few, large writes. */
const CHUNK_CHARACTERS = 1 << 16;
/** Beyond this many bytes queued in the stream, `needsDrain` asks the producer to await `drain()`. */
const QUEUED_BYTES_LIMIT = 1 << 20;
const IDENTIFIER = /^[^\s]+$/;
const BIT_STRING = /^[01xzXZ]+$/;

/**
 * An IEEE 1364 VCD writer that streams: only value changes are written, in large chunks, to a
 * temporary file that takes its final name at `close()` (a crash leaves no partial VCD).
 *
 * Contract: declare every signal with `addSignal`, then `beginDump()`. Values set before the time
 * first advances (before or after `beginDump`) form the initial `$dumpvars` block; a signal never
 * set dumps as x. After that, `setTime(t)` (non-decreasing) then `change(id, value)`: a value equal
 * to the last one costs a comparison and writes nothing, and a `#t` line appears only when
 * something changed at t. Vectors are written without leading zeros, as Icarus does.
 *
 * Memory: a writer made with `await VcdWriter.open(…)` writes each chunk synchronously to the
 * temporary file, so memory stays bounded whatever the producer does; one made with `new` queues
 * chunks on a stream, which drains only while the event loop runs, so a long synchronous loop
 * must `if (w.needsDrain) await w.drain()` now and then.
 */
export class VcdWriter {
  private readonly declared: Declared[] = [];
  private readonly fullNames = new Set<string>();
  private readonly file: AtomicFileStream;
  private readonly timescale: string;
  private last: VcdWriteValue[] = [];
  /** Exclusive upper bounds of each signal's values, as bigint and as number (2^53 at most: beyond, numbers are inexact). */
  private limits: bigint[] = [];
  private numberLimits: number[] = [];
  private state: 'declaring' | 'initial' | 'running' | 'closed' = 'declaring';
  private time = 0;
  private timeWritten = false;
  private buffer = '';
  private streamError: Error | undefined;
  /** The temporary file's descriptor once `open` has waited for it: chunks then go straight to disk. */
  private fd: number | undefined;

  /** A writer whose output goes synchronously to disk in large chunks: bounded memory with no `drain()` calls. */
  static async open(path: string, options: VcdWriterOptions = {}): Promise<VcdWriter> {
    const writer = new VcdWriter(path, options);
    const stream = writer.file.stream;
    try {
      if (stream.pending) await once(stream, 'open');
    } catch (error) {
      writer.abort();
      throw writeError(path, error);
    }
    // WriteStream keeps its descriptor in `fd` (untyped); nothing has gone through the stream yet,
    // so writing beside it keeps the order, and the stream still closes the file on commit.
    const fd = 'fd' in stream ? stream.fd : undefined;
    if (typeof fd === 'number') writer.fd = fd;
    return writer;
  }

  constructor(
    readonly path: string,
    private readonly options: VcdWriterOptions = {},
  ) {
    this.timescale = requireTimescale(options.timescale ?? '1ns').text;
    this.file = new AtomicFileStream(path);
    this.file.stream.on('error', (error) => {
      this.streamError = error;
    });
  }

  /** Declares a signal at `scope` (outermost first); returns the handle `change` takes. */
  addSignal(scope: readonly string[], name: string, width: number, type: VcdWriteVarType = 'wire'): number {
    if (this.state !== 'declaring') throw new Error('VcdWriter.addSignal after beginDump');
    if (!Number.isInteger(width) || width < 1)
      throw new RangeError(`VcdWriter: width of ${name} must be a positive integer, got ${width}`);
    for (const part of [...scope, name]) {
      if (!IDENTIFIER.test(part))
        throw new RangeError(`VcdWriter: name part '${part}' is empty or contains white space`);
    }
    const fullName = [...scope, name].join('.');
    if (this.fullNames.has(fullName)) throw new RangeError(`VcdWriter: signal ${fullName} declared twice`);
    this.fullNames.add(fullName);
    const id = this.declared.length;
    this.declared.push({ scope: [...scope], name, width, type, code: vcdIdCode(id) });
    this.last.push('x');
    this.limits.push(1n << BigInt(width));
    this.numberLimits.push(2 ** Math.min(width, 53));
    return id;
  }

  /** Ends the declarations and writes the header; the `$dumpvars` block follows when time first advances. */
  beginDump(): void {
    if (this.state !== 'declaring') throw new Error('VcdWriter.beginDump called twice');
    this.state = 'initial';
    const { date, version = 'coruscant-hdl VcdWriter' } = this.options;
    if (date !== undefined) this.buffer += `$date\n\t${date}\n$end\n`;
    this.buffer += `$version\n\t${version}\n$end\n$timescale\n\t${this.timescale}\n$end\n`;
    this.writeScope(this.scopeTree(), 0);
    this.buffer += '$enddefinitions $end\n';
  }

  /** Moves simulation time forward (in timescale units); time never goes back. */
  setTime(time: number): void {
    if (time === this.time) return;
    if (!(time > this.time) || !Number.isSafeInteger(time))
      throw new RangeError(`VcdWriter: time ${time} is not an integer after ${this.time}`);
    if (this.state === 'initial') this.writeDumpVars();
    this.time = time;
    this.timeWritten = false;
  }

  /** Records `value` for signal `id` at the current time; writes only if it differs from the last one. */
  change(id: number, value: VcdWriteValue): void {
    // Most calls repeat the last value in its canonical form: one comparison and out.
    if (this.last[id] === value) return;
    const canonical = this.canonical(id, value);
    if (this.last[id] === canonical) return;
    this.last[id] = canonical;
    if (this.state !== 'running') {
      if (this.state === 'closed') throw new Error('VcdWriter.change after close');
      return;
    }
    if (!this.timeWritten) {
      this.buffer += `#${this.time}\n`;
      this.timeWritten = true;
    }
    this.buffer += this.valueLine(id, canonical);
    if (this.buffer.length >= CHUNK_CHARACTERS) this.flush();
  }

  /** Bytes written but not yet on disk (the only output the writer holds in memory besides one chunk). */
  get queuedBytes(): number {
    return this.file.stream.writableLength;
  }

  /** True when so much is queued for the disk that the producer should `await drain()`. */
  get needsDrain(): boolean {
    return this.queuedBytes > QUEUED_BYTES_LIMIT;
  }

  /** Waits until the queued output has reached the file. */
  async drain(): Promise<void> {
    this.flush();
    try {
      // A write that fails while we wait (a disk filling up) rejects here with the bare system error.
      if (this.file.stream.writableNeedDrain) await once(this.file.stream, 'drain');
      this.throwIfFailed();
    } catch (error) {
      this.abort();
      throw writeError(this.path, error);
    }
  }

  /** Ends the trace at the current time (a final `#t` line marks its length) and gives the file its name. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    if (this.state === 'declaring') this.beginDump();
    if (this.state === 'initial') this.writeDumpVars();
    if (!this.timeWritten) this.buffer += `#${this.time}\n`;
    this.state = 'closed';
    this.flush();
    try {
      this.throwIfFailed();
      await this.file.commit();
    } catch (error) {
      this.file.abort();
      throw writeError(this.path, error);
    }
  }

  /** Drops the trace: nothing appears under `path`. */
  abort(): void {
    this.state = 'closed';
    this.file.abort();
  }

  private throwIfFailed(): void {
    if (this.streamError) throw this.streamError;
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    if (this.fd === undefined) this.file.write(this.buffer);
    else this.writeToDisk(Buffer.from(this.buffer));
    this.buffer = '';
  }

  private writeToDisk(bytes: Buffer): void {
    try {
      for (let offset = 0; offset < bytes.length;) offset += writeSync(this.fd as number, bytes, offset);
    } catch (error) {
      this.abort();
      throw writeError(this.path, error);
    }
  }

  /** One representation per value, so `===` against the last value detects a change. */
  private canonical(id: number, value: VcdWriteValue): VcdWriteValue {
    const declared = this.declared[id];
    if (declared === undefined) throw new RangeError(`VcdWriter: unknown signal handle ${id}`);
    if (typeof value === 'number') {
      if (Number.isInteger(value) && value >= 0 && value < (this.numberLimits[id] as number)) {
        return declared.width > 32 ? BigInt(value) : value;
      }
    } else if (typeof value === 'bigint') {
      if (value >= 0n && value < (this.limits[id] as bigint)) return declared.width > 32 ? value : Number(value);
    } else if (value.length <= declared.width && BIT_STRING.test(value)) {
      const lower = value.toLowerCase();
      return /[xz]/.test(lower) ? lower : this.canonical(id, BigInt(`0b${lower}`));
    }
    throw new RangeError(`VcdWriter: value ${String(value)} does not fit ${declared.width}-bit ${declared.name}`);
  }

  private valueLine(id: number, value: VcdWriteValue): string {
    const declared = this.declared[id] as Declared;
    if (declared.width === 1) return `${typeof value === 'string' ? value : value ? '1' : '0'}${declared.code}\n`;
    return `b${typeof value === 'string' ? value : value.toString(2)} ${declared.code}\n`;
  }

  private writeDumpVars(): void {
    this.state = 'running';
    this.buffer += `#${this.time}\n$dumpvars\n`;
    for (let id = 0; id < this.declared.length; id++) this.buffer += this.valueLine(id, this.last[id] as VcdWriteValue);
    this.buffer += '$end\n';
    this.timeWritten = true;
    this.flush();
  }

  private scopeTree(): ScopeNode {
    const root: ScopeNode = { vars: [], children: new Map() };
    for (const declared of this.declared) {
      let node = root;
      for (const part of declared.scope) {
        let child = node.children.get(part);
        if (!child) {
          child = { vars: [], children: new Map() };
          node.children.set(part, child);
        }
        node = child;
      }
      node.vars.push(declared);
    }
    return root;
  }

  private writeScope(node: ScopeNode, depth: number): void {
    const indent = ' '.repeat(depth);
    for (const declared of node.vars) {
      const range = declared.width > 1 ? ` [${declared.width - 1}:0]` : '';
      this.buffer += `${indent}$var ${declared.type} ${declared.width} ${declared.code} ${declared.name}${range} $end\n`;
    }
    for (const [name, child] of node.children) {
      this.buffer += `${indent}$scope module ${name} $end\n`;
      this.writeScope(child, depth + 1);
      this.buffer += `${indent}$upscope $end\n`;
    }
  }
}
