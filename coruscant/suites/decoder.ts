import fc from 'fast-check';
import { elaborate } from '../../api/ir.ts';
import {
  AdderChain,
  BitmapDecoder,
  BitmapThreadSlice,
  DensePointerIncrementer,
  LaneDetector,
  RegisterIndexEmitter,
  decoderWidths,
} from '../designs/decoder/index.ts';
import type { PortValues } from '../../api/engines.ts';
import {
  PAPER_DECODER_SHAPE,
  decodeMma,
  decoderTimeline,
  operandSelect,
  type DecoderCycle,
  type DecoderShape,
  type DecoderStimulus,
} from '../golden/models/decoder.ts';
import { defineSuite, once, type RegressSuite } from '../../api/regress.ts';
import { arbitraryDecoderStream } from './decoderStreams.ts';
import { densePointerBins, densityBins, popcountBins } from './coverageGoals.ts';

const SHAPE = PAPER_DECODER_SHAPE;
const SINGLE_THREAD: DecoderShape = { ...SHAPE, threads: 1 };
const flag = (value: boolean): bigint => (value ? 1n : 0n);
const INDEX_BITS = decoderWidths(SHAPE).index;

/** The handshake inputs of a stream, plus each thread's bitmap port in start cycles. */
function handshakePorts(stimulus: readonly DecoderStimulus[], bitmapPorts: readonly string[]): PortValues[] {
  return stimulus.map((cycle) => {
    const ports: PortValues = { reset: flag(cycle.reset ?? false), start: flag(cycle.start ?? false) };
    if (cycle.start) bitmapPorts.forEach((port, thread) => (ports[port] = cycle.bitmaps?.[thread] ?? 0n));
    return ports;
  });
}

/** The three output ports of one slot's select. */
interface SelectNames {
  readonly register: string;
  readonly half: string;
  readonly zero: string;
}

/** The select port names of slots 0 … count − 1 under `prefix(slot)`: built once per port family, not per cycle. */
function selectNames(count: number, prefix: (slot: number) => string): SelectNames[] {
  return Array.from({ length: count }, (_, slot) => ({
    register: `${prefix(slot)}_register`,
    half: `${prefix(slot)}_half`,
    zero: `${prefix(slot)}_zero`,
  }));
}

/** BigInts of small values, shared: a golden row holds hundreds of them per cycle. */
const SMALL = Array.from({ length: 256 }, (_, value) => BigInt(value));
const big = (value: number): bigint => SMALL[value] ?? BigInt(value);

/** Slot selects of one thread in one cycle into `ports` (RegisterIndexEmitter/BitmapDecoder output ports). */
function addSelects(ports: PortValues, cycle: DecoderCycle, thread: number, names: readonly SelectNames[]): PortValues {
  cycle.slots[thread]!.forEach((slot, index) => {
    const name = names[index]!;
    ports[name.register] = big(slot.register);
    ports[name.half] = big(slot.half);
    ports[name.zero] = flag(slot.zero);
  });
  return ports;
}

const EMITTER_NAMES = selectNames(SHAPE.slots, (j) => `operand_${j}`);
const DECODER_NAMES = Array.from({ length: SHAPE.threads }, (_, thread) =>
  selectNames(SHAPE.slots, (j) => `operand_${thread}_${j}`),
);

/** AdderChain in a stream: its inputs are what the lane detector would give, its outputs the golden value indices. */
function adderChainVectors(stimulus: readonly DecoderStimulus[]): { stimulus: PortValues[]; expected: PortValues[] } {
  const inputs: PortValues[] = [];
  const expected: PortValues[] = [];
  let held = 0;
  decoderTimeline(stimulus, SINGLE_THREAD).forEach((cycle, index) => {
    const slots = cycle.slots[0]!;
    const base = cycle.valid ? slots[0]!.valueIndex : held;
    const driven: PortValues = {
      reset: flag(stimulus[index]!.reset ?? false),
      start: flag(stimulus[index]!.start ?? false),
      count: BigInt(cycle.valid ? slots.filter((slot) => slot.valid).length : 0),
    };
    const wanted: PortValues = { base: BigInt(base) };
    slots.forEach((slot, j) => {
      const rank = cycle.valid ? slot.valueIndex - base : 0;
      driven[`rank_${j}`] = BigInt(rank);
      wanted[`index_${j}`] = BigInt((base + rank) % 2 ** INDEX_BITS);
    });
    inputs.push(driven);
    expected.push(wanted);
    held = stimulus[index]!.reset || stimulus[index]!.start ? 0 : base + Number(driven['count']);
  });
  return { stimulus: inputs, expected };
}

const laneChunks = fc.array(fc.nat(2 ** SHAPE.slots - 1), { minLength: 1, maxLength: 8 });
const emitterCycles = fc.array(
  fc.array(fc.tuple(fc.boolean(), fc.nat(2 ** INDEX_BITS - 1)), { minLength: SHAPE.slots, maxLength: SHAPE.slots }),
  { minLength: 1, maxLength: 8 },
);

