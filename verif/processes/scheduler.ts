import { UserError } from '../../common/errors.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import { forkSite } from './forkSite.ts';
import {
  ProcessCancelledError,
  ProcessDeadlockError,
  ProcessError,
  ProcessFailedError,
  ProcessTimeoutError,
} from './processErrors.ts';

/** Where a process is: waiting for its first turn or a trigger, finished, cancelled or failed. */
export type ProcessState = 'waiting' | 'running' | 'done' | 'cancelled' | 'failed';

const FINISHED: ReadonlySet<ProcessState> = new Set(['done', 'cancelled', 'failed']);

/** What the scheduler drives: the session's steps, and the values at the coming clock edge. */
export interface SteppedSimulation {
  /** The edge-raising clocks of the edge that ends step `index` (bit i: clock i; all bits with no clocks). */
  edgeMask(index: number): number;
  /** Every port's value as the coming edge will sample it (inputs as driven, outputs before the edge). */
  sample(): Promise<PortValues>;
  /** Runs `count` steps. */
  step(count: number): Promise<void>;
}

/** What a process waits on (one at a time). */
type Trigger =
  /** The rising phase (or falling phase) of the first step from `from` entered by an edge of a clock in `mask`. */
  | { readonly kind: 'edge'; readonly phase: 'rising' | 'falling'; readonly mask: number; readonly from: number }
  /** The rising phase of step `at`. */
  | { readonly kind: 'step'; readonly at: number }
  /** Processes finishing (all of them or the first), until the rising phase of step `deadline`. */
  | {
      readonly kind: 'join';
      readonly targets: readonly Task[];
      readonly any: boolean;
      readonly deadline: number;
      readonly timeout: number;
    };

interface Waiter {
  readonly trigger: Trigger;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** One process as the scheduler keeps it; users hold its `Process` handle. */
class Task {
  state: ProcessState = 'waiting';
  waiter: Waiter | undefined;
  /** Ends the current turn: set while the task runs, called when it waits again or finishes. */
  endTurn: (() => void) | undefined;
  started = false;
  /** Woken and queued for its turn (its waiter is settled when the turn comes). */
  queued = false;
  cancelling = false;
  result: unknown;
  /** The values the process read in its current turn, for failure messages. */
  reads = new Map<string, bigint>();
  constructor(
    readonly index: number,
    readonly label: string,
    readonly body: (() => Promise<unknown>) | undefined,
  ) {}
}

/**
 * A process forked on a testbench (cocotb's Task, Amaranth's testbench coroutine). Await
 * `tb.join(process)` for its result; `cancel()` ends it at its current wait.
 */
export class Process<T = unknown> {
  /** @internal */
  constructor(
    /** @internal */ readonly task: Task,
    private readonly scheduler: ProcessScheduler,
  ) {}

  /** The process's label in messages: its name, and where it was forked. */
  get name(): string {
    return this.task.label;
  }

  /** Where it is now. */
  get state(): ProcessState {
    return this.task.state;
  }

  /** Its result once done. */
  get result(): T | undefined {
    return this.task.state === 'done' ? (this.task.result as T) : undefined;
  }

  /**
   * Ends the process: its pending wait rejects with a ProcessCancelledError (its `finally` blocks
   * run, in the caller's turn), and resolves once it has unwound. A finished process is left as it is.
   */
  cancel(): Promise<void> {
    return this.scheduler.cancel(this.task);
  }
}

/** What `fork` is given: the process's name in messages (default: where it was forked). */
export interface ForkOptions {
  readonly name?: string;
}

/** The default bound of a join, in steps: a join waiting on a process that never ends fails. */
export const DEFAULT_JOIN_TIMEOUT = 100_000;

/**
 * Cooperative processes scheduled at clock edges, on top of a stepped simulation (engine
 * sessions' poke / peek / step, so every engine runs them alike). Exactly one process runs at a
 * time, from one wait to the next; the order is fixed:
 *   - each step has a rising phase, then a falling phase; a process forked in a phase starts in
 *     it, after those already queued;
 *   - at an edge, the processes it wakes resume in fork order (the test itself, `main`, first),
 *     each until its next wait; a process woken by another's end is queued behind them;
 *   - when the rising phase is idle, the falling phase wakes its waiters in fork order;
 *   - when both are idle, the simulation steps to the next step anyone waits for (several steps
 *     in one call when nobody needs the edges in between), sampling every port just before the
 *     last edge for the processes waiting on it.
 * The test's own code is the process `main`: nothing moves while it runs, and its waits drive
 * the schedule. A failure (an exception or a timeout in a process, a failing check in a step)
 * cancels every other process, ends the simulation through `onFailure`, and rejects main's wait.
 */
export class ProcessScheduler {
  private readonly tasks: Task[] = [];
  private readonly main: Task;
  private readonly queue: { task: Task; resume: () => void }[] = [];
  private running: Task;
  private step = 0;
  private phase: 'rising' | 'falling' = 'rising';
  private loop: Promise<void> | undefined;
  private failure: unknown;
  private stopped = false;

