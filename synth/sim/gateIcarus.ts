import { ToolError } from '../../common/errors.ts';
import { runTool } from '../../tools/runToolSteps.ts';

export interface IcarusRun {
  /** Verilog sources (name → text), compiled together. */
  readonly sources: Readonly<Record<string, string>>;
  readonly top: string;
  /** Other files the simulation reads ($readmemh data). */
  readonly data?: Readonly<Record<string, string>>;
  /** Files the simulation writes that we want back (a VCD). */
  readonly outputs?: readonly string[];
  /** Per step (compile, run); default runTool's 120 s. Large gate-level netlists need more. */
  readonly timeoutMs?: number;
}

export interface IcarusResult {
  readonly stdout: string;
  readonly files: Readonly<Record<string, string | undefined>>;
}

/** Compiles with `iverilog` and runs with `vvp`; a compile or run failure is a ToolError with the tool's message. */
export async function runIcarus(run: IcarusRun): Promise<IcarusResult> {
  const sourceNames = Object.keys(run.sources);
  const result = await runTool({
    steps: [
      {
        command: 'iverilog',
        args: ['-g2012', '-s', run.top, '-o', 'sim.vvp', ...sourceNames],
        debianPackage: 'iverilog',
      },
      { command: 'vvp', args: ['-n', 'sim.vvp'], debianPackage: 'iverilog' },
    ],
    inputs: { ...run.sources, ...run.data },
    outputs: run.outputs ?? [],
    ...(run.timeoutMs !== undefined ? { timeoutMs: run.timeoutMs } : {}),
  });
  if (result.failedStep) {
    const message = `${result.stderr}\n${result.stdout}`.trim().split('\n').slice(0, 5).join(' | ');
    throw new ToolError(result.failedStep, message);
  }
  return { stdout: result.stdout, files: result.files };
}
