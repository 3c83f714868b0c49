import type { PortValues } from '../../api/engines.ts';
import type { DecoderShape, DecoderStimulus } from '../golden/models/decoder.ts';
import { mulberry32 } from '../../gpu/memory/seededRandom.ts';

/** A row-tile bitmap of 30–70 % density (the pruning range the paper targets). */
function randomBitmap(random: () => number, tileLength: number): bigint {
  const density = 0.3 + 0.4 * random();
  let bitmap = 0n;
  for (let column = 0; column < tileLength; column++) if (random() < density) bitmap |= 1n << BigInt(column);
  return bitmap;
}

/**
 * A seeded stream of `mmas` decoder MMAs after two reset cycles, back to back as in a sparse GEMM's
 * inner loop, drained at the end: the realistic workload for power.
 */
export function decoderMmaStream(shape: DecoderShape, mmas: number, seed: number): DecoderStimulus[] {
  const random = mulberry32(seed);
  const cycles = shape.tileLength / shape.slots;
  const stream: DecoderStimulus[] = [{ reset: true }, { reset: true }];
  for (let mma = 0; mma < mmas; mma++) {
    stream.push({ start: true, bitmaps: Array.from({ length: shape.threads }, () => randomBitmap(random, shape.tileLength)) });
    for (let cycle = 1; cycle < cycles; cycle++) stream.push({});
  }
  for (let cycle = 0; cycle <= cycles; cycle++) stream.push({});
  return stream;
}

/** Every input of the BitmapDecoder in every cycle; bitmap ports hold the last MMA's bitmaps, as operand registers would. */
export function decoderInputVectors(stimulus: readonly DecoderStimulus[], shape: DecoderShape): PortValues[] {
  let bitmaps: readonly bigint[] = Array.from({ length: shape.threads }, () => 0n);
  return stimulus.map((cycle) => {
    if (cycle.start && cycle.bitmaps) bitmaps = cycle.bitmaps;
    const ports: PortValues = { reset: cycle.reset ? 1n : 0n, start: cycle.start ? 1n : 0n };
    bitmaps.forEach((bitmap, thread) => (ports[`bitmap_${thread}`] = bitmap));
    return ports;
  });
}
