import { FileFormatError } from '../common/errors.ts';
import { readFileInChunks } from '../common/chunkedRead.ts';
import { parseTimescale, type Timescale } from './timescale.ts';
import { extendBits } from './vcdValues.ts';

/** How a signal's values are represented (see vcdValues.ts). */
export type VcdSignalKind = 'bits' | 'real' | 'string';

/** One `$var`. Two signals with the same `id` are aliases and share one change list. */
export interface VcdSignal {
  readonly id: string;
  /** Enclosing scopes, outermost first. */
  readonly path: readonly string[];
  readonly name: string;
  /** `path` and `name` joined with dots, e.g. `tb.dut.cnt`. */
  readonly fullName: string;
  readonly width: number;
  readonly type: string;
  readonly kind: VcdSignalKind;
}

/** The changes of one id code, in time order; `values[i]` holds from `times[i]` until the next change. */
export interface VcdChanges {
  readonly times: number[];
  readonly values: string[];
}

/** A read VCD. Times are integers in `timescale` units. */
export interface VcdTrace {
  readonly file: string;
  readonly timescale: Timescale;
  readonly version?: string;
  readonly date?: string;
  readonly signals: readonly VcdSignal[];
  /** Keyed by id code; only ids of signals kept by `keep` (all by default). */
  readonly changes: ReadonlyMap<string, VcdChanges>;
  /** The last `#time` in the file. */
  readonly endTime: number;
}

export interface VcdReadOptions {
  /** Keep the changes of only these signals (the header still lists all); saves memory on big traces. */
  keep?: (signal: VcdSignal) => boolean;
}

/**
 * Where a streamed read (streamVcdFile) hands the trace as it goes: the signals once the header
 * is read, then every `#time` and every value change of a kept signal (bits extended to the
 * signal's width), in file order. Nothing of the body is held.
 */
export interface VcdStreamHandlers {
  header(signals: readonly VcdSignal[]): void;
  time(time: number): void;
  change(id: string, value: string): void;
}

/** `$var` types by the value kind they carry (IEEE 1364 plus the SystemVerilog ones Verilator and GTKWave use). */
const VAR_KINDS: Readonly<Record<string, VcdSignalKind>> = {
  event: 'bits',
  integer: 'bits',
  parameter: 'bits',
  reg: 'bits',
  supply0: 'bits',
  supply1: 'bits',
  time: 'bits',
  tri: 'bits',
  triand: 'bits',
  trior: 'bits',
  trireg: 'bits',
  tri0: 'bits',
  tri1: 'bits',
  wand: 'bits',
  wire: 'bits',
  wor: 'bits',
  logic: 'bits',
  bit: 'bits',
  int: 'bits',
  shortint: 'bits',
  longint: 'bits',
  byte: 'bits',
  enum: 'bits',
  sparam: 'bits',
  port: 'bits',
  real: 'real',
  realtime: 'real',
  shortreal: 'real',
  real_parameter: 'real',
  string: 'string',
};

const COMMANDS_WITHOUT_DOLLAR_TOKENS = new Set(['scope', 'upscope', 'timescale', 'enddefinitions']);

const SCOPE_TYPES = new Set([
  'module',
  'begin',
  'fork',
  'function',
  'task',
  'interface',
  'package',
  'program',
  'class',
  'struct',
  'union',
  'generate',
  'vhdl_architecture',
  'vhdl_record',
  'vhdl_generate',
  'vhdl_process',
  'vhdl_block',
  'vhdl_package',
]);

/** Header commands longer than this are missing their `$end`; stop before reading a whole file into one. */
const MAX_COMMAND_CHARACTERS = 1 << 16;
/** Longest line we accept (a 16-Mbit vector); beyond, the file is garbage. */
const MAX_LINE_CHARACTERS = 1 << 24;
const WIDTH_LIMIT = 1 << 24;
/**
 * Limits that bound a reader's time and memory before the work (docs/hardening.md): nesting
 * deeper than any design (a 10^5-deep file made `wave list` indent quadratically), more signals
 * than fit comfortably (each costs a few hundred bytes; 10^7 took 4.3 GB), files larger than the
 * traces the framework writes by orders of magnitude.
 */
