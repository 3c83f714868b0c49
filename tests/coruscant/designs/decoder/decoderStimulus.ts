import fc from 'fast-check';
import type { PortValues } from '../../../../hw/contract/engine.ts';
import type { DecoderCycle, DecoderShape, DecoderStimulus } from '../../../../coruscant/golden/models/decoder.ts';
import { arbitraryDecoderStream } from '../../../../coruscant/suites/decoderStreams.ts';

/** The seed for this file's property tests; replay with FC_SEED=<seed> npx vitest run <file>. */
export function propertySeed(file: string): number {
  const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2 ** 31);
  console.log(`${file}: fast-check seed ${seed} (replay: FC_SEED=${seed} npx vitest run ${file})`);
  return seed;
}

/** Bitmaps and handshake streams come from the regression library, so tests and `gen regress` draw alike. */
export { arbitraryBitmap } from '../../../../coruscant/suites/decoderStreams.ts';

/** Streams of MMAs: mostly back-to-back, some with gaps, restarts or resets, drained at the end. */
export function arbitraryStream(shape: DecoderShape, maxSegments = 4): fc.Arbitrary<DecoderStimulus[]> {
  return arbitraryDecoderStream(shape, maxSegments);
}

/** A stimulus stream as port values of a block whose bitmap ports are `bitmap_<thread>`. */
export function stimulusPorts(
  stimulus: readonly DecoderStimulus[],
  shape: DecoderShape,
  bitmapPort = (thread: number): string => `bitmap_${thread}`,
): PortValues[] {
  return stimulus.map((cycle) => {
    const ports: PortValues = { reset: cycle.reset ? 1n : 0n, start: cycle.start ? 1n : 0n };
    if (cycle.start)
      for (let thread = 0; thread < shape.threads; thread++) ports[bitmapPort(thread)] = cycle.bitmaps?.[thread] ?? 0n;
    return ports;
  });
}

/** The BitmapDecoder's outputs that a golden cycle predicts. */
export function decoderPorts(cycle: DecoderCycle): PortValues {
  const ports: PortValues = {
    valid: flag(cycle.valid),
    first: flag(cycle.first),
    last: flag(cycle.last),
    pointer: BigInt(cycle.pointer),
  };
  cycle.slots.forEach((slots, thread) =>
    slots.forEach((slot, index) => {
      const name = `operand_${thread}_${index}`;
      ports[`${name}_register`] = BigInt(slot.register);
      ports[`${name}_half`] = BigInt(slot.half);
      ports[`${name}_zero`] = flag(slot.zero);
    }),
  );
  return ports;
}

/** 1n for true. */
export function flag(value: boolean): bigint {
  return value ? 1n : 0n;
}

/** Throws with the first differing cycle and ports, comparing only the expected ports. */
export function expectCycles(actual: readonly PortValues[], expected: readonly PortValues[], what: string): void {
  if (actual.length !== expected.length)
    throw new Error(`${what}: ${actual.length} cycles simulated, ${expected.length} expected`);
  expected.forEach((ports, cycle) => {
    const got = actual[cycle]!;
    const wrong = Object.entries(ports).filter(([name, value]) => got[name] !== value);
    if (wrong.length > 0)
      throw new Error(
        `${what}: cycle ${cycle}: ${wrong
          .slice(0, 6)
          .map(([name, value]) => `${name} = ${got[name]}, expected ${value}`)
          .join('; ')}${wrong.length > 6 ? ` (+${wrong.length - 6} more)` : ''}`,
      );
  });
}
