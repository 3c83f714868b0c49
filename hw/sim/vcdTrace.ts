import { VcdWriter } from '../../waves/vcdWriter.ts';
import type { Simulator } from './simulator.ts';

/** A running VCD trace of a simulator; `close()` gives the file its name. */
export interface SimulationTrace {
  /** Lets the file stream catch up; call now and then in long runs to bound memory. */
  drainIfNeeded(): Promise<void>;
  close(): Promise<void>;
  abort(): void;
}

/**
 * Traces every named signal of a simulator to a VCD, in the same timing the Verilator and Icarus
 * harnesses use: cycle t's settled values (clock low) at time 2t, the values after its rising
 * edge (clock high) at 2t+1. Scopes follow the hierarchy: top module name, then instance names.
 */
export function traceToVcd(simulator: Simulator, path: string): SimulationTrace {
  const writer = new VcdWriter(path, { timescale: '1ns' });
  const { flat } = simulator.design;
  const top = flat.top.name;
  const traced = flat.nets.filter((net) => net.named);
  const ids = traced.map((net) => writer.addSignal([top, ...net.scope], net.name, net.width));
  const clocks = traced.flatMap((net, index) => (net.name === 'clk' ? [ids[index]!] : []));
  writer.beginDump();
  const record = (time: number, clock: number): void => {
    writer.setTime(time);
    traced.forEach((net, index) => writer.change(ids[index]!, simulator.readNet(net.id)));
    for (const id of clocks) writer.change(id, clock);
  };
  simulator.observe(
    (cycle) => record(2 * cycle, 0),
    (cycle) => record(2 * cycle + 1, 1),
  );
  return {
    drainIfNeeded: async () => {
      if (writer.needsDrain) await writer.drain();
    },
    close: () => writer.close(),
    abort: () => writer.abort(),
  };
}
