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
/** `isFramework` per file name as V8 reports it (a URL to convert each time cost ~1 µs per frame). */
const frameworkFiles = new Map<string, boolean>();
function isFrameworkFile(reported: string): boolean {
  let framework = frameworkFiles.get(reported);
  if (framework === undefined) frameworkFiles.set(reported, (framework = isFramework(framePath(reported))));
  return framework;
}

const FRAME = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?$/;

function parseFrame(frame: string): SourceLocation | undefined {
  const match = FRAME.exec(frame.trim());
  if (!match) return undefined;
  return { file: framePath(match[1] ?? ''), line: Number(match[2]), column: Number(match[3]) };
}

const UNKNOWN: SourceLocation = { file: '<unknown>', line: 0, column: 0 };

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
  return userLocation(SHALLOW_FRAMES) ?? userLocation(DEEP_FRAMES) ?? UNKNOWN;
}

/**
 * Frames looked at for the user's one: most constructs are made two or three frames below it, so
 * a short stack is captured first (each frame costs) and a longer one only when that finds none.
 */
const SHALLOW_FRAMES = 4;
const DEEP_FRAMES = 8;

function userLocation(limit: number): SourceLocation | undefined {
  const holder: { stack?: unknown } = {};
  const previousLimit = Error.stackTraceLimit;
  const previousPrepare = Error.prepareStackTrace;
  Error.stackTraceLimit = limit + 1;
  Error.prepareStackTrace = structuredFrames;
  let frames: NodeJS.CallSite[];
  try {
    Error.captureStackTrace(holder, userLocation);
    frames = holder.stack as NodeJS.CallSite[];
  } finally {
    Error.prepareStackTrace = previousPrepare;
    Error.stackTraceLimit = previousLimit;
  }
  if (!Array.isArray(frames)) return undefined;
  // frames[0] is captureSourceLocation itself.
  for (let index = 1; index < frames.length; index++) {
    const frame = frames[index]!;
    const file = frame.getFileName() ?? frame.getScriptNameOrSourceURL();
    if (!file || isFrameworkFile(file)) continue;
    return internedLocation(frame, file, previousPrepare);
  }
  return undefined;
}

/**
 * Resolved locations by the generated position they were captured at (file, then line and
 * column), per stack formatter in force at capture: a generator loop makes thousands of constructs
 * at one line, and they all share one location, resolved once. Keeping a location per construct
 * (even just its V8 call site, ~120 bytes) was a tenth of a large elaboration's memory, and holding
 * call sites lazily would retain their receivers for as long as the table lives; this table holds
 * only plain data, at most one entry per line of code that builds hardware.
 */
type LocationTable = Map<string, Map<number, SourceLocation>>;
let byFormat = new WeakMap<PrepareStackTrace, LocationTable>();
let withoutFormat: LocationTable = new Map();
/** Entries before the tables start over: only code generated at run time could make this many positions. */
const MAX_INTERNED = 200_000;
let internedCount = 0;

function internedLocation(frame: NodeJS.CallSite, file: string, format: PrepareStackTrace | undefined): SourceLocation {
  if (internedCount >= MAX_INTERNED) {
    byFormat = new WeakMap();
    withoutFormat = new Map();
    internedCount = 0;
  }
  let table = format ? byFormat.get(format) : withoutFormat;
  if (!table) byFormat.set(format!, (table = new Map()));
  let byPosition = table.get(file);
  if (!byPosition) table.set(file, (byPosition = new Map()));
  // Line and column of the generated code, in one number (columns stay below 2^21).
  const position = (frame.getLineNumber() ?? 0) * 2 ** 21 + (frame.getColumnNumber() ?? 0);
  let location = byPosition.get(position);
  if (!location) {
    location = Object.freeze(resolveFrame(frame, format));
    byPosition.set(position, location);
    internedCount++;
  }
  return location;
}

/** `file:line`, relative to the working directory when inside it, for messages and comments. */
export function formatLocation(location: SourceLocation): string {
  const cwd = process.cwd() + sep;
  const file = location.file.startsWith(cwd) ? location.file.slice(cwd.length) : location.file;
  return `${file}:${location.line}`;
}
