/**
 * The MMA benchmark's stimulus: a seeded stream of random coruscant-mode MMAs (m32n1k64), A pruned
 * to an exact sparsity, identical for every engine and every run with the same seed.
 */
import type { Fp16Matrix, Fp32Matrix } from '../golden/matrix.ts';
import type { MmaJob } from '../mma/mmaSchedule.ts';
import { MMA_SHAPES } from '../mma/registerImages.ts';
import { magnitudePrune } from '../golden/pruning/prune.ts';
import { Random } from '../golden/pruning/random.ts';

/** FP16 of moderate magnitude (2^-7 … 2^5), so 64-term sums stay finite and rounding is exercised. */
function moderateFp16(random: Random): number {
  return (random.nextInt(2) << 15) | ((8 + random.nextInt(13)) << 10) | random.nextInt(0x400);
}

/** FP32 bits of a uniform value in [-32, 32). */
function moderateFp32(random: Random): number {
  return new Uint32Array(new Float32Array([(random.nextFloat() - 0.5) * 64]).buffer)[0]!;
}

/** `count` coruscant MMAs with A at `sparsity` (exactly, by magnitude), B and C dense. */
export function randomCoruscantMmas(count: number, seed: number, sparsity: number): MmaJob[] {
  const random = new Random(seed);
  const { m, n, k } = MMA_SHAPES.coruscant;
  const fp16Matrix = (rows: number, cols: number): Fp16Matrix => ({
    rows,
    cols,
    bits: Uint16Array.from({ length: rows * cols }, () => moderateFp16(random)),
  });
  const fp32Matrix = (rows: number, cols: number): Fp32Matrix => ({
    rows,
    cols,
    bits: Uint32Array.from({ length: rows * cols }, () => moderateFp32(random)),
  });
  return Array.from({ length: count }, () => ({
    mode: 'coruscant' as const,
    A: magnitudePrune(fp16Matrix(m, k), sparsity),
    B: fp16Matrix(k, n),
    C: fp32Matrix(m, n),
  }));
}
