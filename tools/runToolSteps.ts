import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { ToolError } from '../common/errors.ts';

/** One program invocation inside a tool run. */
export interface ToolStep {
  readonly command: string;
  readonly args: readonly string[];
  /** Debian package that provides `command`, named in the error when it is missing. */
  readonly debianPackage: string;
}

/** External programs run one after another in one working directory. */
export interface ToolRun {
  readonly steps: readonly ToolStep[];
  /** Files written into a fresh working directory before the run (name → text). */
  readonly inputs: Readonly<Record<string, string>>;
  /** Names of files to read back after the run; a missing one is undefined in the result. */
  readonly outputs: readonly string[];
  /** Per step. */
  readonly timeoutMs?: number;
}

export interface ToolResult {
  /** Output of all steps that ran, in order. */
  readonly stdout: string;
  readonly stderr: string;
  /** Exit code of the last step that ran (the first that failed, if any did). */
  readonly exitCode: number;
  /** The step that failed, if one did. */
  readonly failedStep?: string;
  readonly files: Readonly<Record<string, string | undefined>>;
}

/**
 * Runs programs in a private temporary directory (removed afterwards) so concurrent runs never
 * see each other's files. A missing program becomes a ToolError naming its Debian package; a
 * non-zero exit stops the sequence and is returned, not thrown, because each tool reports
 * failure its own way.
 */
export async function runTool(run: ToolRun): Promise<ToolResult> {
  const directory = mkdtempSync(join(tmpdir(), 'coruscant-synth-'));
  const timeout = run.timeoutMs ?? 120_000;
  try {
    for (const [name, text] of Object.entries(run.inputs)) writeFileSync(join(directory, name), text);
    let stdout = '';
    let stderr = '';
    let exitCode = 0;
    let failedStep: string | undefined;
    for (const step of run.steps) {
      const result = await execa(step.command, [...step.args], {
        cwd: directory,
        reject: false,
        timeout,
        stdin: 'ignore',
      });
      if ((result as { code?: string }).code === 'ENOENT') {
        throw new ToolError(
          step.command,
          `not found on PATH; install the Debian package \`${step.debianPackage}\` (apt-get install -y ${step.debianPackage})`,
        );
      }
      if (result.timedOut) throw new ToolError(step.command, `timed out after ${timeout} ms`);
      stdout += String(result.stdout);
      stderr += String(result.stderr);
      exitCode = result.exitCode ?? -1;
      if (exitCode !== 0) {
        failedStep = step.command;
        break;
      }
    }
    const files: Record<string, string | undefined> = {};
    for (const name of run.outputs) {
      const path = join(directory, name);
      files[name] = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    }
    return { stdout, stderr, exitCode, ...(failedStep ? { failedStep } : {}), files };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
