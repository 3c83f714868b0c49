import type { IrDesign } from '../hw/ir/ir.ts';
import type { InputName, PortTypes, PortValuesOf } from '../hw/core/ports.ts';
import { harnessPortsOf } from './harness/harnessStimulus.ts';
import { PortFrames, type PortValues } from '../hw/contract/portFrames.ts';

/**
 * The input frames of a design's top (its inputs less the clocks, in port order) from per-cycle
 * values, checked as every engine checks a stream: build a regression's stimulus once, run it on
 * every engine without an object or a bigint per cycle.
 */
export function inputFrames<P extends PortTypes>(
  design: IrDesign<P>,
  rows: readonly PortValuesOf<InputName<P>>[],
): PortFrames {
  const ports = harnessPortsOf(design);
  return PortFrames.from(ports.inputs, rows as readonly PortValues[], ports.top);
}

/** `cycles` frames of zeros over a design's top inputs, to fill with `set`. */
export function emptyInputFrames(design: IrDesign, cycles: number): PortFrames {
  return PortFrames.empty(harnessPortsOf(design).inputs, cycles);
}
