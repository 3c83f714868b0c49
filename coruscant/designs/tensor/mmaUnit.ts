/**
 * The sub-core's MMA unit (docs/spec.md §4.2, paper Fig. 12–13): two TensorCores = 32 lanes = 128 MACs
 * per cycle, serving one warp's MMA in 16 datapath cycles, in one of two modes chosen per MMA:
 *
 * - dense (`mode` = 0, the original datapath): HMMA m16n8k16. Lane t computes a 2×2 block of D,
 *   rows 2·(t >> 2) + {0, 1}, columns 2·(t & 3) + {0, 1}; output slot s = 2·(row parity) + column
 *   parity. Cycle i of the MMA accumulates slot s = i >> 2 over K chunk i & 3, so every output
 *   walks K in increasing chunks of 4 from its C (docs/spec.md §2). Thread t's registers hold its
 *   fragment: A rows in registers 0–7 and 8–15, B columns in registers 16–23 and 24–31, two FP16
 *   per register along k (docs/tensor-core.md).
 * - coruscant (`mode` = 1): m32n1k64. Lane t is thread t: one STC row tile of A (docs/spec.md §3.2),
 *   whose operands the BitmapDecoder selects from the thread's value registers, zero-filling
 *   pruned slots; B is broadcast four elements per cycle from the dense pointer.
 *
 * The register file is the SM's, outside this unit: per lane four 32-bit read ports (address
 * out, data in, combinational within the cycle), one shared pair for B, and one per lane for C.
 * Both handshakes are valid-only streams (Flows, hw/lib/stream): the MMA comes in as `mmaStartFlow`
 * (`start` with `mode` and the bitmaps; no ready — `start` in the `last` cycle chains with no
 * bubble, earlier it restarts) and its results leave as `mmaWriteBackFlow` (`dValid` with `dSlot`
 * and each lane's `d_<t>`; the register file takes every write-back).
 */
import {
  cat,
  connect,
  constant,
  defineModule,
  fieldsOf,
  flip,
  input,
  mux,
  output,
  vec,
  type ModuleBuilder,
  type Value,
} from '../../../api/index.ts';
import { flowOf } from '../../../api/index.ts';
import { BitmapDecoder, decodedFlow, decoderStartFlow } from '../decoder/bitmapDecoder.ts';
import { DECODER_DEFAULTS } from '../decoder/parameters.ts';
import { DOT_WIDTH, validateUnitStages } from './dotProduct4.ts';
import { tensorLaneLatency } from './tensorLane.ts';
import { TENSOR_CORE_LANES, TensorCore } from './tensorCore.ts';
import { PIPELINED_DOC } from './threadGroup.ts';

/** Lanes = threads of the warp. */
export const MMA_UNIT_LANES = 2 * TENSOR_CORE_LANES;
/** Datapath cycles of one MMA in either mode. */
export const MMA_DATAPATH_CYCLES = DECODER_DEFAULTS.tileLength / DECODER_DEFAULTS.slots;
/** Register-address width of the read ports (32 value registers per thread, docs/spec.md §3.2). */
export const REGISTER_ADDRESS_BITS = 5;
/** `mode` encodings. */
export const MMA_MODES = { dense: 0, coruscant: 1 } as const;

/**
 * Cycles from an MMA's last datapath cycle to the write-back of its last output (the lane
 * latency). With `start` in cycle t, chunk i is read in cycle t + 1 + i and the last output is
 * written back in cycle t + 16 + mmaLatency(pipelined) = t + 17 + 3·pipelined.
 */
export function mmaLatency(pipelined: number): number {
  return tensorLaneLatency(pipelined);
}

/**
 * The MMA start, a Flow from its producer's side: `start` is the valid bit; `mode` and every
 * thread's bitmap are sampled with it. The decoder's part of it is `decoderStartFlow`.
 */
