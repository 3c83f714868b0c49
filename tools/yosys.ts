import { ToolError } from '../common/errors.ts';
import { readOutputs, runTool, withWorkspace } from './runTool.ts';
import type { YosysEngine } from './toolchain.ts';

export { findYosys, yosysEngines, type YosysEngine } from './toolchain.ts';

export interface YosysResult {
  /** Requested output files (name → text). */
  readonly files: Readonly<Record<string, string>>;
  /** The full Yosys log (`-l`), for stat parsing and for users who want to read it. */
  readonly log: string;
}

const logName = 'yosys.log';
const scriptName = 'flow.ys';
/** Default limit for one script on the system Yosys. */
const SYSTEM_TIMEOUT_MS = 120_000;

/** The first ERROR line of a Yosys log, which is the line a user needs to see. */
function firstError(log: string): string {
  const line = log.split('\n').find((text) => text.includes('ERROR:'));
  return line ?? log.trim().split('\n').slice(-3).join(' | ');
}

function collectOutputs(
  found: Readonly<Record<string, unknown>>,
  outputs: readonly string[],
  log: string,
): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of outputs) {
    const value = found[name];
    if (typeof value === 'string') files[name] = value;
    else if (value instanceof Uint8Array) files[name] = new TextDecoder().decode(value);
    else throw new ToolError('yosys', `produced no ${name}; ${firstError(log)}`);
  }
  return files;
}

async function runEmbedded(
  script: string,
  inputs: Readonly<Record<string, string>>,
  outputs: readonly string[],
): Promise<YosysResult> {
  const tree = { ...inputs, [scriptName]: script };
  let found: Readonly<Record<string, unknown>>;
  // Loaded on demand: the bundle is large and most `gen` commands never synthesize.
  const { runYosys } = await import('@yowasp/yosys');
  try {
    found = (await runYosys(['-q', '-l', logName, '-s', scriptName], tree, { stdout: null, stderr: null })) ?? {};
  } catch (error) {
    const files = (error as { files?: Record<string, unknown> }).files ?? {};
    const log = files[logName];
    throw new ToolError('yosys', typeof log === 'string' ? firstError(log) : String(error));
  }
  const log = typeof found[logName] === 'string' ? (found[logName] as string) : '';
  return { files: collectOutputs(found, outputs, log), log };
}

function runSystem(
  script: string,
  inputs: Readonly<Record<string, string>>,
  outputs: readonly string[],
  timeoutMs = SYSTEM_TIMEOUT_MS,
): Promise<YosysResult> {
  return withWorkspace('yosys', { ...inputs, [scriptName]: script }, async (dir) => {
    // The exit code is read from the log: Yosys names its error there.
    const run = await runTool('yosys', ['-q', '-l', logName, '-s', scriptName], {
      cwd: dir,
      timeout: timeoutMs,
      acceptExitCodes: 'any',
    });
    const written = readOutputs(dir, [logName, ...outputs]);
    const log = written[logName] ?? `${run.stdout}\n${run.stderr}`;
    if (run.exitCode !== 0) throw new ToolError('yosys', firstError(log));
    const found: Record<string, string> = {};
    for (const [name, text] of Object.entries(written)) if (text !== undefined) found[name] = text;
    return { files: collectOutputs(found, outputs, log), log };
  });
}

/**
 * Runs a Yosys script over in-memory files and returns the named output files and the log.
 * File names must be plain (no directories): both engines run in a private flat directory.
 * `timeoutMs` limits the system Yosys (default 120 s); the embedded one runs in-process.
 * Choose `engine` with findYosys (toolchain.ts).
 */
export async function runYosysScript(
  script: string,
  inputs: Readonly<Record<string, string>>,
  outputs: readonly string[],
  engine: YosysEngine = 'yowasp',
  timeoutMs?: number,
): Promise<YosysResult> {
  return engine === 'system' ? runSystem(script, inputs, outputs, timeoutMs) : runEmbedded(script, inputs, outputs);
}

/**
 * Runs the embedded Yosys with `args` over in-memory files and returns everything it printed, and
 * whether it failed (the caller reads the failure from the output).
 */
export async function runEmbeddedYosys(
  args: readonly string[],
  files: Readonly<Record<string, string>>,
): Promise<{ readonly output: string; readonly failed: boolean }> {
  const { runYosys } = await import('@yowasp/yosys');
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  const collect = (bytes: Uint8Array | null): void =>
    void (bytes && chunks.push(decoder.decode(bytes, { stream: true })));
  let failed = false;
  try {
    await runYosys([...args], files, { stdout: collect, stderr: collect });
  } catch (error) {
    if (!(error instanceof Error && 'code' in error)) throw error;
    failed = true;
  }
  return { output: chunks.join(''), failed };
}
