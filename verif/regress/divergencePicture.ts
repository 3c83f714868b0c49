import type { IrDesign } from '../../hw/ir/ir.ts';
import { topModule } from '../../hw/ir/ir.ts';
import { clockLane, hscaleFor, waveLane, type WaveDromSource, type WaveLane } from '../../waves/wavedrom.ts';
import type { VcdSignal } from '../../waves/vcdReader.ts';
import { bigIntToBits, unknownBits } from '../../waves/vcdValues.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import type { Mismatch } from './compare.ts';

/** Cycles drawn either side of the first mismatch, and lanes at most, so the picture stays readable. */
const MARGIN_CYCLES = 6;
const MAX_INPUT_LANES = 6;
const MAX_OUTPUT_PORTS = 6;

/** A bits signal of that width, so waves' lane drawing can be used on port values. */
const bitsSignal = (name: string, width: number): VcdSignal => ({
  id: name,
  path: [],
  name,
  fullName: name,
  width,
  type: 'wire',
  kind: 'bits',
});

/** Samples of one port over the window; unknown (x) where the run or the golden model has no value. */
const samples = (cycles: readonly PortValues[], port: string, width: number): string[] =>
  cycles.map((values) => {
    const value = values[port];
    return value === undefined ? unknownBits(width) : bigIntToBits(value, width);
  });

/**
 * WaveDrom of a failing case around its first mismatch: the inputs, then for every differing
 * output `golden:port` above `actual:port` (golden is x where it predicts nothing).
 */
export function mismatchPicture(
  design: IrDesign,
  stimulus: readonly PortValues[],
  expected: readonly PortValues[],
  actual: readonly PortValues[],
  mismatch: Mismatch,
): WaveDromSource {
  const from = Math.max(0, mismatch.cycle - MARGIN_CYCLES);
  const to = Math.min(stimulus.length - 1, mismatch.cycle + MARGIN_CYCLES);
  const window = <T>(list: readonly T[]): T[] => list.slice(from, to + 1);
  const widths = new Map(topModule(design).ports.map((port) => [port.name, port.width]));
  const inputs = Object.keys(stimulus[0] ?? {}).slice(0, MAX_INPUT_LANES);
  const lanes: WaveLane[] = inputs.map((port) =>
    waveLane(port, bitsSignal(port, widths.get(port) ?? 64), samples(window(stimulus), port, widths.get(port) ?? 64)),
  );
  for (const { port } of mismatch.ports.slice(0, MAX_OUTPUT_PORTS)) {
    const width = widths.get(port) ?? 64;
    lanes.push(waveLane(`golden:${port}`, bitsSignal(port, width), samples(window(expected), port, width)));
    lanes.push(waveLane(`actual:${port}`, bitsSignal(port, width), samples(window(actual), port, width)));
  }
  return {
    signal: [clockLane('clk', to - from + 1), {}, ...lanes],
    // wavedrom 3.7 throws on a numeric tock over exactly two cycles; such a picture goes unnumbered.
    head: { text: `first mismatch at cycle ${mismatch.cycle}`, ...(to - from + 1 === 2 ? {} : { tock: from }) },
    config: { hscale: hscaleFor(lanes) },
  };
}
