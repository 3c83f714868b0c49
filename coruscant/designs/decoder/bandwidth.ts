import type { IrPort } from '../../../api/ir.ts';
import { elaborate, topModule } from '../../../api/ir.ts';
import { BitmapDecoder } from './bitmapDecoder.ts';
import { DECODER_DEFAULTS } from './parameters.ts';

/** Register-file read budget of a Volta tensor core per warp per cycle (Raihan et al., ISPASS 2019, as the paper cites it). */
export const VOLTA_REGISTER_READ_BYTES_PER_CYCLE = 384;

const FP16_BYTES = 2;
const REGISTER_BYTES = 4;
/** docs/spec.md §2: accumulation in FP32. */
const FP32_BYTES = 4;

/** One kind of register-file read: how many items per cycle, of what size. */
export interface BandwidthLine {
  readonly item: string;
  readonly count: number;
  readonly bytesEach: number;
  readonly bytesPerCycle: number;
  /** The arithmetic and which design port it comes from. */
  readonly derivation: string;
}

/** A per-cycle byte count under one set of assumptions. */
export interface BandwidthAccounting {
  readonly lines: readonly BandwidthLine[];
  readonly total: number;
  readonly withinBudget: boolean;
}

/** The decoder's shape as read back from its elaborated ports. */
export interface DecoderPortShape {
  readonly threads: number;
  readonly slots: number;
  readonly tileLength: number;
  readonly registerAddressBits: number;
  readonly pointerBits: number;
  readonly cyclesPerMma: number;
}

/** The paper's check (≤ 384 B/cycle/warp; it counts 344) redone from the design's ports. */
export interface RegisterFileBandwidthReport {
  readonly shape: DecoderPortShape;
  readonly budget: number;
  /** The paper's way: every operand a 2-byte read each cycle, accumulators included. */
  readonly paper: BandwidthAccounting;
  /** This design: half-word A reads, FP32 accumulators and bitmaps read once per MMA. */
  readonly design: BandwidthAccounting;
  /** A read as whole 32-bit registers: the most registers `slots` consecutive values can span. */
  readonly wholeRegisterA: BandwidthLine;
  /** FP32 accumulators read every cycle instead of once per MMA. */
  readonly fp32AccumulatorEveryCycle: number;
  readonly text: string;
}

const OPERAND_PORT = /^operand_(\d+)_(\d+)_register$/;
const BITMAP_PORT = /^bitmap_(\d+)$/;

/** Threads, slots and widths from the BitmapDecoder top's ports (not from its parameters). */
export function decoderPortShape(ports: readonly IrPort[]): DecoderPortShape {
  const threads = new Set<string>();
  const slots = new Set<string>();
  let registerAddressBits = 0;
  let tileLength = 0;
  let bitmaps = 0;
  for (const port of ports) {
    const operand = OPERAND_PORT.exec(port.name);
    if (operand) {
      threads.add(operand[1]!);
      slots.add(operand[2]!);
      registerAddressBits = port.width;
    }
    if (BITMAP_PORT.test(port.name)) {
      bitmaps++;
      tileLength = port.width;
    }
  }
  const pointer = ports.find((port) => port.name === 'pointer');
  if (threads.size === 0 || !pointer || bitmaps !== threads.size)
    throw new Error('internal: not a BitmapDecoder port list (operand_<t>_<s>_register, bitmap_<t>, pointer)');
  return {
    threads: threads.size,
    slots: slots.size,
    tileLength,
    registerAddressBits,
    pointerBits: pointer.width,
    cyclesPerMma: tileLength / slots.size,
  };
}

/** A line with its product. */
function line(item: string, count: number, bytesEach: number, derivation: string): BandwidthLine {
  return { item, count, bytesEach, bytesPerCycle: count * bytesEach, derivation };
}

function accounting(lines: readonly BandwidthLine[], budget: number): BandwidthAccounting {
  const total = lines.reduce((sum, entry) => sum + entry.bytesPerCycle, 0);
  return { lines, total, withinBudget: total <= budget };
}

const formatBytes = (bytes: number): string => `${Number.isInteger(bytes) ? bytes : bytes.toFixed(2)} B`;

function render(title: string, result: BandwidthAccounting, budget: number): string[] {
  return [
    title,
    ...result.lines.map(
      (entry) => `  ${entry.item.padEnd(22)} ${formatBytes(entry.bytesPerCycle).padStart(9)}   ${entry.derivation}`,
    ),
    `  ${'total'.padEnd(22)} ${formatBytes(result.total).padStart(9)}   ${result.withinBudget ? '≤' : '>'} ${budget} B budget`,
  ];
}

