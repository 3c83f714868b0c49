import { UserError } from '../../api/plugin.ts';
import { fp16ToNumber } from '../golden/numerics/fp16.ts';
import type { DecoderShape } from '../golden/models/decoder.ts';
import type { InputVector } from '../../api/synth.ts';
import { mmaTimeline, type MmaCycle } from './mmaTimeline.ts';
import { prunedMmaStream } from './prunedOperands.ts';

type Params = Readonly<Record<string, number | boolean | string>>;
type Ports = Record<string, bigint>;

/** The A operand a thread's slot multiplies this cycle: its selected nonzero, or +0 for a zero fill. */
function aOperand(cycle: MmaCycle, thread: number, slot: number): number {
  const select = cycle.decoded.slots[thread]?.[slot];
  if (!cycle.current || !select || select.zero) return 0;
  return cycle.current.values[thread]![select.valueIndex]!;
}

/** The B element a slot multiplies this cycle (the dense pointer's chunk); 0 when idle. */
function bOperand(cycle: MmaCycle, slot: number): number {
  return cycle.current?.b[cycle.decoded.pointer + slot] ?? 0;
}

const fp32 = new Float32Array(1);
const fp32Bits = new Uint32Array(fp32.buffer);
/** FP32 bits of an FP16 × FP16 product (exact, docs/spec.md §2), what a multiplier hands the adder tree. */
function productBits(a: number, b: number): bigint {
  fp32[0] = fp16ToNumber(a) * fp16ToNumber(b);
  return BigInt(fp32Bits[0]!);
}

const slotsOf = (shape: DecoderShape): number[] => Array.from({ length: shape.slots }, (_, slot) => slot);
const bit = (value: boolean): bigint => (value ? 1n : 0n);

/** Thread 0's selects of this cycle, as the lane detector and adder chain see them. */
function laneBits(cycle: MmaCycle): bigint {
  return (cycle.decoded.slots[0] ?? []).reduce((bits, select, slot) => bits | (bit(select.valid) << BigInt(slot)), 0n);
}

function indexPorts(cycle: MmaCycle, shape: DecoderShape): Ports {
  const ports: Ports = {};
  const indexMask = BigInt(shape.tileLength - 1);
  for (const slot of slotsOf(shape))
    ports[`index_${slot}`] = BigInt(cycle.decoded.slots[0]![slot]!.valueIndex) & indexMask;
  return ports;
}

function dotPorts(cycle: MmaCycle, shape: DecoderShape): Ports {
  const ports: Ports = {};
  for (const slot of slotsOf(shape)) {
    ports[`a_${slot}`] = BigInt(aOperand(cycle, 0, slot));
    ports[`b_${slot}`] = BigInt(bOperand(cycle, slot));
  }
  return ports;
}

/** How one registered top takes a sparse MMA stream: its threads, its shape, its port values per cycle. */
interface SparseDriver {
  /** Threads in the stream (rows of A per MMA). */
  readonly threads: (params: Params) => number;
  /** Whether the shape's tileLength and slots come from the top's parameters (decoder blocks) or are the paper's. */
  readonly decoderParams: boolean;
  readonly drive: (cycle: MmaCycle, shape: DecoderShape) => Ports;
}

const one = (): number => 1;
const warp = 32;

/**
 * Every top with a sparse workload. Decoder blocks get the decoder's handshake and what the
 * decoder would feed them; datapath blocks get thread 0's zero-filled A operands and B.
 */
