import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { execa } from 'execa';
import { ToolError } from '../common/errors.ts';
import { findTool, isToolName, onPath, TOOLS } from './toolchain.ts';
import { isDeadProcess } from './processes.ts';
import { pathInside } from '../common/pathInside.ts';

/** Lines of a failing tool's stderr worth showing: enough to see the error, not a whole log. */
const TAIL_LINES = 20;

export interface ToolRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export interface ToolOptions {
  readonly cwd?: string;
  /** Milliseconds before the tool is killed and reported as timed out. */
  readonly timeout?: number;
  /**
   * Non-zero exit codes that are answers, not failures (a checker reporting problems), or `'any'`
   * for a tool whose caller reads the failure from its output (Yosys's log, OpenSTA's report).
   * A crash (killed by a signal) and a timeout are failures whatever this says.
   */
  readonly acceptExitCodes?: readonly number[] | 'any';
  /** The name messages give the tool (default: the program), e.g. `verilator` for a Verilated binary. */
  readonly name?: string;
  /**
   * Where the tool keeps its temporaries (its TMPDIR, TMP and TEMP: g++'s `.s` files, iverilog's
   * `ivrlg*`, Yosys's ABC folders), a folder removed with its owner (a build's temporary cache
   * entry). By default a private folder of the run under the system temp folder, removed when the
   * tool ends and swept with the workspaces of dead processes: never a file loose in /tmp that a
   * killed tool leaves for good.
   */
  readonly tmpdir?: string;
}

/** The variables through which programs find their temporary folder (GNU tools, iverilog, Yosys). */
const TEMPORARY_FOLDER_VARIABLES = ['TMPDIR', 'TMP', 'TEMP'] as const;

/** The last lines of a tool's output, for error messages. */
export function tail(text: string, lines = TAIL_LINES): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** The Debian package of a tool, or the program's own name for one the toolchain does not know. */
const packageOf = (program: string): string => (isToolName(program) ? TOOLS[program].debianPackage : program);

/**
 * The shell that runs every tool, so that a tool and everything it starts (make's g++, a
 * simulator's children) live in one process group of their own and end with it: the program runs
 * in the background with stdin from /dev/null, and a guard waits on the pipe from this process;
 * when that pipe closes — this process ended (even by SIGKILL) or gave up on the tool — the guard
 * kills the whole group. A program killed by a signal is reported as killed by that signal.
 */
const GUARD_SCRIPT = [
  'exec 3<&0',
  '"$@" </dev/null 3<&- &',
  'child=$!',
  '(read -r _ <&3; kill -KILL 0) &',
  'guard=$!',
  'exec 3<&-',
  'wait "$child" 2>/dev/null; status=$?',
  'kill "$guard" 2>/dev/null',
  'if [ "$status" -gt 128 ] && [ "$status" -lt 160 ]; then kill -$((status - 128)) $$; fi',
  'exit "$status"',
].join('\n');

/** After a timeout closes the guard's pipe, how long before the group is killed from here. */
const KILL_GRACE_MS = 5_000;

/**
 * Runs an external program: the one contract for every tool. A toolchain name (`verilator`,
 * `yosys`, `sta`, … see toolchain.ts) runs the program findTool resolves (so its environment
 * override applies), any other program as given. The tool gets no stdin and runs in its own
 * process group, ended with this process or at the timeout (children included). A missing
 * program, a non-zero exit (unless accepted), a crash or a timeout becomes a ToolError naming the
 * tool (and, when missing, the Debian package to install) with the last lines of its output.
 */
