import { VcdWriter } from '../../waves/vcdWriter.ts';
import type { FlatDesign } from './flatten.ts';
import type { Simulator } from './simulator.ts';

/**
 * The one time base of every engine's trace (ts, Verilator, Icarus): 1 ns units, 10 per cycle;
 * testbench cycle t's inputs and settled values (clock low) at 10t, the values after its rising
 * edge (clock high) at 10t + 5; the trace ends at 10·cycles.
 */
export const TRACE_TIMESCALE = '1ns';
export const TRACE_PERIOD = 10;
export const TRACE_EDGE = 5;

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
 * Traces every named signal of a simulator to a VCD on the common time base (TRACE_PERIOD),
 * as the Verilator and Icarus engines' traces are rewritten to (engines/engineTrace.ts).
 */
export function traceToVcd(simulator: Simulator, path: string): SimulationTrace {
  const writer = new VcdWriter(path, { timescale: TRACE_TIMESCALE });
  const { flat } = simulator.design;
  const traced = flat.nets.namedNets();
  const ids = tracedNets(flat).map((net) => writer.addSignal([...net.scope], net.name, net.width));
  const clocks = traced.flatMap((net, index) => (net.name === 'clk' ? [ids[index]!] : []));
  writer.beginDump();
  let cycles = 0;
  const record = (time: number, clock: number): void => {
    writer.setTime(time);
    traced.forEach((net, index) => writer.change(ids[index]!, simulator.readNet(net.id)));
    for (const id of clocks) writer.change(id, clock);
  };
  simulator.observe(
    (cycle) => record(TRACE_PERIOD * cycle, 0),
    (cycle) => {
      record(TRACE_PERIOD * cycle + TRACE_EDGE, 1);
      cycles = cycle + 1;
    },
  );
  return {
    drainIfNeeded: async () => {
      if (writer.needsDrain) await writer.drain();
    },
    close: () => {
      if (cycles > 0) writer.setTime(TRACE_PERIOD * cycles);
      return writer.close();
    },
    abort: () => writer.abort(),
  };
}
