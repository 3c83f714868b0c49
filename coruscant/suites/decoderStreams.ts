import fc from 'fast-check';
import type { DecoderShape, DecoderStimulus } from '../golden/models/decoder.ts';

/** Bitmaps of the kinds that matter: empty, full, one bit, and 30–70 % dense (the paper's range). */
export function arbitraryBitmap(tileLength: number): fc.Arbitrary<bigint> {
  const full = (1n << BigInt(tileLength)) - 1n;
  const dense = fc
    .tuple(
      fc.integer({ min: 30, max: 70 }),
      fc.array(fc.integer({ min: 0, max: 99 }), { minLength: tileLength, maxLength: tileLength }),
    )
    .map(([percent, draws]) =>
      draws.reduce((bitmap, draw, column) => (draw < percent ? bitmap | (1n << BigInt(column)) : bitmap), 0n),
    );
  return fc.oneof(
    { arbitrary: fc.constant(0n), weight: 1 },
    { arbitrary: fc.constant(full), weight: 1 },
    { arbitrary: fc.integer({ min: 0, max: tileLength - 1 }).map((bit) => 1n << BigInt(bit)), weight: 1 },
    { arbitrary: dense, weight: 5 },
  );
}

/** One MMA of a stream and what happens before the next start. */
interface Segment {
  readonly bitmaps: readonly bigint[];
  /** Cycles from this start to the next: the MMA length is back-to-back, shorter restarts, longer idles. */
  readonly spacing: number;
  /** Abort a shortened MMA by reset (then start a cycle later) instead of by the next start. */
  readonly reset: boolean;
}

/**
 * Handshake streams at the decoder: MMAs mostly back-to-back, some with gaps, some cut short by a
 * restart or a reset, drained at the end so the last MMA completes.
 */
export function arbitraryDecoderStream(shape: DecoderShape, maxSegments: number): fc.Arbitrary<DecoderStimulus[]> {
  const cycles = shape.tileLength / shape.slots;
  const segment: fc.Arbitrary<Segment> = fc.record({
    bitmaps: fc.array(arbitraryBitmap(shape.tileLength), { minLength: shape.threads, maxLength: shape.threads }),
    spacing: fc.oneof(
      { arbitrary: fc.constant(cycles), weight: 3 },
      { arbitrary: fc.integer({ min: 1, max: cycles + 3 }), weight: 2 },
    ),
    reset: fc.boolean(),
  });
  return fc
    .tuple(fc.integer({ min: 0, max: 2 }), fc.array(segment, { minLength: 1, maxLength: maxSegments }))
    .map(([lead, segments]) => {
      const stimulus: DecoderStimulus[] = Array.from({ length: lead }, () => ({}));
      segments.forEach((current, index) => {
        const isLast = index === segments.length - 1;
        stimulus.push({ start: true, bitmaps: current.bitmaps });
        const span = isLast ? cycles + 2 : current.spacing;
        for (let cycle = 1; cycle < span; cycle++) stimulus.push({});
        if (current.spacing < cycles && current.reset && !isLast) stimulus.push({ reset: true });
      });
      return stimulus;
    });
}
