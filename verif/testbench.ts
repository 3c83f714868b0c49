import type { IrDesign } from '../hw/ir/ir.ts';
import type { InputName, OutputName, PortTypes } from '../hw/core/ports.ts';
import { topModule, clockPortsOf, resetPortsOf } from '../hw/ir/ir.ts';
import { UserError } from '../common/errors.ts';
import type { PrintedLine } from '../hw/ir/prints.ts';
import type { Engine, EngineSession, PortValues, RunOptions, SessionOptions } from '../hw/contract/engine.ts';
import { formatVectorValue } from '../engines/vectors.ts';
import { clockSteps, type ClockTimings } from '../hw/contract/clockSchedule.ts';
import { checkedOutputValues, waitLimit } from '../engines/outputCondition.ts';
import { ProcessScheduler, type ForkOptions, type Process } from './processes/scheduler.ts';

/** Outputs that did not match their expectations; the message lists each with cycle and values. */
export class ExpectationError extends Error {
  constructor(
    readonly mismatches: readonly { cycle: number; signal: string; expected: bigint; actual: bigint }[],
    engine: string,
  ) {
    const shown = mismatches
      .slice(0, 10)
      .map(
        (m) =>
          `  cycle ${m.cycle}: ${m.signal} expected ${formatVectorValue(m.expected)}, got ${formatVectorValue(m.actual)}`,
      );
    super(
      `${mismatches.length} mismatch(es) on ${engine}:\n${shown.join('\n')}${mismatches.length > 10 ? '\n  …' : ''}`,
    );
    this.name = 'ExpectationError';
  }
}

/**
 * A typed poke / step / expect testbench that runs unchanged on every engine, in two modes.
 * Batch (the fast path for regressions): pokes and expectations are recorded per cycle, `run()`
 * sends the whole stimulus to the engine at once and checks every expectation against the
 * outputs sampled in that cycle (before its clock edge, as the engine contract says).
 * Reactive (cocotb's `await RisingEdge`, ChiselTest's peek/poke/step): `Testbench.open` gives a
 * ReactiveTestbench on a live engine session, which reads outputs as it goes and decides what to
 * drive from them: wait for `ready`, then drive a handshake.
 */
export class Testbench<P extends PortTypes = PortTypes> {
  private readonly cycles: { inputs: PortValues; expected: PortValues }[] = [{ inputs: {}, expected: {} }];
  private readonly inputWidths: Map<string, number>;
  private readonly outputWidths: Map<string, number>;

  constructor(readonly design: IrDesign<P>) {
    const clocks = clockPortsOf(topModule(design));
    const ports = topModule(design).ports.filter((port) => !clocks.includes(port.name));
    this.inputWidths = new Map(
      ports.filter((port) => port.direction === 'input').map((port) => [port.name, port.width]),
    );
    this.outputWidths = new Map(
      ports.filter((port) => port.direction === 'output').map((port) => [port.name, port.width]),
    );
  }

  /** Drives an input from the current cycle on (it keeps its value until poked again). */
  poke<Name extends InputName<P>>(name: Name, value: number | bigint): this {
    this.current.inputs[name] = this.checked(this.inputWidths, 'input', name, value);
    return this;
  }

  /** Expects an output's value in the current cycle (sampled before this cycle's clock edge). */
  expect<Name extends OutputName<P>>(name: Name, value: number | bigint): this {
    this.current.expected[name] = this.checked(this.outputWidths, 'output', name, value);
    return this;
  }

  /** Moves on by `cycles` clock edges. */
  step(cycles = 1): this {
    for (let index = 0; index < cycles; index++) this.cycles.push({ inputs: {}, expected: {} });
    return this;
  }

  /** Holds every reset input (`reset` and each domain's `rst_<name>`) high for `cycles` steps, then low. */
  reset(cycles = 1): this {
    // Reset inputs are the design's own (1 bit each), so no name or width check is needed.
    const resets = resetPortsOf(topModule(this.design));
    for (const name of resets) this.current.inputs[name] = 1n;
    this.step(cycles);
    for (const name of resets) this.current.inputs[name] = 0n;
    return this;
  }

  /** What the design's printfs printed in the last `run` (hw/ir/prints.ts), also when its expectations failed. */
  printed: readonly PrintedLine[] = [];

  /**
   * Runs the recorded stimulus on `engine` (`options.init` picks the start state); throws an
   * ExpectationError listing every mismatch.
   */
  async run(engine: Engine, options: RunOptions = {}): Promise<PortValues[]> {
    const { outputs, prints } = await engine.run(
      this.design,
      this.cycles.map((cycle) => cycle.inputs),
      options,
    );
    this.printed = prints ?? [];
    const mismatches = this.cycles.flatMap((cycle, index) =>
      Object.entries(cycle.expected)
        .filter(([signal, expected]) => outputs[index]![signal] !== expected)
        .map(([signal, expected]) => ({ cycle: index, signal, expected, actual: outputs[index]![signal]! })),
    );
    if (mismatches.length > 0) throw new ExpectationError(mismatches, engine.name);
    return outputs;
  }