export const mmaStartFlow = flowOf(
  {
    mode: output<number>(1, '0 = dense m16n8k16, 1 = coruscant m32n1k64 (sampled with start)'),
    bitmap: vec(
      MMA_UNIT_LANES,
      output<number>(64, "thread t's row-tile bitmap, bit c ↔ column c (coruscant; sampled with start)"),
    ),
  },
  {
    valid: 'start',
    description: 'begin an MMA: mode and bitmaps are sampled at this edge; chunk 0 is read in the next cycle',
  },
);

/** The write-back, a Flow: in a cycle with `dValid`, every lane's `d_<t>` is its output of slot `dSlot`. */
export const mmaWriteBackFlow = flowOf(
  {
    dSlot: output<number>(2, 'write-back: the output slot of d_<t> (dense 0…3, coruscant 0)'),
    d: vec(MMA_UNIT_LANES, output<number>(32, 'FP32 D element of lane t, valid with dValid')),
  },
  { valid: 'dValid', description: 'write-back: every d_<t> holds a finished output this cycle' },
);

/** `value` delayed by `cycles` resettable registers named `<name>_d1…`. */
function delayed(m: ModuleBuilder, name: string, value: Value, cycles: number): Value {
  let current = value;
  for (let cycle = 1; cycle <= cycles; cycle++) {
    const register = m.reg(`${name}_d${cycle}`, value.width, { reset: 0 });
    register.set(current);
    current = register;
  }
  return current;
}

/** The FP16 half of a 32-bit register the select names. */
const halfOf = (register: Value, high: Value): Value => mux(high, register.bits(31, 16), register.bits(15, 0));

