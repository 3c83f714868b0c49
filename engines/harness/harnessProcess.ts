import { readFileSync } from 'node:fs';
import { ToolError } from '../../common/errors.ts';
import { startTool, type StartedTool, type ToolExit } from '../../tools/runTool.ts';
import { batchCommand, FrameReader, type FrameHandlers } from './harnessStimulus.ts';

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
  private timedOutAfter: number | undefined;
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
    if (this.timedOutAfter !== undefined) return new ToolError(name, `timed out after ${this.timedOutAfter} ms`);
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

  /** The watchdog killed it. */
  get timedOut(): boolean {
    return this.timedOutAfter !== undefined;
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
      this.timedOutAfter = ms;
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

/** A batch run's files (harnessStimulus.ts, Transport), and where the harness writes what it prints. */
interface ServedFiles {
  readonly commands: string;
  readonly frames: string;
  readonly log: string;
}

/**
 * A harness kept running between batch runs through files (Verilator's `--serve files`): each run
 * is one OP_BATCH naming its files, answered by an ack once its frames file is complete, so a
 * regression of many batches on one build starts one process instead of one per batch (~7 ms each,
 * a tenth of a 400-stream BitmapDecoder batch). Between runs it is idle and keeps nothing alive;
 * the watchdog is armed only during a run; a run that fails, times out or finds the process gone
 * kills it (servedHarness starts a fresh one for the next run), and it dies with this process.
 */
export class ServedHarness {
  private readonly harness: HarnessProcess;
  private batch: { resolve: () => void; reject: (error: unknown) => void; line: (text: string) => void } | undefined;
  private failed = false;

  constructor(
    readonly launch: HarnessLaunch,
    outputWords: number,
  ) {
    this.harness = new HarnessProcess(
      launch,
      outputWords,
      {
        outputs: () => {
          throw new ToolError(launch.name, 'harness wrote a frame to standard output in a batch run');
        },
        ack: () => this.settle(),
        line: (text) => this.batch?.line(text),
      },
      (error) => this.settle(error),
    );
    this.harness.ended.then(
      () => this.settle(new ToolError(launch.name, 'the simulation ended before its batch did')),
      () => {},
    );
    this.harness.unwatch();
  }

  private settle(error?: unknown): void {
    const batch = this.batch;
    this.batch = undefined;
    this.harness.unwatch();
    if (error !== undefined) {
      this.failed = true;
      this.harness.kill();
    }
    if (!batch) return;
    if (error === undefined) batch.resolve();
    else batch.reject(error);
  }

  get pid(): number {
    return this.harness.pid;
  }

  /** Its watchdog ended it. */
  get timedOut(): boolean {
    return this.harness.timedOut;
  }

  /** Alive and not running a batch. */
  get idle(): boolean {
    return !this.failed && !this.batch;
  }

  /**
   * Runs the commands file's batch into the frames file; `line` gets the simulator's text lines
   * (written into the log file, read once the batch is done).
   */
  async run(files: ServedFiles, timeout: number, line: (text: string) => void): Promise<void> {
    if (!this.idle) throw new Error('internal: a served harness runs one batch at a time');
    const done = new Promise<void>((resolve, reject) => (this.batch = { resolve, reject, line }));
    this.harness.watch(timeout);
    void this.harness.write(batchCommand(files));
    await done;
    const text = readFileSync(files.log, 'latin1');
    if (text.length === 0) return;
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (const each of lines) line(each);
  }

  kill(): void {
    this.failed = true;
    this.harness.kill();
  }
}

/** Idle served harnesses by program, at most this many per program and in all (the oldest go first). */
const SERVED_PER_PROGRAM = 2;
const SERVED_IN_ALL = 8;
const served = new Map<string, ServedHarness[]>();

/**
 * Runs one batch through files on a served harness of `launch` (its `--serve files` form): an
 * idle one of the same program if there is one, else a new one; kept for the next batch if the
 * run succeeded.
 */
export async function runServed(
  launch: HarnessLaunch,
  outputWords: number,
  files: ServedFiles,
  timeout: number,
  line: (text: string) => void,
): Promise<void> {
  const key = [launch.program, ...launch.args, launch.cwd ?? ''].join('\0');
  const pool = served.get(key) ?? [];
  served.delete(key);
  const live = pool.filter((harness) => harness.idle);
  const reused = live.pop();
  if (live.length > 0) served.set(key, live);
  let harness = reused ?? new ServedHarness(launch, outputWords);
  try {
    await harness.run(files, timeout, line);
  } catch (error) {
    harness.kill();
    // One kept from an earlier run may have died while idle, before this process heard of it
    // (killed, out of memory): the run goes again on a fresh one, which says what is wrong if anything is.
    if (!reused || harness.timedOut) throw error;
    harness = new ServedHarness(launch, outputWords);
    try {
      await harness.run(files, timeout, line);
    } catch (again) {
      harness.kill();
      throw again;
    }
  }
  const kept = [...(served.get(key) ?? []), harness];
  while (kept.length > SERVED_PER_PROGRAM) kept.shift()!.kill();
  served.delete(key);
  served.set(key, kept);
  let total = [...served.values()].reduce((sum, list) => sum + list.length, 0);
  for (const [other, list] of served) {
    while (total > SERVED_IN_ALL && list.length > 0) {
      list.shift()!.kill();
      total--;
    }
    if (list.length === 0) served.delete(other);
  }
}

/** The process groups of the idle served harnesses (tests check reuse and replacement). */
export function servedHarnessPids(): number[] {
  return [...served.values()].flatMap((list) => list.map((harness) => harness.pid));
}