  /** A reactive testbench on a session of `engine` (all state 0); `close()` it when done. */
  static async open<P extends PortTypes>(
    design: IrDesign<P>,
    engine: Engine,
    options: SessionOptions = {},
  ): Promise<ReactiveTestbench<P>> {
    return new ReactiveTestbench(design, await engine.open(design, options), options.clocks);
  }

  private get current(): { inputs: PortValues; expected: PortValues } {
    return this.cycles[this.cycles.length - 1]!;
  }

  private checked(widths: Map<string, number>, kind: string, name: string, value: number | bigint): bigint {
    const width = widths.get(name);
    if (width === undefined)
      throw new UserError(`${this.design.top} has no ${kind} '${name}' (${kind}s: ${[...widths.keys()].join(', ')})`);
    const big = BigInt(value);
    if (big < 0n || big >> BigInt(width) !== 0n)
      throw new UserError(`${value} does not fit the ${width}-bit ${kind} '${name}'`);
    return big;
  }
}

/** What `waitFor` is given: how many cycles it may step before it gives up (default 1,000). */
export interface WaitOptions {
  readonly limit?: number;
}

/** A clock input of a design: `clk`, or `clk_<domain>` for a named domain. */
export type ClockName = 'clk' | `clk_${string}`;

/** What `until` is given: the cycles it may wait (default 1,000) and the clock whose edges it checks at. */
export interface UntilOptions {
  readonly timeout?: number;
  readonly clock?: ClockName;
}

/** What a join is given: the cycles it may wait (default 100,000). */
export interface JoinOptions {
  readonly timeout?: number;
}

/** Every port's value at a clock edge, as the edge sampled it: inputs as driven, outputs before the edge. */
export type EdgeSample<P extends PortTypes = PortTypes> =
  string extends OutputName<P>
    ? Readonly<Record<string, bigint>>
    : { readonly [K in OutputName<P> | Exclude<InputName<P>, `rst_${string}`>]: bigint };

/** The results of joined processes, in order. */
export type JoinResults<T extends readonly Process<unknown>[]> = {
  -readonly [K in keyof T]: T[K] extends Process<infer R> ? R : never;
};

/**
 * A testbench that reacts: every call goes to a live engine session (Engine.open), so a test can
 * read an output and decide what to drive in the same cycle. `poke` drives an input from now on,
 * `await peek` reads an output as this cycle samples it (before its clock edge), `await step`
 * moves on, `await expect` checks at once (an ExpectationError naming the cycle), `await waitFor`
 * steps until a condition holds. The same code runs on the ts engine, Verilator and Icarus.
 *
 * Concurrent processes (cocotb's `start_soon`, Amaranth's `add_testbench`): `fork(body)` starts a
 * driver, a monitor or a scoreboard beside the test; each waits with `rising`, `falling`, `cycles`,
 * `until` or a join, and the order in which they run is fixed (verif/processes/scheduler.ts), so
 * every engine gives the same results. The test's own code is the process `main`.
 */
export class ReactiveTestbench<P extends PortTypes = PortTypes> {
  private readonly scheduler: ProcessScheduler;
  private readonly clocks: readonly string[];
  /** Every input's value as driven (0 until poked): the edge samples show them. */
  private readonly inputs = new Map<string, bigint>();
  /** The outputs of this cycle as last read, while no poke has changed an input since. */
  private outputs: PortValues | undefined;
  private closing: ReturnType<EngineSession['close']> | undefined;

  constructor(
    readonly design: IrDesign<P>,
    /** The engine session underneath (its VCD and checks are the session's). */
    readonly session: EngineSession,
    /** The clock timings the session was opened with (several clocks: which steps each one rises in). */
    clocks?: ClockTimings,
  ) {
    const top = topModule(design);
    this.clocks = clockPortsOf(top);
    for (const port of top.ports)
      if (port.direction === 'input' && !this.clocks.includes(port.name)) this.inputs.set(port.name, 0n);
    const schedule = clockSteps(this.clocks, clocks);
    const masks: number[] = [];
    const edgeMask = (index: number): number => {
      while (masks.length <= index) masks.push(schedule.next().mask);
      return this.clocks.length === 0 ? ~0 : masks[index]!;
    };
    this.scheduler = new ProcessScheduler(
      {
        edgeMask,
        sample: async () => ({ ...Object.fromEntries(this.inputs), ...(await this.currentOutputs()) }),
        step: async (count) => {
          this.outputs = undefined;
          await this.session.step(count);
        },
      },
      async () => {
        this.closing ??= this.session.close().catch(() => ({}));
        await this.closing;
      },
    );
  }

