import { VcdWriter } from '../../waves/vcdWriter.ts';
import type { FlatDesign } from './flatten.ts';
import type { Simulator } from './simulator.ts';
import { clockSteps, traceTimescale, type ClockStep, type ClockTimings } from '../contract/clockSchedule.ts';

/** One signal of the engine-independent waveform: a named net of the flattened design. */
export interface TracedNet {
  /** Scope path: the top module's name, then instance names. */
  readonly scope: readonly string[];
  readonly name: string;
  readonly width: number;
}

/**
 * What every engine's trace holds, in this order: the named nets (ports, wires, registers) of the
 * flattened design under a scope tree that follows its hierarchy, the top named as the design.
 * Internal nodes (the emitter's `_n27`), memory words and the harness's own signals are not
 * part of it.
 */
export function tracedNets(flat: FlatDesign): TracedNet[] {
  return flat.nets
    .namedNets()
    .map((net) => ({ scope: [flat.top.name, ...net.scope], name: net.name, width: net.width }));
}

/** A running VCD trace of a simulator; `close()` gives the file its name. */
export interface SimulationTrace {
  /** Lets the file stream catch up; call now and then in long runs to bound memory. */
  drainIfNeeded(): Promise<void>;
  close(): Promise<void>;
  abort(): void;
}

/**
 * Traces every named signal of a simulator to a VCD on the time base every engine's trace shares
 * (hw/contract/clockSchedule.ts: with one clock 1 ns units, 10 per cycle, a cycle's inputs and
 * settled values at 10t and the values after its rising edge at 10t + 5), as the Verilator and
 * Icarus engines' traces are rewritten to (engines/harness/engineTrace.ts). With several clocks
 * the times are those of the clock schedule of `timings` (in 100 ps): each step's values at its
 * sample point with every clock low, then at its edge with the clocks that rose high.
 */
export function traceToVcd(simulator: Simulator, path: string, timings?: ClockTimings): SimulationTrace {
  const { flat } = simulator.design;
  const writer = new VcdWriter(path, { timescale: traceTimescale(flat.clocks) });
  const traced = flat.nets.namedNets();
  const ids = tracedNets(flat).map((net) => writer.addSignal([...net.scope], net.name, net.width));
  // Clocks are not simulated nets: each shows the step's edge (high from its edge to the next sample point).
  const clockBits = traced.map((net) => {
    const clock = flat.clockNets.get(net.id);
    return clock === undefined ? 0 : 1 << clock;
  });
  writer.beginDump();
  const stepper = clockSteps(flat.clocks, timings);
  let step: ClockStep = stepper.next();
  let cycles = 0;
  const record = (time: number, mask: number): void => {
    writer.setTime(time);
    traced.forEach((net, index) => {
      const bit = clockBits[index]!;
      writer.change(ids[index]!, bit === 0 ? simulator.readNet(net.id) : mask & bit ? 1 : 0);
    });
  };
  simulator.observe(
    () => record(step.sample, 0),
    (cycle, mask) => {
      record(step.edge, mask);
      step = stepper.next();
      cycles = cycle + 1;
    },
  );
  return {
    drainIfNeeded: async () => {
      if (writer.needsDrain) await writer.drain();
    },
    close: () => {
      if (cycles > 0) writer.setTime(step.sample);
      return writer.close();
    },
    abort: () => writer.abort(),
  };
}
