import { VcdWriter } from '../../waves/vcdWriter.ts';

/** Options for a synthetic counter trace written through VcdWriter. */
export interface CounterTraceOptions {
  /** Top scope, e.g. `TOP` to imitate Verilator's wrapper. */
  readonly top?: readonly string[];
  readonly timescale?: string;
  /** Time units per clock period. */
  readonly period?: number;
  readonly cycles?: number;
  /** At this cycle, `count` holds a wrong value (count + 1): a planted mismatch. */
  readonly plantAt?: number;
}

/**
 * A clocked design's trace: `clk`, an 8-bit `count` and a 1-bit `parity` of it under
 * `<top>.core`, plus a 100-bit `wide` shift of count, on the engines' time base: cycle k's values
 * (count = 3k) appear at k·period with the clock low, the clock rises at k·period + period/2.
 */
export async function writeCounterTrace(path: string, options: CounterTraceOptions = {}): Promise<void> {
  const { top = ['top'], timescale = '1ns', period = 10, cycles = 40, plantAt } = options;
  const writer = new VcdWriter(path, { timescale });
  const clk = writer.addSignal([...top], 'clk', 1);
  const count = writer.addSignal([...top, 'core'], 'count', 8);
  const parity = writer.addSignal([...top, 'core'], 'parity', 1);
  const wide = writer.addSignal([...top, 'core'], 'wide', 100);
  writer.beginDump();
  for (let cycle = 0; cycle < cycles; cycle++) {
    writer.setTime(cycle * period);
    writer.change(clk, 0);
    const value = (cycle * 3 + (cycle === plantAt ? 1 : 0)) & 0xff;
    writer.change(count, value);
    writer.change(parity, popcount(value) & 1);
    writer.change(wide, BigInt(value) << 92n);
    writer.setTime(cycle * period + period / 2);
    writer.change(clk, 1);
  }
  writer.setTime(cycles * period);
  await writer.close();
}

function popcount(value: number): number {
  let count = 0;
  for (let rest = value; rest > 0; rest >>= 1) count += rest & 1;
  return count;
}