  constructor(
    private readonly simulation: SteppedSimulation,
    private readonly onFailure: (error: unknown) => Promise<void>,
  ) {
    this.main = this.addTask("'main'", undefined);
    this.main.started = true;
    this.main.state = 'running';
    this.running = this.main;
  }

  /** The current step (cycle with one clock). */
  get cycle(): number {
    return this.step;
  }

  /** Starts `body` as a process in the current phase, after those already queued. */
  fork<T>(body: () => Promise<T>, options: ForkOptions = {}): Process<T> {
    this.checkUsable();
    const site = forkSite();
    const label = `'${options.name ?? site ?? `process ${this.tasks.length}`}'${options.name && site ? ` (forked at ${site})` : ''}`;
    const task = this.addTask(label, body);
    this.queue.push({ task, resume: () => this.start(task) });
    return new Process<T>(task, this);
  }

  /** Waits for the rising phase of the next step entered by an edge of a clock in `mask`; resolves with the sample. */
  rising(mask: number): Promise<PortValues> {
    return this.wait({ kind: 'edge', phase: 'rising', mask, from: this.step + 1 }) as Promise<PortValues>;
  }

  /** Waits for the falling phase after the next edge of a clock in `mask` (this step's, if it began with one and is rising). */
  falling(mask: number): Promise<void> {
    const thisStep = this.phase === 'rising' && this.step > 0 && (this.simulation.edgeMask(this.step - 1) & mask) !== 0;
    return this.wait({ kind: 'edge', phase: 'falling', mask, from: thisStep ? this.step : this.step + 1 }).then(
      () => undefined,
    );
  }

  /** Waits `count` steps (none for 0), resuming in the rising phase. */
  async cycles(count: number): Promise<void> {
    if (!Number.isSafeInteger(count) || count < 0)
      throw new UserError(`cycles(${count}): the count must be a whole number, 0 or more`);
    if (count === 0) return;
    if (this.alone()) {
      // Nobody else could run or wake in between: one engine call, without a turn to hand over.
      await this.simulation.step(count).catch(async (error: unknown) => {
        await this.fail(error);
        throw error;
      });
      this.step += count;
      this.phase = 'rising';
      return;
    }
    await this.wait({ kind: 'step', at: this.step + count });
  }

  /**
   * When main runs with no other process alive, lets `advance` step the simulation itself (a wait
   * the engine runs in one call) and counts the steps it reports; otherwise steps nothing and
   * resolves false, and the caller waits cycle by cycle in the schedule.
   */
  async runAlone(advance: () => Promise<number>): Promise<boolean> {
    if (!this.alone()) return false;
    const steps = await advance().catch(async (error: unknown) => {
      await this.fail(error);
      throw error;
    });
    this.step += steps;
    this.phase = 'rising';
    return true;
  }

  /** Whether main runs with no other process alive, so its waits for time need no schedule. */
  private alone(): boolean {
    return (
      this.running === this.main &&
      this.failure === undefined &&
      !this.stopped &&
      this.queue.length === 0 &&
      this.tasks.every((task) => task === this.main || FINISHED.has(task.state))
    );
  }

  /** Waits until every one (or, with `any`, the first) of `targets` is done; their results, or the first's index. */
  async join(targets: readonly Process[], any: boolean, timeout = DEFAULT_JOIN_TIMEOUT): Promise<unknown> {
    if (!Number.isSafeInteger(timeout) || timeout < 1)
      throw new UserError(`join: the timeout ${timeout} must be a whole number of cycles, 1 or more`);
    const tasks = targets.map((target) => target.task);
    if (tasks.includes(this.current())) throw new UserError(`process ${this.current().label} cannot join itself`);
    const settled = this.joined(tasks, any);
    if (settled && 'error' in settled) throw settled.error;
    if (settled) return settled.value;
    return this.wait({ kind: 'join', targets: tasks, any, deadline: this.step + timeout, timeout });
  }

  /** Remembers a value the running process read this turn (failure messages list them). */
  noteRead(name: string, value: bigint): void {
    this.current().reads.set(name, value);
  }

  /** The running process's label. */
  get currentLabel(): string {
    return this.current().label;
  }

  /** The values the running process read in this turn, as a message suffix. */
  readsOf(task: Task = this.current()): string {
    const reads = [...task.reads].map(([name, value]) => `${name}=0x${value.toString(16)}`);
    return reads.length === 0 ? '' : ` (it read ${reads.join(', ')})`;
  }

