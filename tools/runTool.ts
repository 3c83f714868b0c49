import { execa } from 'execa';
import { ToolError } from '../common/errors.ts';

/** Lines of a failing tool's stderr worth showing: enough to see the error, not a whole log. */
const TAIL_LINES = 20;

/** The Debian package that provides each external program, for the "not installed" message. */
const DEBIAN_PACKAGES: Readonly<Record<string, string>> = {
  verilator: 'verilator',
  iverilog: 'iverilog',
  vvp: 'iverilog',
  yosys: 'yosys',
  'g++': 'g++',
  make: 'make',
};

export interface ToolRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export interface ToolOptions {
  readonly cwd?: string;
  /** Milliseconds before the tool is killed and reported as timed out. */
  readonly timeout?: number;
  /** Non-zero exit codes that are answers, not failures (a checker reporting problems). */
  readonly acceptExitCodes?: readonly number[];
}

/** The last lines of a tool's output, for error messages. */
export function tail(text: string, lines = TAIL_LINES): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Runs an external program; a missing program, a non-zero exit, a crash or a timeout becomes a
 * ToolError naming the program (and, when missing, the Debian package to install).
 */
export async function runTool(program: string, args: readonly string[], options: ToolOptions = {}): Promise<ToolRun> {
  const result = await execa(program, args, {
    cwd: options.cwd,
    timeout: options.timeout,
    reject: false,
    all: false,
    stripFinalNewline: false,
  });
  if ((result as { code?: string }).code === 'ENOENT')
    throw new ToolError(program, `not installed (apt-get install ${DEBIAN_PACKAGES[program] ?? program})`);
  const stdout = String(result.stdout ?? '');
  const stderr = String(result.stderr ?? '');
  if (result.timedOut) throw new ToolError(program, `timed out after ${options.timeout} ms\n${tail(stderr || stdout)}`);
  const accepted = result.exitCode !== undefined && (options.acceptExitCodes ?? []).includes(result.exitCode);
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
