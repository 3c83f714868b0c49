import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { ToolError } from '../common/errors.ts';
import { findTool, isToolName, TOOLS } from './toolchain.ts';

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
}

/** The last lines of a tool's output, for error messages. */
export function tail(text: string, lines = TAIL_LINES): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** The Debian package of a tool, or the program's own name for one the toolchain does not know. */
const packageOf = (program: string): string => (isToolName(program) ? TOOLS[program].debianPackage : program);

/**
 * Runs an external program: the one contract for every tool. A toolchain name (`verilator`,
 * `yosys`, `sta`, … see toolchain.ts) runs the program findTool resolves (so its environment
 * override applies), any other program as given. Stdin is closed. A missing program, a non-zero
 * exit (unless accepted), a crash or a timeout becomes a ToolError naming the tool (and, when
 * missing, the Debian package to install) with the last lines of its output.
 */
export async function runTool(program: string, args: readonly string[], options: ToolOptions = {}): Promise<ToolRun> {
  const executable = isToolName(program) ? findTool(program) : program;
  const result = await execa(executable, args, {
    cwd: options.cwd,
    timeout: options.timeout,
    reject: false,
    all: false,
    stdin: 'ignore',
    stripFinalNewline: false,
  });
  if ((result as { code?: string }).code === 'ENOENT')
    throw new ToolError(program, `not installed (apt-get install ${packageOf(program)})`);
  const stdout = String(result.stdout ?? '');
  const stderr = String(result.stderr ?? '');
  if (result.timedOut) throw new ToolError(program, `timed out after ${options.timeout} ms\n${tail(stderr || stdout)}`);
  const accept = options.acceptExitCodes ?? [];
  const accepted =
    result.exitCode !== undefined && !result.signal && (accept === 'any' || accept.includes(result.exitCode));
  if (result.failed && !accepted) {
    const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
    throw new ToolError(program, `${how}\n${tail(stderr || stdout)}`);
  }
  return { stdout, stderr, exitCode: result.exitCode ?? 0 };
}

/** The first line of `program <flag>` (e.g. `--version`), part of every build cache key. */
export async function toolVersion(program: string, flag = '--version'): Promise<string> {
  const { stdout } = await runTool(program, [flag], { timeout: 30_000 });
  return stdout.split('\n')[0]!.trim();
}

/**
 * Runs `use` in a fresh private folder under the system temp folder holding `files` (name → text),
 * removed afterwards whatever happens, so concurrent runs never see each other's files.
 */
export async function withWorkspace<T>(
  prefix: string,
  files: Readonly<Record<string, string>>,
  use: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
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