  /** A timeout in the running process (from `until`), naming it, the cycle and what it read. */
  timeout(waitedFor: string, timeout: number): ProcessTimeoutError {
    return new ProcessTimeoutError(this.current().label, this.step, waitedFor, timeout, this.readsOf());
  }

  /** Cancels every process (in fork order) and stops scheduling; main's code goes on. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const task of this.tasks) if (task !== this.main) await this.cancel(task);
    // A schedule waiting for main's turn to end learns that it is over.
    this.endTurnOf(this.main);
  }

  /** The failure that stopped the schedule, if any. */
  get failed(): unknown {
    return this.failure;
  }

  /** @internal Used by Process.cancel. */
  async cancel(task: Task): Promise<void> {
    if (task === this.main) throw new UserError(`process 'main' (the test) cannot be cancelled`);
    if (task === this.current()) throw new UserError(`process ${task.label} cannot cancel itself; return instead`);
    if (task.state === 'done' || task.state === 'cancelled' || task.state === 'failed' || task.cancelling) return;
    const waiter = task.waiter;
    if (task.started && !waiter)
      throw new UserError(`process ${task.label} is running (it is cancelling the caller) and cannot be cancelled`);
    task.cancelling = true;
    task.queued = false;
    task.waiter = undefined;
    const queued = this.queue.findIndex((entry) => entry.task === task);
    if (queued >= 0) this.queue.splice(queued, 1);
    if (!waiter) this.finish(task, 'cancelled', undefined);
    else await this.turn(task, () => waiter.reject(new ProcessCancelledError(task.label, this.step)));
  }

  private addTask(label: string, body: (() => Promise<unknown>) | undefined): Task {
    const task = new Task(this.tasks.length, label, body);
    this.tasks.push(task);
    return task;
  }

  /**
   * The process calling in: the one whose turn it is, since exactly one runs at a time (an
   * AsyncLocalStorage would tell callers apart, but on Node 20 its promise hooks slowed every
   * await of a run by a quarter).
   */
  private current(): Task {
    return this.running;
  }

  private checkUsable(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.stopped) throw new UserError('the testbench is closed');
  }

  /** Registers the running process's wait, ends its turn and, for main's first wait, starts the schedule. */
  private wait(trigger: Trigger): Promise<unknown> {
    const task = this.current();
    if (task.cancelling) return Promise.reject(new ProcessCancelledError(task.label, this.step));
    if (this.failure !== undefined) {
      // main's turn ends so that the loop shuts down; another process unwinds and finishes first.
      if (task === this.main) this.endTurnOf(task);
      return Promise.reject(this.failure);
    }
    if (this.stopped) return Promise.reject(new UserError('the testbench is closed'));
    if (task.waiter)
      throw new UserError(
        `process ${task.label} waited outside its turn: await each wait (rising, until, join, …) before the next`,
      );
    const waiting = new Promise((resolve, reject) => (task.waiter = { trigger, resolve, reject }));
    task.state = 'waiting';
    if (task.endTurn) this.endTurnOf(task);
    else this.loop ??= this.run();
    return waiting;
  }

  /** Runs `task` from `resume` until it waits again or finishes. */
  private async turn(task: Task, resume: () => void): Promise<void> {
    const previous = this.running;
    this.running = task;
    task.state = 'running';
    task.reads = new Map();
    const ended = new Promise<void>((resolve) => (task.endTurn = resolve));
    resume();
    await ended;
    this.running = previous;
  }

  private start(task: Task): void {
    task.started = true;
    Promise.resolve()
      .then(task.body)
      .then(
        (value) => this.finish(task, task.cancelling ? 'cancelled' : 'done', value),
        (error: unknown) =>
          this.finish(
            task,
            task.cancelling && (error instanceof ProcessCancelledError || this.stopped) ? 'cancelled' : 'failed',
            error,
          ),
      );
  }

  private finish(task: Task, state: 'done' | 'cancelled' | 'failed', value: unknown): void {
    task.state = state;
    task.result = value;
    if (state === 'failed' && this.failure === undefined)
      this.failure =
        value instanceof ProcessError && value.process === task.label
          ? value
          : new ProcessFailedError(task.label, this.step, value, this.readsOf(task));
    for (const other of this.tasks) {
      const trigger = other.waiter?.trigger;
      if (other.queued || trigger?.kind !== 'join' || !trigger.targets.includes(task)) continue;
      const settled = this.joined(trigger.targets, trigger.any);
      if (settled) this.wake(other, settled);
    }
    this.endTurnOf(task);
  }

  private endTurnOf(task: Task): void {
    const endTurn = task.endTurn;
    task.endTurn = undefined;
    endTurn?.();
  }