export async function runTool(program: string, args: readonly string[], options: ToolOptions = {}): Promise<ToolRun> {
  const temporaries = options.tmpdir;
  if (temporaries === undefined)
    return withWorkspace('tool', {}, (dir) => runTool(program, args, { ...options, tmpdir: dir }));
  const executable = isToolName(program) ? findTool(program) : program;
  const name = options.name ?? program;
  // A relative path is the tool's, from its working folder, as the shell will resolve it.
  const where =
    executable.includes('/') && !isAbsolute(executable) ? resolve(options.cwd ?? '.', executable) : executable;
  if (!onPath(where)) throw new ToolError(name, `not installed (apt-get install ${packageOf(program)})`);
  const subprocess = execa('/bin/sh', ['-c', GUARD_SCRIPT, 'tool-guard', executable, ...args], {
    cwd: options.cwd,
    env: Object.fromEntries(TEMPORARY_FOLDER_VARIABLES.map((name) => [name, temporaries])),
    reject: false,
    all: false,
    stdin: 'pipe',
    detached: true,
    stripFinalNewline: false,
  });
  let timedOut = false;
  const timers: NodeJS.Timeout[] = [];
  if (options.timeout !== undefined)
    timers.push(
      setTimeout(() => {
        timedOut = true;
        subprocess.stdin?.end();
        timers.push(
          setTimeout(() => {
            try {
              if (subprocess.pid !== undefined && !isDeadProcess(subprocess.pid))
                process.kill(-subprocess.pid, 'SIGKILL');
            } catch {
              // The group ended in between.
            }
          }, KILL_GRACE_MS),
        );
      }, options.timeout),
    );
  const result = await subprocess;
  for (const timer of timers) clearTimeout(timer);
  subprocess.stdin?.destroy();
  const stdout = String(result.stdout ?? '');
  const stderr = String(result.stderr ?? '');
  if (timedOut) throw new ToolError(name, `timed out after ${options.timeout} ms\n${tail(stderr || stdout)}`);
  const accept = options.acceptExitCodes ?? [];
  const accepted =
    result.exitCode !== undefined && !result.signal && (accept === 'any' || accept.includes(result.exitCode));
  if (result.failed && !accepted) {
    const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
    throw new ToolError(name, `${how}\n${tail(stderr || stdout)}`);
  }
  return { stdout, stderr, exitCode: result.exitCode ?? 0 };
}

/** The first line of `program <flag>` (e.g. `--version`), part of every build cache key. */
export async function toolVersion(program: string, flag = '--version'): Promise<string> {
  const { stdout } = await runTool(program, [flag], { timeout: 30_000 });
  return stdout.split('\n')[0]!.trim();
}

/** Workspace folders are `gen-<prefix>-<pid>-<random>` in the system temp folder. */
const WORKSPACE = /^gen-[A-Za-z0-9-]+?-(\d+)-[A-Za-z0-9]{6}$/;

let workspacesSwept = false;

/** Removes the workspaces of processes that are gone (a kill leaves them behind); returns their names. */
export function sweepWorkspaces(): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return removed;
  }
  for (const name of names) {
    const match = WORKSPACE.exec(name);
    if (!match || !isDeadProcess(Number(match[1]))) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/**
 * Runs `use` in a fresh private folder under the system temp folder holding `files` (name → text),
 * removed afterwards whatever happens, so concurrent runs never see each other's files. The folder
 * is named after this process, and the first workspace of a process removes those of dead ones.
 */
export async function withWorkspace<T>(
  prefix: string,
  files: Readonly<Record<string, string>>,
  use: (dir: string) => Promise<T>,
): Promise<T> {
  if (!workspacesSwept) {
    workspacesSwept = true;
    sweepWorkspaces();
  }
  const dir = mkdtempSync(join(tmpdir(), `gen-${prefix}-${process.pid}-`));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(pathInside(dir, name), text);
    return await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Files a tool wrote into `dir`, by name; one it did not write is undefined. */
export function readOutputs(dir: string, names: readonly string[]): Record<string, string | undefined> {
  const files: Record<string, string | undefined> = {};
  for (const name of names) {
    const path = join(dir, name);
    files[name] = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  }
  return files;
}

/**
 * The guard of a tool that keeps running (startTool): the program gets the shell's standard input
 * and output (the caller's pipes), and a guard waits on fd 3, a pipe from this process that is
 * never written; when it closes (this process ended, even by SIGKILL) the guard kills the group.
 */
const sessionGuardScript = (pipedInput: boolean): string =>
  [
    'exec 4<&0',
    // Node's pipes are socket pairs; a program that opens /dev/stdin needs a real pipe.
    pipedInput ? 'cat <&4 4<&- 3<&- | "$@" 4<&- 3<&- &' : '"$@" <&4 4<&- 3<&- &',
    'child=$!',
    '(read -r _ <&3; kill -KILL 0) </dev/null >/dev/null 2>&1 4<&- &',
    'guard=$!',
    'exec 3<&- 4<&- </dev/null >/dev/null',
    'wait "$child" 2>/dev/null; status=$?',
    'kill "$guard" 2>/dev/null',
    'if [ "$status" -gt 128 ] && [ "$status" -lt 160 ]; then kill -$((status - 128)) $$; fi',
    'exit "$status"',
  ].join('\n');

/** How a started tool ended: its exit code, or the signal that killed it. */
export interface ToolExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A tool that keeps running while this process talks to it over its standard input and output. */
export interface StartedTool {
  /** The tool's process group (the guard shell's id). */
  readonly pid: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** The last lines the tool wrote to its standard error. */
  stderrTail(): string;
  /** Settles when the tool has ended. */
  readonly exited: Promise<ToolExit>;
  /** Kills the tool and everything it started (SIGKILL to the group). */
  kill(): void;
  /** Whether the tool keeps this process's event loop alive (only while someone waits for it). */
  hold(held: boolean): void;
}

/** Every started tool still running, killed when this process exits. */
const startedGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group ended already.
  }
}

