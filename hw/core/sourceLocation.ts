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
  // A loader may add a query to the URL (`?namespace=…`); the file is the path without it.
  const raw = (match[1] ?? '').replace(/\?[^/]*$/, '');
  const file = raw.startsWith('file://') ? fileURLToPath(raw) : raw;
  return { file, line: Number(match[2]), column: Number(match[3]) };
}

const UNKNOWN: SourceLocation = { file: '<unknown>', line: 0, column: 0 };

/** The first frame of a formatted stack that is the user's, not the framework's. */
function userFrame(stack: string): SourceLocation {
  for (const frame of stack.split('\n').slice(1)) {
    const location = parseFrame(frame);
    if (location && !isFramework(location.file)) return location;
  }
  return UNKNOWN;
}

/**
 * A location captured as V8's structured stack and resolved to file:line on first use. Capturing is
 * cheap; formatting the stack (source maps, strings) is what costs, and most constructs' locations
 * are never read (only errors, Verilog comments and manifests read them).
 */
class CapturedLocation implements SourceLocation {
  private holder: { stack?: string } | undefined;
  private resolved: SourceLocation | undefined;

  constructor(holder: { stack?: string }) {
    this.holder = holder;
  }

  private get location(): SourceLocation {
    if (!this.resolved) {
      this.resolved = userFrame(this.holder?.stack ?? '');
      this.holder = undefined;
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

/**
 * The user's file:line that is constructing hardware right now. Amaranth's `src_loc` idea: capture
 * once at construction, so every later error and every emitted line can name it.
 */
export function captureSourceLocation(): SourceLocation {
  const holder: { stack?: string } = {};
  const previousLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 8;
  Error.captureStackTrace(holder, captureSourceLocation);
  Error.stackTraceLimit = previousLimit;
  return new CapturedLocation(holder);
}

/** `file:line`, relative to the working directory when inside it, for messages and comments. */
export function formatLocation(location: SourceLocation): string {
  const cwd = process.cwd() + sep;
  const file = location.file.startsWith(cwd) ? location.file.slice(cwd.length) : location.file;
  return `${file}:${location.line}`;
}