  /** Cycles stepped so far. */
  get cycle(): number {
    return this.session.cycle;
  }

  /** What the design's printfs printed so far, in order (hw/ir/prints.ts). */
  get printed(): readonly PrintedLine[] {
    return this.session.printed;
  }

  /** Drives an input from the current cycle on (it keeps its value until poked again). */
  poke<Name extends InputName<P>>(name: Name, value: number | bigint): this {
    this.drive(name, value);
    return this;
  }

  /** An output's value in the current cycle (sampled before this cycle's clock edge). */
  async peek<Name extends OutputName<P>>(name: Name): Promise<bigint> {
    const value = (await this.currentOutputs())[name];
    if (value === undefined)
      // The session names the outputs there are.
      return this.session.peek(name);
    this.scheduler.noteRead(name, value);
    return value;
  }

  /** Moves on by `cycles` clock edges (other processes run meanwhile; `cycles(n)` by another name). */
  step(cycles = 1): Promise<void> {
    return this.scheduler.cycles(cycles);
  }

  /** Waits `count` steps (cycles with one clock), resuming after the last edge; 0 returns at once. */
  cycles(count: number): Promise<void> {
    return this.scheduler.cycles(count);
  }

  /**
   * Waits for the next rising edge of `clock` (default: the only clock) and resumes just after it,
   * with the processes it wakes in fork order; resolves with every port's value as the edge sampled
   * it (what a monitor records: did the word fire?), while `peek` now shows the values after it.
   */
  async rising(clock?: ClockName): Promise<EdgeSample<P>> {
    const sample = await this.scheduler.rising(this.clockMask(clock));
    // Reads of the sample are remembered like peeks, so a failure lists the values a monitor saw.
    return new Proxy(sample, {
      get: (target, name) => {
        const value = Reflect.get(target, name) as unknown;
        if (typeof name === 'string' && typeof value === 'bigint') this.scheduler.noteRead(name, value);
        return value;
      },
    }) as EdgeSample<P>;
  }

  /**
   * Waits for rising edges of `clock` until one whose sample satisfies `condition` (Amaranth's
   * `tick().until`): race-free where `until` on current values is not, since every process's
   * pokes are in the sample. Resolves with that sample; after `timeout` edges (default 1,000)
   * without it, a ProcessTimeoutError naming the process, the cycle and the values it read.
   */
  async untilEdge(condition: (sample: EdgeSample<P>) => boolean, options: UntilOptions = {}): Promise<EdgeSample<P>> {
    const timeout = options.timeout ?? 1000;
    for (let waited = 0; waited < timeout; waited++) {
      const sample = await this.rising(options.clock);
      if (condition(sample)) return sample;
    }
    throw this.scheduler.timeout('untilEdge(condition)', timeout);
  }

  /**
   * Waits for the falling edge of `clock` after its next rising one (this cycle's, if it started
   * with one and the processes that edge woke are still running): the middle of the cycle, after
   * every process woken by the rising edge, where cocotb drivers drive the next edge's inputs.
   */
  falling(clock?: ClockName): Promise<void> {
    return this.scheduler.falling(this.clockMask(clock));
  }

  /**
   * Waits until `condition` holds: checked now, then after each rising edge of `clock`; resolves
   * with the cycles waited. After `timeout` cycles (default 1,000) without it, a ProcessTimeoutError
   * naming the process, the cycle and the values the condition read.
   */
  async until(condition: () => boolean | Promise<boolean>, options: UntilOptions = {}): Promise<number> {
    const timeout = options.timeout ?? 1000;
    for (let waited = 0; ; waited++) {
      if (await condition()) return waited;
      if (waited >= timeout) throw this.scheduler.timeout('until(condition)', timeout);
      await this.rising(options.clock);
    }
  }