  /** A join's outcome once known: the results, the first's index and result, or a cancelled target's error. */
  private joined(targets: readonly Task[], any: boolean): { value?: unknown; error?: unknown } | undefined {
    const cancelled = targets.find((target) => target.state === 'cancelled');
    if (cancelled) return { error: new ProcessCancelledError(cancelled.label, this.step) };
    if (any) {
      const index = targets.findIndex((target) => target.state === 'done');
      return index < 0 ? undefined : { value: { index, value: targets[index]!.result } };
    }
    return targets.every((target) => target.state === 'done')
      ? { value: targets.map((target) => target.result) }
      : undefined;
  }

  private wake(task: Task, outcome: { value?: unknown; error?: unknown }): void {
    task.queued = true;
    this.queue.push({
      task,
      resume: () => {
        const waiter = task.waiter!;
        task.waiter = undefined;
        task.queued = false;
        if ('error' in outcome) waiter.reject(outcome.error);
        else waiter.resolve(outcome.value);
      },
    });
  }

  private async run(): Promise<void> {
    try {
      for (;;) {
        await this.drain();
        this.phase = 'falling';
        for (const task of this.tasks) {
          const trigger = task.waiter?.trigger;
          if (trigger?.kind === 'edge' && trigger.phase === 'falling' && this.due(trigger, this.step))
            this.wake(task, { value: undefined });
        }
        await this.drain();
        await this.advance();
      }
    } catch (error) {
      await this.fail(error);
    }
  }

  /** Runs the queued processes, one turn each, until none is left; stops at a failure. */
  private async drain(): Promise<void> {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      await this.turn(next.task, next.resume);
      if (this.failure !== undefined) throw this.failure;
      if (this.stopped) throw new StoppedSignal();
    }
  }

  private due(trigger: Trigger & { kind: 'edge' }, step: number): boolean {
    return step >= trigger.from && step > 0 && (this.simulation.edgeMask(step - 1) & trigger.mask) !== 0;
  }

  /** The first step after the current one at which `trigger` wakes its process. */
  private wakeStep(trigger: Trigger): number {
    if (trigger.kind === 'step') return trigger.at;
    if (trigger.kind === 'join') return trigger.deadline;
    let step = Math.max(trigger.from, this.step + 1);
    while (!this.due(trigger, step)) step++;
    return step;
  }

  /** Steps to the next step anyone waits for and wakes its waiters in fork order. */
  private async advance(): Promise<void> {
    const waiting = this.tasks.filter((task) => task.waiter);
    if (!waiting.some((task) => task.waiter!.trigger.kind !== 'join'))
      throw new ProcessDeadlockError(
        this.main.label,
        this.step,
        waiting.map(
          (task) =>
            `${task.label} joins ${(task.waiter!.trigger as Trigger & { kind: 'join' }).targets.map((target) => target.label).join(', ')}`,
        ),
      );
    const wakes = waiting.map((task) => ({
      task,
      trigger: task.waiter!.trigger,
      at: this.wakeStep(task.waiter!.trigger),
    }));
    const next = Math.min(...wakes.map((wake) => wake.at));
    const due = wakes.filter((wake) => wake.at === next);
    let sample: PortValues | undefined;
    if (due.some(({ trigger }) => trigger.kind === 'edge' && trigger.phase === 'rising')) {
      if (next - this.step > 1) await this.simulation.step(next - this.step - 1);
      sample = await this.simulation.sample();
      await this.simulation.step(1);
    } else await this.simulation.step(next - this.step);
    this.step = next;
    this.phase = 'rising';
    for (const { task, trigger } of due) {
      if (trigger.kind === 'join') this.wake(task, { error: this.timeoutOf(task, trigger) });
      else if (trigger.kind === 'step' || trigger.phase === 'rising') this.wake(task, { value: sample });
    }
  }

  private timeoutOf(task: Task, trigger: Trigger & { kind: 'join' }): ProcessTimeoutError {
    const targets = trigger.targets.map((target) => target.label).join(', ');
    return new ProcessTimeoutError(task.label, this.step, `join(${targets})`, trigger.timeout, '');
  }

  /** After a failure: every other process cancelled, the simulation ended, main's wait rejected. */
  private async fail(error: unknown): Promise<void> {
    if (error instanceof StoppedSignal) return;
    this.failure ??= error;
    this.queue.length = 0;
    const mainWaiter = this.main.waiter;
    this.main.waiter = undefined;
    await this.stop();
    await this.onFailure(this.failure);
    mainWaiter?.reject(this.failure);
  }
}

/** Ends the schedule's loop quietly when the test closes the testbench. */
class StoppedSignal extends Error {}