export const VCD_LIMITS = {
  scopeDepth: 1024,
  signals: 1 << 20,
  fileBytes: 2 ** 32,
} as const;
const SCALAR_VALUE = /^[01xzXZ]$/;
const VECTOR_VALUE = /^[01xzXZ]+$/;
const REAL_VALUE = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[-+]?(inf|nan)$/i;

/** Reads a VCD file (streamed in 1 MB pieces). Malformed input is a FileFormatError naming the line. */
export function readVcdFile(path: string, options: VcdReadOptions = {}): VcdTrace {
  const parser = new VcdParser(path, options);
  const limit = {
    maxBytes: VCD_LIMITS.fileBytes,
    tooLarge: (size: number) =>
      `${path}: ${size} bytes, more than the ${VCD_LIMITS.fileBytes / 2 ** 30} GiB a VCD may have`,
  };
  readFileInChunks(path, limit, (chunk, length) => parser.feed(chunk.subarray(0, length)));
  return parser.finish();
}

/**
 * Reads a VCD file as readVcdFile does (the same checks and errors) but hands its body to
 * `handlers` instead of keeping it: memory is one line and the header, whatever the file's length.
 * Returns the last `#time` in the file.
 */
export function streamVcdFile(path: string, handlers: VcdStreamHandlers, options: VcdReadOptions = {}): number {
  const parser = new VcdParser(path, options, handlers);
  const limit = {
    maxBytes: VCD_LIMITS.fileBytes,
    tooLarge: (size: number) =>
      `${path}: ${size} bytes, more than the ${VCD_LIMITS.fileBytes / 2 ** 30} GiB a VCD may have`,
  };
  readFileInChunks(path, limit, (chunk, length) => parser.feed(chunk.subarray(0, length)));
  return parser.finish().endTime;
}

/** Parses VCD text; `fileName` names it in errors. */
export function parseVcd(text: string, fileName = '<vcd text>', options: VcdReadOptions = {}): VcdTrace {
  const parser = new VcdParser(fileName, options);
  parser.feed(Buffer.from(text, 'latin1'));
  return parser.finish();
}

interface PendingCommand {
  readonly keyword: string;
  readonly line: number;
  readonly tokens: string[];
  characters: number;
}

/** A token-level state machine over lines; memory is the trace plus one line and one header command. */
class VcdParser {
  private partialLine: Buffer = Buffer.alloc(0);
  private line = 0;
  private inHeader = true;
  private command: PendingCommand | undefined;
  private readonly scope: string[] = [];
  /** The current scope path as one shared array: signals of one scope share it instead of each copying it. */
  private scopePath: readonly string[] = [];
  private readonly signals: VcdSignal[] = [];
  private readonly widths = new Map<string, { width: number; kind: VcdSignalKind }>();
  private readonly changes = new Map<string, VcdChanges>();
  private timescale: Timescale | undefined;
  private version: string | undefined;
  private date: string | undefined;
  private time = 0;
  private pendingVector: { value: string; kind: VcdSignalKind } | undefined;
  private skippingComment = false;

  constructor(
    private readonly file: string,
    private readonly options: VcdReadOptions,
    /** Streamed: the body goes to these as it is read, not into `changes`. */
    private readonly stream?: VcdStreamHandlers,
  ) {}

