/**
 * The Coruscant MMA as the sparse datapath runs it: from each thread's STC registers (docs/spec.md §3.2),
 * through the bitmap decoder's per-cycle operand selects (docs/spec.md §4.1), into the same lane step as
 * the dense model. A zero-filled slot multiplies +0 (0x0000), which is exactly the decompressed
 * matrix's entry there, so this equals `coruscantMma` of the decompressed weights bit for bit.
 */
import type { StcThreadRegisters } from '../formats/stcFormat.ts';
import type { Fp16Matrix, Fp32Matrix } from '../matrix.ts';
import { decodeMma, PAPER_DECODER_SHAPE } from './decoder.ts';
import { DOT_WIDTH, dot4Accumulate } from './mma.ts';

/** The FP16 operand a slot select reads: the addressed half register, or a zero fill. */
function selectedOperand(
  registers: StcThreadRegisters,
  select: { zero: boolean; register: number; half: 0 | 1 },
): number {
  if (select.zero) return 0x0000;
  return ((registers.values[select.register] as number) >>> (16 * select.half)) & 0xffff;
}

/**
 * m32n1k64 from registers: thread t holds row t's row tile; per cycle, per thread,
 * acc = dot4Accumulate(acc, the 4 selected operands, B[pointer … pointer + 3]).
 */
export function coruscantMmaFromRegisters(
  threads: readonly StcThreadRegisters[],
  B: Fp16Matrix,
  C: Fp32Matrix,
): Fp32Matrix {
  const { threads: threadCount, tileLength } = PAPER_DECODER_SHAPE;
  if (
    threads.length !== threadCount ||
    B.rows !== tileLength ||
    B.cols !== 1 ||
    C.rows !== threadCount ||
    C.cols !== 1
  ) {
    throw new RangeError(`needs ${threadCount} threads, B ${tileLength}×1 and C ${threadCount}×1`);
  }
  const bitmaps = threads.map((t) => (BigInt(t.bitmapHi >>> 0) << 32n) | BigInt(t.bitmapLo >>> 0));
  const D = new Uint32Array(C.bits);
  const a = new Uint16Array(DOT_WIDTH);
  for (const cycle of decodeMma(bitmaps)) {
    const b = B.bits.subarray(cycle.pointer, cycle.pointer + DOT_WIDTH);
    threads.forEach((registers, thread) => {
      (cycle.slots[thread] ?? []).forEach((select, slot) => (a[slot] = selectedOperand(registers, select)));
      D[thread] = dot4Accumulate(D[thread] as number, a, b);
    });
  }
  return { rows: threadCount, cols: 1, bits: D };
}