const drivers: Readonly<Record<string, SparseDriver>> = {
  BitmapDecoder: {
    threads: (params) => Number(params['threads'] ?? warp),
    decoderParams: true,
    drive: (cycle) => {
      const ports: Ports = { start: bit(cycle.start) };
      const threads = cycle.decoded.slots.length;
      for (let thread = 0; thread < threads; thread++) ports[`bitmap_${thread}`] = cycle.started?.bitmaps[thread] ?? 0n;
      return ports;
    },
  },
  BitmapThreadSlice: {
    threads: one,
    decoderParams: true,
    drive: (cycle) => ({ start: bit(cycle.start), bitmap: cycle.started?.bitmaps[0] ?? 0n }),
  },
  DensePointerIncrementer: { threads: one, decoderParams: true, drive: (cycle) => ({ start: bit(cycle.start) }) },
  LaneDetector: { threads: one, decoderParams: true, drive: (cycle) => ({ bits: laneBits(cycle) }) },
  AdderChain: {
    threads: one,
    decoderParams: true,
    drive: (cycle, shape) => {
      const selects = cycle.decoded.slots[0]!;
      const ports: Ports = { start: bit(cycle.start), count: BigInt(selects.filter((select) => select.valid).length) };
      for (const slot of slotsOf(shape))
        ports[`rank_${slot}`] = BigInt(selects[slot]!.valueIndex - selects[0]!.valueIndex);
      return ports;
    },
  },
  RegisterIndexEmitter: {
    threads: one,
    decoderParams: true,
    drive: (cycle, shape) => ({ valid: laneBits(cycle), ...indexPorts(cycle, shape) }),
  },
  Fp16Multiplier: {
    threads: one,
    decoderParams: false,
    drive: (cycle) => ({ a: BigInt(aOperand(cycle, 0, 0)), b: BigInt(bOperand(cycle, 0)) }),
  },
  Fp32Adder: {
    threads: one,
    decoderParams: false,
    drive: (cycle) => ({
      a: productBits(aOperand(cycle, 0, 0), bOperand(cycle, 0)),
      b: productBits(aOperand(cycle, 0, 1), bOperand(cycle, 1)),
    }),
  },
  DotProduct4: { threads: one, decoderParams: false, drive: dotPorts },
  TensorLane: {
    threads: one,
    decoderParams: false,
    // C = +0: each MMA starts a fresh output (loadC with its first chunk).
    drive: (cycle, shape) => ({
      ...dotPorts(cycle, shape),
      enable: bit(cycle.decoded.valid),
      loadC: bit(cycle.decoded.first),
      c: 0n,
    }),
  },
  MmaUnit: {
    threads: () => warp,
    decoderParams: false,
    // Coruscant mode; the register file outside the unit answers each read port with the register
    // the golden decoder says it addresses this cycle (docs/spec.md §3.2 register image), B pairs likewise.
    drive: (cycle, shape) => {
      const ports: Ports = { start: bit(cycle.start), mode: 1n };
      for (let thread = 0; thread < warp; thread++) {
        ports[`bitmap_${thread}`] = cycle.started?.bitmaps[thread] ?? 0n;
        ports[`c_${thread}`] = 0n;
        for (const slot of slotsOf(shape)) {
          const select = cycle.decoded.slots[thread]![slot]!;
          const values = cycle.current?.values[thread];
          const low = values?.[2 * select.register] ?? 0;
          const high = values?.[2 * select.register + 1] ?? 0;
          ports[`read_${thread}_${slot}_data`] = (BigInt(high) << 16n) | BigInt(low);
        }
      }
      for (const port of [0, 1])
        ports[`vector_${port}_data`] =
          (BigInt(bOperand(cycle, 2 * port + 1)) << 16n) | BigInt(bOperand(cycle, 2 * port));
      return ports;
    },
  },
};

/** Registered tops that have a sparse workload. */
export const sparseWorkloadTops: readonly string[] = Object.keys(drivers);

export interface SparseWorkloadOptions {
  readonly sparsity: number;
  readonly seed: number;
  readonly cycles: number;
  /** Cycles with reset asserted at the start (default 2, as the measurement window assumes). */
  readonly resetCycles?: number;
}

const paperShape: DecoderShape = { threads: warp, tileLength: 64, slots: 4 };

/**
 * Per-cycle input vectors of a registered top (by definition name, with its parameters) running a
 * stream of MMAs over Wanda-pruned weights at `sparsity` with random FP16 B, back to back through
 * the decoder's handshake. Every top is driven with `reset` too; tops without one ignore it.
 */
export function sparseWorkloadVectors(top: string, params: Params, options: SparseWorkloadOptions): InputVector[] {
  const driver = drivers[top];
  if (!driver)
    throw new UserError(
      `${top} has no sparse workload (tops with one: ${sparseWorkloadTops.join(', ')}); use the random or zero workload`,
    );
  const threads = driver.threads(params);
  const shape: DecoderShape = driver.decoderParams
    ? {
        threads,
        tileLength: Number(params['tileLength'] ?? paperShape.tileLength),
        slots: Number(params['slots'] ?? paperShape.slots),
      }
    : { ...paperShape, threads };
  const mmas = prunedMmaStream({
    sparsity: options.sparsity,
    seed: options.seed,
    threads,
    tileLength: shape.tileLength,
  });
  const resetCycles = options.resetCycles ?? 2;
  return mmaTimeline(mmas, shape, options.cycles, resetCycles).map((cycle) => ({
    reset: bit(cycle.reset),
    ...driver.drive(cycle, shape),
  }));
}