  /**
   * Takes the next piece of the file. Each line is decoded on its own (as Latin-1: VCD is ASCII)
   * because stored values are slices of their line's string, and a slice keeps its whole parent alive.
   */
  feed(bytes: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = bytes.indexOf(10, start);
      if (newline < 0) break;
      const line =
        this.partialLine.length > 0
          ? Buffer.concat([this.partialLine, bytes.subarray(start, newline)]).toString('latin1')
          : bytes.toString('latin1', start, newline);
      this.partialLine = Buffer.alloc(0);
      this.line += 1;
      this.processLine(line);
      start = newline + 1;
    }
    if (start < bytes.length) this.partialLine = Buffer.concat([this.partialLine, bytes.subarray(start)]);
    if (this.partialLine.length > MAX_LINE_CHARACTERS)
      this.fail(`a line longer than ${MAX_LINE_CHARACTERS} characters`, this.line + 1);
  }

  finish(): VcdTrace {
    if (this.partialLine.length > 0) {
      this.line += 1;
      this.processLine(this.partialLine.toString('latin1'));
      this.partialLine = Buffer.alloc(0);
    }
    if (this.command) this.fail(`truncated: $${this.command.keyword} has no $end`, this.command.line);
    if (this.inHeader)
      this.fail(this.line === 0 ? 'empty file' : 'truncated header: no $enddefinitions', Math.max(1, this.line));
    if (this.pendingVector) this.fail('truncated value change: vector value without an id code');
    if (this.skippingComment) this.fail('truncated: $comment has no $end');
    return {
      file: this.file,
      timescale: this.timescale ?? (parseTimescale('1s') as Timescale),
      ...(this.version !== undefined ? { version: this.version } : {}),
      ...(this.date !== undefined ? { date: this.date } : {}),
      signals: this.signals,
      changes: this.changes,
      endTime: this.time,
    };
  }

  private fail(detail: string, line = this.line): never {
    throw new FileFormatError(this.file, detail, { line });
  }

  private processLine(line: string): void {
    for (const token of line.split(/\s+/)) {
      if (token.length === 0) continue;
      if (this.inHeader) this.headerToken(token);
      else this.bodyToken(token);
    }
  }

  private headerToken(token: string): void {
    const command = this.command;
    if (command) {
      if (token === '$end') {
        this.command = undefined;
        this.headerCommand(command);
        return;
      }
      // A missing $end shows as the next command's keyword; $var is exempt because `$` is a valid id code.
      if (token.startsWith('$') && COMMANDS_WITHOUT_DOLLAR_TOKENS.has(command.keyword)) {
        this.fail(`$${command.keyword} (line ${command.line}) has no $end before ${token}`);
      }
      command.characters += token.length + 1;
      if (command.characters > MAX_COMMAND_CHARACTERS)
        this.fail(`$${command.keyword} longer than ${MAX_COMMAND_CHARACTERS} characters (missing $end?)`, command.line);
      command.tokens.push(token);
      return;
    }
    if (!token.startsWith('$')) this.fail(`unexpected '${printable(token)}' in the header`);
    this.command = { keyword: token.slice(1), line: this.line, tokens: [], characters: 0 };
  }

  private headerCommand({ keyword, tokens, line }: PendingCommand): void {
    const text = tokens.join(' ');
    switch (keyword) {
      case 'date':
        this.date = text;
        return;
      case 'version':
        this.version = text;
        return;
      case 'comment':
        return;
      case 'timescale': {
        const timescale = parseTimescale(tokens.join(''));
        if (!timescale) this.fail(`bad $timescale '${printable(text)}'`, line);
        this.timescale = timescale;
        return;
      }
      case 'scope': {
        const [type, name] = tokens;
        if (tokens.length !== 2 || type === undefined || name === undefined || !SCOPE_TYPES.has(type))
          this.fail(`bad $scope '${printable(text)}'`, line);
        if (this.scope.length >= VCD_LIMITS.scopeDepth)
          this.fail(`scopes nested deeper than ${VCD_LIMITS.scopeDepth}`, line);
        this.scope.push(name);
        this.scopePath = [...this.scope];
        return;
      }
      case 'upscope':
        if (tokens.length !== 0 || this.scope.pop() === undefined) this.fail('$upscope without an open $scope', line);
        this.scopePath = [...this.scope];
        return;
      case 'var':
        this.declareVar(tokens, line);
        return;
      case 'enddefinitions':
        if (this.scope.length > 0) this.fail(`$enddefinitions inside $scope ${this.scope.join('.')}`, line);
        this.inHeader = false;
        this.stream?.header(this.signals);
        return;
      default:
        this.fail(`unknown header command $${printable(keyword)}`, line);
    }
  }

  private declareVar(tokens: string[], line: number): void {
    const [type, widthText, id, name, range, ...rest] = tokens;
    if (type === undefined || widthText === undefined || id === undefined || name === undefined || rest.length > 0) {
      this.fail(`bad $var '${printable(tokens.join(' '))}': expected type, width, id code and name`, line);
    }
    const kind = VAR_KINDS[type];
    if (kind === undefined) this.fail(`unknown $var type '${printable(type)}'`, line);
    const width = /^\d{1,8}$/.test(widthText) ? Number(widthText) : 0;
    if (width < 1 || width > WIDTH_LIMIT)
      this.fail(`bad width '${printable(widthText)}' for $var ${printable(name)}`, line);
    if (!/^[!-~]+$/.test(id)) this.fail(`bad id code '${printable(id)}' for $var ${printable(name)}`, line);
    if (range !== undefined && !/^\[\d+(:\d+)?\]$/.test(range))
      this.fail(`bad bit range '${printable(range)}' for $var ${printable(name)}`, line);
    const known = this.widths.get(id);
    if (known && (known.width !== width || known.kind !== kind))
      this.fail(`$var ${printable(name)} reuses id code ${id} with a different width or type`, line);
    if (this.signals.length >= VCD_LIMITS.signals) this.fail(`more than ${VCD_LIMITS.signals} signals`, line);
    const signal: VcdSignal = {
      id,
      path: this.scopePath,
      name,
      fullName: [...this.scope, name].join('.'),
      width,
      type,
      kind,
    };
    this.signals.push(signal);
    this.widths.set(id, { width, kind });
    if (!this.changes.has(id) && (this.options.keep?.(signal) ?? true)) this.changes.set(id, { times: [], values: [] });
  }

  private bodyToken(token: string): void {
    if (this.skippingComment) {
      if (token === '$end') this.skippingComment = false;
      return;
    }
    if (this.pendingVector) {
      const { value, kind } = this.pendingVector;
      this.pendingVector = undefined;
      this.record(token, value, kind);
      return;
    }
    const first = token[0];
    if (first === '#') {
      const time = /^#\d+$/.test(token) ? Number(token.slice(1)) : NaN;
      if (!Number.isSafeInteger(time)) this.fail(`bad time '${printable(token)}'`);
      if (time < this.time) this.fail(`time goes backwards: #${time} after #${this.time}`);
      this.time = time;
      this.stream?.time(time);
    } else if (first === '$') {
      this.simulationCommand(token);
    } else if (first === 'b' || first === 'B') {
      const value = token.slice(1).toLowerCase();
      if (!VECTOR_VALUE.test(value)) this.fail(`bad vector value '${printable(token)}'`);
      this.pendingVector = { value, kind: 'bits' };
    } else if (first === 'r' || first === 'R') {
      if (!REAL_VALUE.test(token.slice(1))) this.fail(`bad real value '${printable(token)}'`);
      this.pendingVector = { value: token.slice(1), kind: 'real' };
    } else if (first === 's' || first === 'S') {
      this.pendingVector = { value: token.slice(1), kind: 'string' };
    } else if (first !== undefined && SCALAR_VALUE.test(first) && token.length > 1) {
      this.record(token.slice(1), first.toLowerCase(), 'bits');
    } else {
      this.fail(`unexpected '${printable(token)}'`);
    }
  }

  private simulationCommand(token: string): void {
    switch (token) {
      case '$dumpvars':
      case '$dumpall':
      case '$dumpon':
      case '$dumpoff':
      case '$end':
        // The blocks' contents are ordinary value changes ($dumpoff lists x for every signal).
        return;
      case '$comment':
        this.skippingComment = true;
        return;
      default:
        this.fail(`unknown command ${printable(token)} after $enddefinitions`);
    }
  }

  private record(id: string, value: string, kind: VcdSignalKind): void {
    const declared = this.widths.get(id);
    if (!declared) this.fail(`unknown id code '${printable(id)}'`);
    if (declared.kind !== kind) this.fail(`${kind} value for ${declared.kind} signal with id code '${printable(id)}'`);
    if (kind === 'bits' && value.length > declared.width) {
      this.fail(`value of ${value.length} bits for a ${declared.width}-bit signal with id code '${printable(id)}'`);
    }
    const changes = this.changes.get(id);
    if (!changes) return;
    const full = kind === 'bits' ? extendBits(value, declared.width) : value;
    if (this.stream) {
      this.stream.change(id, full);
      return;
    }
    const last = changes.values.length - 1;
    if (last >= 0 && changes.times[last] === this.time) {
      // Several changes in one time step: keep the settled one (and drop it if it undoes the step).
      if (last >= 1 && changes.values[last - 1] === full) {
        changes.times.pop();
        changes.values.pop();
      } else {
        changes.values[last] = full;
      }
      return;
    }
    if (last >= 0 && changes.values[last] === full) return;
    changes.times.push(this.time);
    changes.values.push(full);
  }
}

/** A token as it may appear in an error message: short, printable. */
function printable(token: string): string {
  const clean = token.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}