  /**
   * Steps until `condition` holds (checked in the current cycle first, then after each step) and
   * resolves with the cycles it stepped; after `limit` steps without it, a ProcessTimeoutError.
   * The condition is a function of peeks, or output values (`{ ready: 1 }`: every named output at
   * its value). When no other process is alive, Verilator and Icarus wait for output values inside
   * their harness: one round trip for the whole wait instead of one per cycle, with the same
   * cycles and outputs; beside other processes it is checked cycle by cycle, in their schedule.
   */
  async waitFor(
    condition: (() => boolean | Promise<boolean>) | { readonly [Name in OutputName<P>]?: number | bigint },
    options: WaitOptions = {},
  ): Promise<number> {
    const limit = options.limit ?? 1000;
    if (typeof condition !== 'function') {
      // A mistake in the wait is the caller's, not a failure of the running testbench: checked first.
      const outputs = topModule(this.design).ports.filter((port) => port.direction === 'output');
      waitLimit(limit);
      const values = Object.entries(
        checkedOutputValues(this.design.top, outputs, condition as Readonly<Record<string, number | bigint>>),
      );
      const holds = async (): Promise<boolean> => {
        for (const [name, value] of values)
          if ((await this.peek(name as OutputName<P>)) !== BigInt(value)) return false;
        return true;
      };
      let waited: number | undefined;
      const alone = await this.scheduler.runAlone(async () => {
        this.outputs = undefined;
        waited = await this.session.waitFor(Object.fromEntries(values), limit);
        return waited ?? limit;
      });
      if (!alone) return this.waitFor(holds, options);
      if (waited !== undefined) return waited;
      // Read as the closure's last check reads, so the message is the same whichever way it waited.
      await holds();
      throw this.scheduler.timeout('waitFor(condition)', limit);
    }
    for (let waited = 0; ; waited++) {
      if (await condition()) return waited;
      if (waited >= limit) throw this.scheduler.timeout('waitFor(condition)', limit);
      await this.step();
    }
  }

  /**
   * Starts `body` as a process of this testbench, beside the caller: it runs from the caller's
   * next wait on, in fork order. `name` names it in every message (default: where it was forked).
   * An exception in it fails the whole testbench: every process is cancelled, the session closed.
   */
  fork<T>(body: () => Promise<T>, options: ForkOptions = {}): Process<T> {
    return this.scheduler.fork(body, options);
  }

  /** Waits for a process to finish and resolves with its result (a cancelled one: a ProcessCancelledError). */
  async join<T>(process: Process<T>, options: JoinOptions = {}): Promise<T> {
    const [result] = await this.joinAll([process], options);
    return result;
  }

  /** Waits for every process to finish (cocotb's Combine); their results in order. */
  joinAll<const T extends readonly Process<unknown>[]>(
    processes: T,
    options: JoinOptions = {},
  ): Promise<JoinResults<T>> {
    return this.scheduler.join(processes, false, options.timeout) as Promise<JoinResults<T>>;
  }

  /** Waits for the first of the processes to finish (cocotb's First): its index and result; the others go on. */
  joinAny<T>(processes: readonly Process<T>[], options: JoinOptions = {}): Promise<{ index: number; value: T }> {
    return this.scheduler.join(processes, true, options.timeout) as Promise<{ index: number; value: T }>;
  }

  /** Checks an output's value now; a mismatch throws an ExpectationError with this cycle. */
  async expect<Name extends OutputName<P>>(name: Name, value: number | bigint): Promise<void> {
    const expected = BigInt(value);
    const actual = await this.peek(name);
    if (actual !== expected)
      throw new ExpectationError([{ cycle: this.cycle, signal: name, expected, actual }], this.session.engine);
  }

  /** Holds every reset input (`reset` and each domain's `rst_<name>`) high for `cycles` steps, then low. */
  async reset(cycles = 1): Promise<void> {
    const resets = resetPortsOf(topModule(this.design));
    for (const name of resets) this.drive(name, 1);
    await this.step(cycles);
    for (const name of resets) this.drive(name, 0);
  }

  /**
   * Ends the testbench: every process still running is cancelled (its `finally` blocks run), then
   * the session (the VCD is written, an external process ended; in count mode, the checks'
   * results). After a failure, or a second time, it resolves as the first close did.
   */
  async close(): ReturnType<EngineSession['close']> {
    if (this.scheduler.failed === undefined) await this.scheduler.stop();
    this.closing ??= this.session.close();
    return this.closing;
  }

  private drive(name: string, value: number | bigint): void {
    this.session.poke(name, value);
    const big = BigInt(value);
    // A changed input may change outputs combinationally: the next peek asks the session again.
    if (this.inputs.get(name) !== big) this.outputs = undefined;
    this.inputs.set(name, big);
  }

  private async currentOutputs(): Promise<PortValues> {
    this.outputs ??= await this.session.peekAll();
    return this.outputs;
  }

  private clockMask(clock: ClockName | undefined): number {
    if (clock === undefined) {
      if (this.clocks.length > 1)
        throw new UserError(
          `${this.design.top} has several clocks (${this.clocks.join(', ')}): name the one to wait for`,
        );
      return 1;
    }
    const index = this.clocks.indexOf(clock);
    if (index < 0)
      throw new UserError(
        `${this.design.top} has no clock '${clock}' (its clocks: ${this.clocks.length === 0 ? 'none' : this.clocks.join(', ')})`,
      );
    return 1 << index;
  }
}
