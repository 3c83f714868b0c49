import { ToolError } from '../common/errors.ts';
import { startTool, type StartedTool, type ToolExit } from '../tools/runTool.ts';
import { FrameReader, type FrameHandlers } from './harnessStimulus.ts';

/** How to start a harness: the program, its arguments, and the name its messages give it. */
export interface HarnessLaunch {
  readonly program: string;
  readonly args: readonly string[];
  /** `verilator` for a Verilated binary, `vvp` for Icarus. */
  readonly name: string;
  readonly cwd?: string;
  /** It opens /dev/stdin (the Icarus testbench), which needs a real pipe. */
  readonly pipedInput?: boolean;
}

/**
 * One running simulator harness speaking the binary protocol (harnessStimulus.ts) over its
 * standard input and output: commands written with backpressure, frames and text lines handed
 * to `handlers` in order, a watchdog armed around each wait, and one line when it ends in any way
 * but OP_END (exit code or signal, or the watchdog, with the last line it wrote to stderr).
 * The process is killed by `kill`, on the watchdog, and with this process (startTool's guard).
 */
export class HarnessProcess {
  private readonly tool: StartedTool;
  private readonly reader: FrameReader;
  private timer: NodeJS.Timeout | undefined;
  private timedOut: number | undefined;
  private failure: ToolError | undefined;
  /** Settles when the harness ended: resolves on a clean exit, rejects with its one-line error. */
  readonly ended: Promise<void>;

  constructor(
    readonly launch: HarnessLaunch,
    outputWords: number,
    handlers: FrameHandlers,
    /** Called once with the error when the harness ends badly (before `ended` rejects). */
    onFailure: (error: ToolError) => void = () => {},
  ) {
    this.tool = startTool(launch.program, launch.args, {
      name: launch.name,
      ...(launch.cwd === undefined ? {} : { cwd: launch.cwd }),
      pipedInput: launch.pipedInput === true,
    });
    this.reader = new FrameReader(launch.name, outputWords, handlers);
    this.tool.stdout.on('data', (chunk: Buffer) => {
      if (this.failure) return;
      try {
        this.reader.feed(chunk);
      } catch (error) {
        this.failure = error instanceof ToolError ? error : new ToolError(launch.name, String(error));
        onFailure(this.failure);
        this.tool.kill();
      }
    });
    this.ended = this.tool.exited.then((exit) => {
      this.unwatch();
      const error = this.failure ?? this.exitError(exit);
      if (error) {
        if (!this.failure) {
          this.failure = error;
          onFailure(error);
        }
        throw error;
      }
    });
    // A caller that never awaits `ended` must not see an unhandled rejection.
    this.ended.catch(() => {});
  }

  private exitError(exit: ToolExit): ToolError | undefined {
    const name = this.launch.name;
    if (this.timedOut !== undefined) return new ToolError(name, `timed out after ${this.timedOut} ms`);
    const said = this.tool.stderrTail().split('\n').pop()?.trim();
    const detail = said ? `: ${said}` : '';
    if (exit.signal) return new ToolError(name, `the simulation was killed by ${exit.signal}${detail}`);
    if (exit.code !== 0) return new ToolError(name, `the simulation exited with code ${exit.code}${detail}`);
    if (this.reader.leftover > 0) return new ToolError(name, 'the simulation stopped in the middle of a frame');
    return undefined;
  }

  /** The process group, for tests that check it ends. */
  get pid(): number {
    return this.tool.pid;
  }

  /** Writes commands; resolves when the pipe took them (an ended harness drops them: `ended` says why). */
  write(bytes: Buffer): Promise<void> {
    if (bytes.length === 0 || this.tool.stdin.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.tool.stdin.write(bytes)) resolve();
      else {
        const done = (): void => {
          this.tool.stdin.off('drain', done);
          this.tool.stdin.off('close', done);
          resolve();
        };
        this.tool.stdin.on('drain', done);
        this.tool.stdin.on('close', done);
      }
    });
  }

  /** Arms the watchdog: the harness is killed unless `unwatch` comes within `ms`; it holds the event loop meanwhile. */
  watch(ms: number): void {
    this.unwatch();
    this.tool.hold(true);
    this.timer = setTimeout(() => {
      this.timedOut = ms;
      this.tool.kill();
    }, ms);
  }

  /** Disarms the watchdog; an idle harness does not keep this process alive. */
  unwatch(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.tool.hold(false);
  }

  /** Ends the input (the harness finishes as on OP_END). */
  closeInput(): void {
    this.tool.stdin.end();
  }

  kill(): void {
    this.tool.kill();
  }
}

/**
 * A batch run: starts the harness, sends all its commands (ending with OP_END, in pieces) without waiting
 * for anything, hands every frame and line to `handlers`, and resolves when it has ended cleanly;
 * the watchdog bounds the whole run.
 */
export async function runHarness(
  launch: HarnessLaunch,
  outputWords: number,
  commands: readonly Buffer[],
  timeout: number,
  handlers: FrameHandlers,
): Promise<void> {
  const harness = new HarnessProcess(launch, outputWords, handlers);
  harness.watch(timeout);
  try {
    for (const part of commands) await harness.write(part);
    harness.closeInput();
    await harness.ended;
  } finally {
    harness.unwatch();
    harness.kill();
  }
}
