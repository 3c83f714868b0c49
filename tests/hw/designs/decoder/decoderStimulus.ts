import fc from 'fast-check';
import type { PortValues } from '../../../../verif/engines/engine.ts';
import type { DecoderCycle, DecoderShape, DecoderStimulus } from '../../../../verif/golden/decoder.ts';

/** The seed for this file's property tests; replay with FC_SEED=<seed> npx vitest run <file>. */
export function propertySeed(file: string): number {
  const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2 ** 31);
  console.log(`${file}: fast-check seed ${seed} (replay: FC_SEED=${seed} npx vitest run ${file})`);
  return seed;
}

/** Bitmaps of the kinds that matter: all zero, all ones, one bit, and 30–70 % dense. */
export function arbitraryBitmap(tileLength: number): fc.Arbitrary<bigint> {
  const full = (1n << BigInt(tileLength)) - 1n;
  const dense = fc
    .tuple(fc.integer({ min: 30, max: 70 }), fc.array(fc.integer({ min: 0, max: 99 }), { minLength: tileLength, maxLength: tileLength }))
    .map(([percent, draws]) => draws.reduce((bitmap, draw, column) => (draw < percent ? bitmap | (1n << BigInt(column)) : bitmap), 0n));
  return fc.oneof(
    { arbitrary: fc.constant(0n), weight: 1 },
    { arbitrary: fc.constant(full), weight: 1 },
    { arbitrary: fc.integer({ min: 0, max: tileLength - 1 }).map((bit) => 1n << BigInt(bit)), weight: 1 },
    { arbitrary: dense, weight: 5 },
  );
}

/** One MMA of a stream and what happens before the next one. */
interface Segment {
  readonly bitmaps: readonly bigint[];
  /** Cycles from this start to the next start: = MMA length is back-to-back, shorter aborts, longer idles. */
  readonly spacing: number;
  /** Abort by reset (then start one cycle later) instead of by a new start. */
  readonly reset: boolean;
}

/**
 * Streams of MMAs: mostly back-to-back, some with idle gaps, some cut short by a restart or a
 * synchronous reset, then drained so the last MMA completes.
 */
export function arbitraryStream(shape: DecoderShape, maxSegments = 4): fc.Arbitrary<DecoderStimulus[]> {
  const cycles = shape.tileLength / shape.slots;
  const segment: fc.Arbitrary<Segment> = fc.record({
    bitmaps: fc.array(arbitraryBitmap(shape.tileLength), { minLength: shape.threads, maxLength: shape.threads }),
    spacing: fc.oneof(
      { arbitrary: fc.constant(cycles), weight: 3 },
      { arbitrary: fc.integer({ min: 1, max: cycles + 3 }), weight: 2 },
    ),
    reset: fc.boolean(),
  });
  return fc.tuple(fc.integer({ min: 0, max: 2 }), fc.array(segment, { minLength: 1, maxLength: maxSegments })).map(([lead, segments]) => {
    const stimulus: DecoderStimulus[] = Array.from({ length: lead }, () => ({}));
    segments.forEach((current, index) => {
      const isLast = index === segments.length - 1;
      const aborting = current.spacing < cycles && current.reset && !isLast;
      stimulus.push({ start: true, bitmaps: current.bitmaps });
      const span = isLast ? cycles + 2 : current.spacing;
      for (let cycle = 1; cycle < span; cycle++) stimulus.push({});
      if (aborting) stimulus.push({ reset: true });
    });
    return stimulus;
  });
}

/** A stimulus stream as port values of a block whose bitmap ports are `bitmap_<thread>`. */
export function stimulusPorts(stimulus: readonly DecoderStimulus[], shape: DecoderShape, bitmapPort = (thread: number): string => `bitmap_${thread}`): PortValues[] {
  return stimulus.map((cycle) => {
    const ports: PortValues = { reset: cycle.reset ? 1n : 0n, start: cycle.start ? 1n : 0n };
    if (cycle.start) for (let thread = 0; thread < shape.threads; thread++) ports[bitmapPort(thread)] = cycle.bitmaps?.[thread] ?? 0n;
    return ports;
  });
}

/** The BitmapDecoder's outputs that a golden cycle predicts. */
export function decoderPorts(cycle: DecoderCycle): PortValues {
  const ports: PortValues = { valid: flag(cycle.valid), first: flag(cycle.first), last: flag(cycle.last), pointer: BigInt(cycle.pointer) };
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
  if (actual.length !== expected.length) throw new Error(`${what}: ${actual.length} cycles simulated, ${expected.length} expected`);
  expected.forEach((ports, cycle) => {
    const got = actual[cycle]!;
    const wrong = Object.entries(ports).filter(([name, value]) => got[name] !== value);
    if (wrong.length > 0)
      throw new Error(`${what}: cycle ${cycle}: ${wrong.slice(0, 6).map(([name, value]) => `${name} = ${got[name]}, expected ${value}`).join('; ')}${wrong.length > 6 ? ` (+${wrong.length - 6} more)` : ''}`);
  });
}