/**
 * Register-file read bandwidth per warp per cycle of the Coruscant tensor core, from the
 * elaborated BitmapDecoder's ports: the paper's accounting (344 B at the defaults), this design's,
 * and the two ways it could exceed Volta's 384 B.
 */
export function registerFileBandwidthReport(
  params: Partial<typeof DECODER_DEFAULTS> = {},
): RegisterFileBandwidthReport {
  const shape = decoderPortShape(topModule(elaborate(BitmapDecoder, params)).ports);
  const { threads, slots, tileLength, cyclesPerMma } = shape;
  const budget = VOLTA_REGISTER_READ_BYTES_PER_CYCLE;
  const selects = threads * slots;
  const aLine = line(
    'A nonzeros (FP16)',
    selects,
    FP16_BYTES,
    `${threads} threads × ${slots} operand selects (operand_<t>_<s>_register/half) × ${FP16_BYTES} B`,
  );
  const bLine = line(
    'B dense (FP16)',
    slots,
    FP16_BYTES,
    `${slots} consecutive elements from pointer[${shape.pointerBits - 1}:0], broadcast to all threads, × ${FP16_BYTES} B`,
  );
  const bitmapBitsPerCycle = (threads * tileLength) / cyclesPerMma;
  const bitmapLine = line(
    'bitmaps',
    bitmapBitsPerCycle / 8,
    1,
    `${threads} threads × ${tileLength}-bit bitmap_<t> / ${cyclesPerMma} cycles = ${threads} × ${slots} bits = ${bitmapBitsPerCycle} bits`,
  );

  const paper = accounting(
    [
      aLine,
      bLine,
      line(
        'C accumulators',
        threads,
        FP16_BYTES,
        `${threads} threads × 1 × ${FP16_BYTES} B (the paper counts them as 2-byte operands)`,
      ),
      bitmapLine,
    ],
    budget,
  );
  const accumulatorLine = line(
    'C accumulators (FP32)',
    threads / cyclesPerMma,
    FP32_BYTES,
    `${threads} threads × ${FP32_BYTES} B once per MMA / ${cyclesPerMma} cycles (the lane keeps the sum in its register)`,
  );
  const design = accounting([aLine, bLine, accumulatorLine, bitmapLine], budget);
  // slots consecutive value indices b … b+slots−1 span ⌊slots/2⌋+1 registers when b is odd.
  const spanned = Math.floor(slots / 2) + 1;
  const wholeRegisterA = line(
    'A as whole registers',
    threads * spanned,
    REGISTER_BYTES,
    `${threads} threads × ${spanned} registers (odd base) × ${REGISTER_BYTES} B`,
  );
  const fp32AccumulatorEveryCycle = design.total - accumulatorLine.bytesPerCycle + threads * FP32_BYTES;

  const text = [
    `Register-file reads per warp per cycle, BitmapDecoder with ${threads} threads, ${tileLength}-element tiles, ${slots} slots (${cyclesPerMma} cycles per MMA),`,
    `counted from its elaborated ports: ${selects} operand selects of ${shape.registerAddressBits}-bit register + half, ${threads} bitmap ports of ${tileLength} bits, a ${shape.pointerBits}-bit dense pointer.`,
    '',
    ...render("Paper's accounting (every operand a 2-byte read, every cycle):", paper, budget),
    `  = (${selects} + ${slots} + ${threads}) × ${FP16_BYTES} B + ${formatBytes(bitmapLine.bytesPerCycle)} = ${formatBytes(paper.total)}`,
    '',
    ...render("This design's accounting (FP32 accumulators per docs/spec.md §2, read once per MMA):", design, budget),
    '',
    'Where it could exceed the budget:',
    `  FP32 accumulators read every cycle: ${formatBytes(fp32AccumulatorEveryCycle)} (${fp32AccumulatorEveryCycle <= budget ? '≤' : '>'} ${budget} B).`,
    `  ${wholeRegisterA.item}: ${formatBytes(wholeRegisterA.bytesPerCycle)} for A alone (${wholeRegisterA.derivation}); half-word reads avoid this.`,
  ].join('\n');
  return { shape, budget, paper, design, wholeRegisterA, fp32AccumulatorEveryCycle, text };
}