export const MmaUnit = defineModule({
  name: 'MmaUnit',
  description: 'Two tensor cores (32 lanes, 128 MACs/cycle) with dense HMMA m16n8k16 and Coruscant m32n1k64 modes',
  defaults: { pipelined: 0 },
  parameterDocs: { pipelined: PIPELINED_DOC },
  validate: validateUnitStages,
  ports: () => ({
    ...flip(mmaStartFlow),
    read: vec(
      MMA_UNIT_LANES,
      vec(DOT_WIDTH, {
        register: output<number>(REGISTER_ADDRESS_BITS, 'register of thread t this read port addresses'),
        data: input<number>(32, 'that register, returned in the same cycle'),
      }),
    ),
    vector: vec(2, {
      register: output<number>(REGISTER_ADDRESS_BITS, 'coruscant: register of the shared B vector (pointer/2 + port)'),
      data: input<number>(32, 'that register: B[pointer + 2·port] low, B[pointer + 2·port + 1] high'),
    }),
    cSlot: output<number>(
      2,
      "which of the lane's C elements c_<t> must hold this cycle (dense: the output slot; coruscant: 0)",
    ),
    c: vec(MMA_UNIT_LANES, input<number>(32, 'FP32 C element of lane t for slot cSlot')),
    busy: output<number>(1, 'a datapath cycle of an MMA'),
    last: output<number>(1, 'last datapath cycle of an MMA: start may be asserted now (no bubble)'),
    ...mmaWriteBackFlow,
  }),
  build(m, io, params) {
    const decoderInstance = m.instance(BitmapDecoder, { name: 'decoder' });
    // The decoder takes the start Flow without `mode`; its operand selects come back as a Flow.
    const decoderStart = decoderStartFlow(DECODER_DEFAULTS);
    connect(fieldsOf(decoderInstance, decoderStart), fieldsOf(io, decoderStart));
    const decoder = fieldsOf(decoderInstance, decodedFlow(DECODER_DEFAULTS));

    const coruscant = m.reg('coruscant', 1, { reset: 0 });
    m.when(io.start, () => coruscant.set(io.mode));

    // The dense pointer is the MMA's cycle counter in both modes: cycle i = pointer / 4.
    const chunk = decoder.pointer.bits(3, 2);
    const denseSlot = decoder.pointer.bits(5, 4);
    const slot = m.named('slot', mux(coruscant, 0, denseSlot));
    const lastChunkOfOutput = m.named(
      'lastChunkOfOutput',
      decoder.valid.and(mux(coruscant, decoder.last, chunk.eq(3))),
    );
    const loadC = m.named('loadC', mux(coruscant, decoder.first, chunk.eq(0)));

    // Dense fragment registers: A row (slot >> 1) at 8·(slot >> 1) + 2·chunk + {0, 1}, B column
    // (slot & 1) at 16 + 8·(slot & 1) + 2·chunk + {0, 1}.
    const denseRegisters = [
      cat(constant(0, 1), denseSlot.bit(1), chunk, constant(0, 1)),
      cat(constant(0, 1), denseSlot.bit(1), chunk, constant(1, 1)),
      cat(constant(1, 1), denseSlot.bit(0), chunk, constant(0, 1)),
      cat(constant(1, 1), denseSlot.bit(0), chunk, constant(1, 1)),
    ];
    io.cSlot.set(slot);
    io.busy.set(decoder.valid);
    io.last.set(decoder.last);
    io.vector.forEach((port, index) => port.register.set(cat(decoder.pointer.bits(5, 2), constant(index, 1))));
    const broadcastB = io.vector.flatMap((port) => [port.data.bits(15, 0), port.data.bits(31, 16)]);

    const cores = [0, 1].map((index) =>
      m.instance(TensorCore, { name: `tensorCore${index}`, params: { pipelined: params.pipelined } }),
    );
    for (const core of cores) {
      core.enable.set(decoder.valid);
      core.loadC.set(loadC);
    }
    const lanes = io.read.map(
      (_, thread) => cores[Math.floor(thread / TENSOR_CORE_LANES)]!.lane[thread % TENSOR_CORE_LANES]!,
    );
    io.read.forEach((ports, thread) => {
      const lane = lanes[thread]!;
      const selects = decoder.operand[thread]!;
      ports.forEach((port, index) =>
        port.register.set(mux(coruscant, selects[index]!.register, denseRegisters[index]!)),
      );
      const denseHalves = ports.flatMap((port) => [port.data.bits(15, 0), port.data.bits(31, 16)]);
      for (let k = 0; k < DOT_WIDTH; k++) {
        const select = selects[k]!;
        const sparseA = mux(select.zero, 0, halfOf(ports[k]!.data, select.half));
        lane.a[k]!.set(mux(coruscant, sparseA, denseHalves[k]!));
        lane.b[k]!.set(mux(coruscant, broadcastB[k]!, denseHalves[DOT_WIDTH + k]!));
      }
      lane.c.set(io.c[thread]!);
    });

    const latency = tensorLaneLatency(params.pipelined);
    connect(fieldsOf(io, mmaWriteBackFlow), {
      dValid: delayed(m, 'dValid', lastChunkOfOutput, latency),
      dSlot: delayed(m, 'dSlot', slot, latency),
      d: lanes.map((lane) => lane.acc),
    });

    // The MMA handshake (docs/verification.md): busy for the 16 datapath cycles after start, last
    // in the 16th, and D valid `latency` cycles after each output's last chunk, never otherwise.
    m.assert(decoder.last.not().or(decoder.valid), 'last only in a busy cycle');
    m.assert(m.past(io.start).not().or(decoder.valid.and(decoder.first)), 'busy, first chunk, the cycle after start');
    m.assert(
      m.past(decoder.last.and(io.start.not())).not().or(decoder.valid.not()),
      'not busy after last unless restarted',
    );
    m.assert(io.dValid.not().or(m.past(decoder.valid, latency)), 'D valid only latency cycles after a busy cycle');
    m.assert(
      m.past(decoder.last.and(coruscant), latency).not().or(io.dValid),
      'coruscant: D valid latency cycles after last',
    );
    m.cover(io.dValid.and(coruscant), 'coruscant_write_back');
  },
});