/** The bitmap decoder's blocks, bottom up to the whole decoder, against golden/models/decoder.ts. */
export const decoderSuites: readonly RegressSuite[] = [
  defineSuite({
    name: 'LaneDetector',
    groups: ['decoder'],
    description: 'LaneDetector (comb): valid, ranks and count of each 4-bit chunk = golden decode of a one-chunk tile',
    arbitrary: laneChunks,
    design: once(() => elaborate(LaneDetector)),
    coverage: { bins: [popcountBins('count')] },
    vectors: (chunks) => ({
      stimulus: chunks.map((bits) => ({ bits: BigInt(bits) })),
      expected: chunks.map((bits) => {
        const selects = decodeMma([BigInt(bits)], { threads: 1, tileLength: SHAPE.slots, slots: SHAPE.slots })[0]!
          .slots[0]!;
        return {
          valid: BigInt(bits),
          count: BigInt(selects.filter((slot) => slot.valid).length),
          ...Object.fromEntries(selects.map((slot, j) => [`rank_${j}`, BigInt(slot.valueIndex)])),
        };
      }),
    }),
  }),
  defineSuite({
    name: 'RegisterIndexEmitter',
    groups: ['decoder'],
    description: 'RegisterIndexEmitter (comb): per slot register, half and zero flag = golden operand select',
    arbitrary: emitterCycles,
    design: once(() => elaborate(RegisterIndexEmitter)),
    vectors: (cycles) => ({
      stimulus: cycles.map((slots) => ({
        valid: BigInt(slots.reduce((bits, [valid], j) => bits | (Number(valid) << j), 0)),
        ...Object.fromEntries(slots.map(([, index], j) => [`index_${j}`, BigInt(index)])),
      })),
      expected: cycles.map((slots) =>
        addSelects(
          {},
          {
            valid: true,
            pointer: 0,
            first: false,
            last: false,
            slots: [slots.map(([valid, index]) => operandSelect(valid, index))],
          },
          0,
          EMITTER_NAMES,
        ),
      ),
    }),
  }),
  defineSuite({
    name: 'AdderChain',
    groups: ['decoder'],
    description: 'AdderChain: base and per-slot value indices along a stream of MMAs = golden value indices',
    arbitrary: arbitraryDecoderStream(SINGLE_THREAD, 4),
    design: once(() => elaborate(AdderChain)),
    vectors: adderChainVectors,
    coverage: { bins: [popcountBins('count'), densityBins(SHAPE.tileLength)] },
    // In the decoder the chain's ranks come from the lane detector (rank j ≤ j, count their sum).
    mutationContext: once(() => elaborate(BitmapThreadSlice)),
  }),
  defineSuite({
    name: 'DensePointerIncrementer',
    groups: ['decoder'],
    description: 'DensePointerIncrementer: active, pointer, first, last along a stream of MMAs = golden timeline',
    arbitrary: arbitraryDecoderStream(SINGLE_THREAD, 4),
    design: once(() => elaborate(DensePointerIncrementer)),
    coverage: { bins: [densePointerBins('pointer', 'active', SHAPE.tileLength, SHAPE.slots)] },
    vectors: (stimulus) => ({
      stimulus: handshakePorts(stimulus, []),
      expected: decoderTimeline(stimulus, SINGLE_THREAD).map((cycle) => ({
        active: flag(cycle.valid),
        pointer: BigInt(cycle.pointer),
        first: flag(cycle.first),
        last: flag(cycle.last),
      })),
    }),
  }),
  defineSuite({
    name: 'BitmapDecoder',
    groups: ['decoder'],
    description:
      'BitmapDecoder (32 threads, K = 64): every operand select and the dense pointer, cycle by cycle = golden timeline',
    arbitrary: arbitraryDecoderStream(SHAPE, 3),
    design: once(() => elaborate(BitmapDecoder)),
    batchSize: 50,
    coverage: {
      bins: [
        densityBins(SHAPE.tileLength),
        popcountBins('thread_0.lanes.count'),
        densePointerBins('pointer', 'valid', SHAPE.tileLength, SHAPE.slots),
      ],
    },
    vectors: (stimulus) => ({
      stimulus: handshakePorts(
        stimulus,
        Array.from({ length: SHAPE.threads }, (_, thread) => `bitmap_${thread}`),
      ),
      expected: decoderTimeline(stimulus, SHAPE).map((cycle) => {
        const ports: PortValues = {
          valid: flag(cycle.valid),
          first: flag(cycle.first),
          last: flag(cycle.last),
          pointer: BigInt(cycle.pointer),
        };
        for (let thread = 0; thread < SHAPE.threads; thread++) addSelects(ports, cycle, thread, DECODER_NAMES[thread]!);
        return ports;
      }),
    }),
  }),
];
