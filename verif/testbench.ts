import type { IrDesign } from '../hw/ir/ir.ts';
import type { InputName, OutputName, PortTypes } from '../hw/core/ports.ts';
import { topModule, clockPortsOf, resetPortsOf } from '../hw/ir/ir.ts';
import { UserError } from '../common/errors.ts';
import type { PrintedLine } from '../hw/ir/prints.ts';
import type { Engine, EngineSession, PortValues, RunOptions, SessionOptions } from '../engines/engine.ts';
import { formatVectorValue } from '../engines/vectors.ts';

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
    return new ReactiveTestbench(design, await engine.open(design, options));
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

/**
 * A testbench that reacts: every call goes to a live engine session (Engine.open), so a test can
 * read an output and decide what to drive in the same cycle. `poke` drives an input from now on,
 * `await peek` reads an output as this cycle samples it (before its clock edge), `await step`
 * moves on, `await expect` checks at once (an ExpectationError naming the cycle), `await waitFor`
 * steps until a condition holds. The same code runs on the ts engine, Verilator and Icarus.
 */
export class ReactiveTestbench<P extends PortTypes = PortTypes> {
  constructor(
    readonly design: IrDesign<P>,
    /** The engine session underneath (its VCD and checks are the session's). */
    readonly session: EngineSession,
  ) {}

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
    this.session.poke(name, value);
    return this;
  }

  /** An output's value in the current cycle (sampled before this cycle's clock edge). */
  peek<Name extends OutputName<P>>(name: Name): Promise<bigint> {
    return this.session.peek(name);
  }

  /** Moves on by `cycles` clock edges. */
  step(cycles = 1): Promise<void> {
    return this.session.step(cycles);
  }

  /** Checks an output's value now; a mismatch throws an ExpectationError with this cycle. */
  async expect<Name extends OutputName<P>>(name: Name, value: number | bigint): Promise<void> {
    const expected = BigInt(value);
    const actual = await this.peek(name);
    if (actual !== expected)
      throw new ExpectationError([{ cycle: this.cycle, signal: name, expected, actual }], this.session.engine);
  }

  /**
   * Steps until `condition` holds (checked in the current cycle first, then after each step) and
   * resolves with the cycles it stepped; after `limit` steps without it, a UserError.
   */
  async waitFor(condition: () => boolean | Promise<boolean>, options: WaitOptions = {}): Promise<number> {
    const limit = options.limit ?? 1000;
    for (let waited = 0; ; waited++) {
      if (await condition()) return waited;
      if (waited === limit)
        throw new UserError(`waitFor: the condition did not hold within ${limit} cycles (cycle ${this.cycle})`);
      await this.step();
    }
  }

  /** Holds every reset input (`reset` and each domain's `rst_<name>`) high for `cycles` steps, then low. */
  async reset(cycles = 1): Promise<void> {
    const resets = resetPortsOf(topModule(this.design));
    for (const name of resets) this.session.poke(name, 1);
    await this.step(cycles);
    for (const name of resets) this.session.poke(name, 0);
  }

  /** Ends the session: the VCD is written, an external process ended; in count mode, the checks' results. */
  close(): ReturnType<EngineSession['close']> {
    return this.session.close();
  }
}
