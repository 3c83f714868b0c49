import { findSourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { sep, resolve } from 'node:path';

/** Where in the user's code a hardware construct was made: errors point here, Verilog comments cite it. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** Frames from these places are the framework itself; the user's line is the first frame outside them. */
const coreFolder = fileURLToPath(new URL('.', import.meta.url));
const FRAMEWORK_PREFIXES = [coreFolder, resolve(coreFolder, '..', 'ir') + sep, 'node:'];
const isFramework = (file: string): boolean =>
  FRAMEWORK_PREFIXES.some((prefix) => file.startsWith(prefix)) || file.includes(`${sep}node_modules${sep}`);

const FRAME = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?$/;

function parseFrame(frame: string): SourceLocation | undefined {
  const match = FRAME.exec(frame.trim());
  if (!match) return undefined;
  return { file: framePath(match[1] ?? ''), line: Number(match[2]), column: Number(match[3]) };
}

const UNKNOWN: SourceLocation = { file: '<unknown>', line: 0, column: 0 };

/**
 * A location captured as the one call site of the user's frame, picked from V8's structured stack
 * at capture (file names compared, no string formatting), and resolved to the original file:line
 * on first use, through the stack formatter in force at capture (a test runner's source maps) or
 * else Node's source maps. Holding the whole structured stack instead (8 call sites, each
 * retaining its function and receiver, hence the design graph) cost ~1.2 KB per construct, half
 * the memory of a large elaboration. Most constructs' locations are never read (only errors,
 * Verilog comments and manifests read them).
 */
class CapturedLocation implements SourceLocation {
  private frame: NodeJS.CallSite | undefined;
  private format: PrepareStackTrace | undefined;
  private resolved: SourceLocation | undefined;

  constructor(frame: NodeJS.CallSite, format: PrepareStackTrace | undefined) {
    this.frame = frame;
    this.format = format;
  }

  private get location(): SourceLocation {
    if (!this.resolved) {
      this.resolved = resolveFrame(this.frame!, this.format);
      this.frame = undefined;
      this.format = undefined;
    }
    return this.resolved;
  }

  get file(): string {
    return this.location.file;
  }

  get line(): number {
    return this.location.line;
  }

  get column(): number {
    return this.location.column;
  }

  /** Plain data for JSON and snapshots (the fields are getters). */
  toJSON(): SourceLocation {
    const { file, line, column } = this.location;
    return { file, line, column };
  }
}

/** A stack frame's file as a path: a file URL converted, a loader's query (`?namespace=…`) dropped. */
function framePath(file: string): string {
  const raw = file.replace(/\?[^/]*$/, '');
  return raw.startsWith('file://') ? fileURLToPath(raw) : raw;
}

/** The original file:line:column of a generated position (1-based), as a formatted stack would show it. */
function originalLocation(file: string, line: number, column: number): SourceLocation {
  const entry = findSourceMap(file)?.findEntry(line - 1, column - 1) as
    { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
  if (entry?.originalSource !== undefined && entry.originalLine !== undefined && entry.originalColumn !== undefined)
    return { file: framePath(entry.originalSource), line: entry.originalLine + 1, column: entry.originalColumn + 1 };
  return { file: framePath(file), line, column };
}

type PrepareStackTrace = (error: Error, frames: NodeJS.CallSite[]) => unknown;

/** A call site's original location: formatted as the formatter in force at capture would, else through Node's source maps. */
function resolveFrame(frame: NodeJS.CallSite, format: PrepareStackTrace | undefined): SourceLocation {
  if (format) {
    const text = format(new Error('location'), [frame]);
    const location = typeof text === 'string' ? parseFrame(text.split('\n').pop() ?? '') : undefined;
    if (location) return location;
  }
  const file = frame.getFileName() ?? frame.getScriptNameOrSourceURL() ?? '<unknown>';
  return originalLocation(file, frame.getLineNumber() ?? 0, frame.getColumnNumber() ?? 0);
}

const structuredFrames = (_error: Error, frames: NodeJS.CallSite[]): NodeJS.CallSite[] => frames;

/**
 * The user's file:line that is constructing hardware right now. Amaranth's `src_loc` idea: capture
 * once at construction, so every later error and every emitted line can name it.
 */
export function captureSourceLocation(): SourceLocation {
  const holder: { stack?: unknown } = {};
  const previousLimit = Error.stackTraceLimit;
  const previousPrepare = Error.prepareStackTrace;
  Error.stackTraceLimit = 8;
  Error.prepareStackTrace = structuredFrames;
  let frames: NodeJS.CallSite[];
  try {
    Error.captureStackTrace(holder, captureSourceLocation);
    frames = holder.stack as NodeJS.CallSite[];
  } finally {
    Error.prepareStackTrace = previousPrepare;
    Error.stackTraceLimit = previousLimit;
  }
  for (const frame of Array.isArray(frames) ? frames : []) {
    const file = frame.getFileName() ?? frame.getScriptNameOrSourceURL();
    if (!file || isFramework(framePath(file))) continue;
    return new CapturedLocation(frame, previousPrepare);
  }
  return UNKNOWN;
}

/** `file:line`, relative to the working directory when inside it, for messages and comments. */
export function formatLocation(location: SourceLocation): string {
  const cwd = process.cwd() + sep;
  const file = location.file.startsWith(cwd) ? location.file.slice(cwd.length) : location.file;
  return `${file}:${location.line}`;
}
