import type { IrDesign } from '../hw/ir/ir.ts';
import { topModule, clockPortsOf } from '../hw/ir/ir.ts';
import { UserError } from '../common/errors.ts';
import type { Engine, PortValues, RunOptions } from '../engines/engine.ts';
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
 * A typed poke / step / expect testbench that runs unchanged on every engine (cocotb's idea,
 * over batch engines): pokes and expectations are recorded per cycle, `run()` sends the whole
 * stimulus to the engine and checks every expectation against the outputs sampled in that
 * cycle (before its clock edge, as the engine contract says).
 */
export class Testbench {
  private readonly cycles: { inputs: PortValues; expected: PortValues }[] = [{ inputs: {}, expected: {} }];
  private readonly inputWidths: Map<string, number>;
  private readonly outputWidths: Map<string, number>;

  constructor(readonly design: IrDesign) {
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
  poke(name: string, value: number | bigint): this {
    this.current.inputs[name] = this.checked(this.inputWidths, 'input', name, value);
    return this;
  }

  /** Expects an output's value in the current cycle (sampled before this cycle's clock edge). */
  expect(name: string, value: number | bigint): this {
    this.current.expected[name] = this.checked(this.outputWidths, 'output', name, value);
    return this;
  }

  /** Moves on by `cycles` clock edges. */
  step(cycles = 1): this {
    for (let index = 0; index < cycles; index++) this.cycles.push({ inputs: {}, expected: {} });
    return this;
  }

  /** Holds `reset` high for `cycles` edges, then low. */
  reset(cycles = 1): this {
    this.poke('reset', 1).step(cycles);
    return this.poke('reset', 0);
  }

  /** Runs the recorded stimulus on `engine`; throws an ExpectationError listing every mismatch. */
  async run(engine: Engine, options: RunOptions = {}): Promise<PortValues[]> {
    const { outputs } = await engine.run(
      this.design,
      this.cycles.map((cycle) => cycle.inputs),
      options,
    );
    const mismatches = this.cycles.flatMap((cycle, index) =>
      Object.entries(cycle.expected)
        .filter(([signal, expected]) => outputs[index]![signal] !== expected)
        .map(([signal, expected]) => ({ cycle: index, signal, expected, actual: outputs[index]![signal]! })),
    );
    if (mismatches.length > 0) throw new ExpectationError(mismatches, engine.name);
    return outputs;
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
