import type { IrDesign } from '../hw/ir/ir.ts';
import { Simulator, compileDesign } from '../hw/sim/simulator.ts';
import type { CycleRun, Engine, PortValues, RunOptions } from './engine.ts';
import { traceToVcd } from '../hw/sim/vcdTrace.ts';
import { clockSchedule, type ClockTimings } from '../hw/sim/clockSchedule.ts';
import { UserError } from '../common/errors.ts';
import { CheckFailedError, type CheckMode, type CheckResults } from '../hw/ir/checks.ts';

/** Cycles simulated between chances for a VCD stream to drain. */
const DRAIN_EVERY_CYCLES = 4096;

/** The in-process compiled simulator behind the Engine interface. */
export class TsEngine implements Engine {
  readonly name = 'ts' as const;

  async run(design: IrDesign, inputs: readonly PortValues[], options: RunOptions = {}): Promise<CycleRun> {
    if (options.internal)
      throw new UserError(
        'the ts engine keeps no values for internal nets, so it cannot trace them (--internal): use --engine verilator or icarus',
      );
    const simulator = new Simulator(compileDesign(design));
    simulator.checkMode = options.checks ?? 'stop';
    const masks = stepMasks(simulator, options.clocks, inputs.length);
    const tracer = options.vcd ? traceToVcd(simulator, options.vcd, options.clocks) : undefined;
    try {
      const outputs: PortValues[] = [];
      for (let start = 0; start < inputs.length; start += DRAIN_EVERY_CYCLES) {
        const end = start + DRAIN_EVERY_CYCLES;
        outputs.push(...runStream(simulator, inputs.slice(start, end), masks?.slice(start, end)));
        await tracer?.drainIfNeeded();
      }
      await tracer?.close();
      return { outputs, ...checksOf(simulator) };
    } catch (error) {
      // A failing assertion keeps the trace up to its cycle: that is the waveform to look at.
      if (error instanceof CheckFailedError && tracer) await tracer.close().catch(() => tracer.abort());
      else tracer?.abort();
      throw error;
    }
  }

  async runMany(
    design: IrDesign,
    streams: readonly (readonly PortValues[])[],
    options: { readonly checks?: CheckMode; readonly clocks?: ClockTimings } = {},
  ): Promise<CycleRun[]> {
    const compiledDesign = compileDesign(design);
    return streams.map((inputs) => {
      const simulator = new Simulator(compiledDesign);
      simulator.checkMode = options.checks ?? 'stop';
      const masks = stepMasks(simulator, options.clocks, inputs.length);
      return { outputs: runStream(simulator, inputs, masks), ...checksOf(simulator) };
    });
  }
}

/** The run's check results, when the design has checks. */
function checksOf(simulator: Simulator): { checks?: CheckResults } {
  return (simulator.design.flat.checks?.length ?? 0) > 0 ? { checks: simulator.checkResults } : {};
}

/** Which clocks rise in each step (engine.ts, several clocks); undefined: every step raises every clock. */
function stepMasks(simulator: Simulator, timings: ClockTimings | undefined, steps: number): number[] | undefined {
  const clocks = simulator.design.flat.clocks;
  const schedule = clockSchedule(clocks, timings, clocks.length > 1 ? steps : 0);
  return clocks.length > 1 ? schedule.steps.map((step) => step.mask) : undefined;
}

/** Applies each cycle's inputs, samples every output before the edge, then steps (the engine contract). */
function runStream(simulator: Simulator, inputs: readonly PortValues[], masks?: readonly number[]): PortValues[] {
  const outputNames = [...simulator.design.flat.outputs.keys()];
  const outputs: PortValues[] = [];
  for (const cycle of inputs) {
    for (const [name, value] of Object.entries(cycle)) simulator.poke(name, value);
    const sampled: PortValues = {};
    for (const name of outputNames) sampled[name] = simulator.peek(name);
    outputs.push(sampled);
    if (masks) simulator.stepMask(masks[outputs.length - 1]!);
    else simulator.step();
  }
  return outputs;
}
