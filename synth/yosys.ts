import { ToolError } from '../common/errors.ts';
import { runTool } from '../tools/runToolSteps.ts';

/** Which Yosys runs the script: the WebAssembly build from npm (default) or a system binary. */
export type YosysEngine = 'yowasp' | 'system';

export const yosysEngines: readonly YosysEngine[] = ['yowasp', 'system'];

export interface YosysResult {
  /** Requested output files (name → text). */
  readonly files: Readonly<Record<string, string>>;
  /** The full Yosys log (`-l`), for stat parsing and for users who want to read it. */
  readonly log: string;
}

const logName = 'yosys.log';
const scriptName = 'flow.ys';

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

async function runSystem(
  script: string,
  inputs: Readonly<Record<string, string>>,
  outputs: readonly string[],
  timeoutMs?: number,
): Promise<YosysResult> {
  const result = await runTool({
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    steps: [{ command: 'yosys', args: ['-q', '-l', logName, '-s', scriptName], debianPackage: 'yosys' }],
    inputs: { ...inputs, [scriptName]: script },
    outputs: [logName, ...outputs],
  });
  const log = result.files[logName] ?? `${result.stdout}\n${result.stderr}`;
  if (result.exitCode !== 0) throw new ToolError('yosys', firstError(log));
  const found: Record<string, string> = {};
  for (const [name, text] of Object.entries(result.files)) if (text !== undefined) found[name] = text;
  return { files: collectOutputs(found, outputs, log), log };
}

/**
 * Runs a Yosys script over in-memory files and returns the named output files and the log.
 * File names must be plain (no directories): both engines run in a private flat directory.
 * `timeoutMs` limits the system Yosys (default runTool's 120 s); the embedded one runs in-process.
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