/**
 * Starts a program that keeps running (a simulator session), in its own process group like
 * runTool's tools: it ends with this process (a guard on a pipe from here, and an exit hook), or
 * when `kill` is called. `pipedInput`: its standard input is a pipe (through `cat`), for a program
 * that opens /dev/stdin. A missing program is a ToolError naming its package.
 */
export function startTool(
  program: string,
  args: readonly string[],
  options: { cwd?: string; name?: string; pipedInput?: boolean } = {},
): StartedTool {
  const executable = isToolName(program) ? findTool(program) : program;
  const name = options.name ?? program;
  const where =
    executable.includes('/') && !isAbsolute(executable) ? resolve(options.cwd ?? '.', executable) : executable;
  if (!onPath(where)) throw new ToolError(name, `not installed (apt-get install ${packageOf(program)})`);
  const child = spawn(
    '/bin/sh',
    ['-c', sessionGuardScript(options.pipedInput === true), 'tool-guard', executable, ...args],
    {
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      detached: true,
    },
  );
  const pid = child.pid;
  if (pid === undefined) throw new ToolError(name, 'could not be started');
  startedGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const group of startedGroups) killGroup(group);
    });
  }
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8192);
  });
  // Ended: the program has exited and its output has been read to the end ('close' would wait
  // for the guard's pipe too, which this side holds).
  const exit = new Promise<ToolExit>((resolveExit) =>
    child.on('exit', (code, signal) => resolveExit({ code, signal })),
  );
  const drained = new Promise<void>((resolveDrained) => child.stdout!.on('close', () => resolveDrained()));
  const exited = Promise.all([exit, drained]).then(([result]) => {
    startedGroups.delete(pid);
    (child.stdio[3] as Writable).destroy();
    return result;
  });
  // Errors on the pipes (EPIPE after a crash) are reported through `exited`.
  for (const stream of [child.stdin!, child.stdout!, child.stderr!, child.stdio[3] as Writable])
    stream.on('error', () => {});
  const handles = [child.stdout!, child.stderr!, child.stdin!, child.stdio[3]] as unknown as {
    ref?: () => void;
    unref?: () => void;
  }[];
  return {
    pid,
    stdin: child.stdin!,
    stdout: child.stdout!,
    stderrTail: () => tail(stderr),
    exited,
    kill: () => killGroup(pid),
    hold: (held) => {
      if (held) child.ref();
      else child.unref();
      for (const handle of handles) (held ? handle.ref : handle.unref)?.call(handle);
    },
  };
}
