import type { CompiledDesign, FrameTransfer } from './simulator.ts';

/** A port of a frame layout: its name and width (frames hold each port's 32-bit words in port order). */
interface FramePortLike {
  readonly name: string;
  readonly width: number;
}

const transfers = new WeakMap<CompiledDesign, WeakMap<readonly FramePortLike[], FrameTransfer>>();

/**
 * The transfer of `inputs` (top inputs, clocks excluded) and `outputs` (top outputs) of a compiled
 * design, cached per design and input list. A port that is not the top's, or of another width,
 * is an internal error: callers pass the design's own harness ports.
 */
export function frameTransfer(
  design: CompiledDesign,
  inputs: readonly FramePortLike[],
  outputs: readonly FramePortLike[],
): FrameTransfer {
  let byInputs = transfers.get(design);
  if (!byInputs) transfers.set(design, (byInputs = new WeakMap()));
  const known = byInputs.get(inputs);
  if (known) return known;
  const copies = (ports: readonly FramePortLike[], slotOf: (name: string) => number, into: 'state' | 'frame') => {
    const lines: string[] = [];
    let at = 0;
    for (const port of ports) {
      const offset = slotOf(port.name);
      for (let word = 0; word < Math.ceil(port.width / 32); word++, at++)
        lines.push(into === 'state' ? `s[${offset + word}] = f[b + ${at}];` : `f[b + ${at}] = s[${offset + word}];`);
    }
    return { body: lines.join('\n'), stride: at };
  };
  const slot = (kind: string, name: string, width: number, found: { offset: number; width: number } | undefined) => {
    if (!found || found.width !== width || found.offset < 0)
      throw new Error(`internal: ${design.flat.top.name} has no ${width}-bit ${kind} '${name}' with storage`);
    return found.offset;
  };
  const widths = (ports: readonly FramePortLike[]) => new Map(ports.map((port) => [port.name, port.width]));
  const inputWidths = widths(inputs);
  const outputWidths = widths(outputs);
  const load = copies(
    inputs,
    (name) => slot('input', name, inputWidths.get(name)!, design.inputSlots.get(name)),
    'state',
  );
  const store = copies(
    outputs,
    (name) => slot('output', name, outputWidths.get(name)!, design.slots.get(name)),
    'frame',
  );
  const transfer: FrameTransfer = {
    design,
    inputStride: load.stride,
    outputStride: store.stride,
    load: new Function('s', 'f', 'b', load.body) as FrameTransfer['load'],
    store: new Function('s', 'f', 'b', store.body) as FrameTransfer['store'],
  };
  byInputs.set(inputs, transfer);
  return transfer;
}
