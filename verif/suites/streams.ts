import fc from 'fast-check';
import { elaborate } from '../../hw/ir/elaborate.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import {
  ArbiterModel,
  ChainModel,
  FifoModel,
  ForkModel,
  JoinModel,
  RoundRobinArbiter,
  SkidBuffer,
  SkidModel,
  StreamFifo,
  StreamFork,
  StreamJoin,
  type StreamModel,
} from '../../hw/lib/stream/index.ts';
import { StreamFifoChain } from '../../hw/examples/streamFifoChain.ts';
import { defineSuite, once, type CaseVectors, type RegressSuite } from '../regress/suite.ts';

/**
 * One stream case: per producer the words it sends, and per cycle whether each producer offers
 * its next word (a word once offered is held, with its data, until it fires) and whether each
 * consumer is ready. Plain data, so fast-check shrinks it.
 */
export interface StreamCase {
  readonly words: readonly (readonly number[])[];
  readonly offer: readonly (readonly boolean[])[];
  readonly ready: readonly (readonly boolean[])[];
}

const MAX_CYCLES = 40;

export function arbitraryStreamCase(producers: number, consumers: number, width: number): fc.Arbitrary<StreamCase> {
  const word = fc.integer({ min: 0, max: 2 ** width - 1 });
  // Biased towards ready and offering, with stretches of back-pressure.
  const likely = fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.boolean(), weight: 2 });
  return fc.integer({ min: 1, max: MAX_CYCLES }).chain((cycles) =>
    fc.record({
      words: fc.array(fc.array(word, { maxLength: cycles }), { minLength: producers, maxLength: producers }),
      offer: fc.array(fc.array(likely, { minLength: producers, maxLength: producers }), {
        minLength: cycles,
        maxLength: cycles,
      }),
      ready: fc.array(fc.array(likely, { minLength: consumers, maxLength: consumers }), {
        minLength: cycles,
        maxLength: cycles,
      }),
    }),
  );
}

/**
 * Drives a golden model as the testbench would: a reset cycle, then the case's producers and
 * consumers, producers holding an offered word until the model's ready takes it. Returns the
 * stimulus (protocol-correct by construction, as long as the RTL equals the model) and the
 * model's outputs as the expectation, and the words each consumer received.
 */
export function runStreamCase(
  model: StreamModel,
  producers: readonly string[],
  consumers: readonly string[],
  testCase: StreamCase,
): CaseVectors & { received: bigint[][] } {
  const idle: PortValues = {};
  for (const name of producers) Object.assign(idle, { [`${name}_valid`]: 0n, [`${name}_data`]: 0n });
  for (const name of consumers) idle[`${name}_ready`] = 0n;
  const stimulus: PortValues[] = [{ ...idle, reset: 1n }];
  const expected: PortValues[] = [{}];
  const next = producers.map(() => 0);
  const held: (bigint | undefined)[] = producers.map(() => undefined);
  const received: bigint[][] = consumers.map(() => []);
  testCase.offer.forEach((offers, cycle) => {
    const inputs: PortValues = { reset: 0n };
    producers.forEach((name, index) => {
      const queue = testCase.words[index]!;
      if (held[index] === undefined && offers[index] && next[index]! < queue.length)
        held[index] = BigInt(queue[next[index]!]!);
      inputs[`${name}_valid`] = held[index] === undefined ? 0n : 1n;
      inputs[`${name}_data`] = held[index] ?? 0n;
    });
    consumers.forEach((name, index) => (inputs[`${name}_ready`] = testCase.ready[cycle]![index] ? 1n : 0n));
    const outputs = model.outputs(inputs);
    stimulus.push(inputs);
    expected.push(outputs);
    consumers.forEach((name, index) => {
      if (outputs[`${name}_valid`] === 1n && inputs[`${name}_ready`] === 1n)
        received[index]!.push(outputs[`${name}_data`]!);
    });
    producers.forEach((name, index) => {
      if (inputs[`${name}_valid`] === 1n && outputs[`${name}_ready`] === 1n) {
        held[index] = undefined;
        next[index]!++;
      }
    });
    model.step(inputs);
  });
  return { stimulus, expected, received };
}

const names = (prefix: string, count: number): string[] =>
  Array.from({ length: count }, (_, index) => `${prefix}_${index}`);

function streamSuite(
  name: string,
  design: () => IrDesign,
  model: () => StreamModel,
  producers: readonly string[],
  consumers: readonly string[],
  width: number,
): RegressSuite {
  return defineSuite<StreamCase>({
    name,
    groups: ['streams'],
    description: `${name}: every port every cycle = its golden model (hw/lib/stream/models.ts), protocol assertions on`,
    arbitrary: arbitraryStreamCase(producers.length, consumers.length, width),
    design,
    vectors: (testCase) => {
      const { stimulus, expected } = runStreamCase(model(), producers, consumers, testCase);
      return { stimulus, expected };
    },
  });
}

const WIDTH = 8;

/** The stream library's blocks and the FIFO chain example, at the depths that matter (1, odd, a power of two). */
export const streamSuites: readonly RegressSuite[] = [
  ...[1, 3, 4, 5].map((depth) =>
    streamSuite(
      `StreamFifo_depth${depth}`,
      once(() => elaborate(StreamFifo, { width: WIDTH, depth })),
      () => new FifoModel(depth),
      ['in'],
      ['out'],
      WIDTH,
    ),
  ),
  streamSuite(
    'SkidBuffer',
    once(() => elaborate(SkidBuffer, { width: WIDTH })),
    () => new SkidModel(),
    ['in'],
    ['out'],
    WIDTH,
  ),
  streamSuite(
    'RoundRobinArbiter',
    once(() => elaborate(RoundRobinArbiter, { width: WIDTH, inputs: 3 })),
    () => new ArbiterModel(3),
    names('in', 3),
    ['out'],
    WIDTH,
  ),
  streamSuite(
    'StreamFork',
    once(() => elaborate(StreamFork, { width: WIDTH, outputs: 3 })),
    () => new ForkModel(3),
    ['in'],
    names('out', 3),
    WIDTH,
  ),
  streamSuite(
    'StreamJoin',
    once(() => elaborate(StreamJoin, { width: WIDTH, inputs: 2 })),
    () => new JoinModel(2, WIDTH),
    names('in', 2),
    ['out'],
    WIDTH,
  ),
  streamSuite(
    'StreamFifoChain',
    once(() => elaborate(StreamFifoChain, { width: WIDTH, depth: 3 })),
    () => new ChainModel([new FifoModel(3), new SkidModel(), new FifoModel(1)]),
    ['in'],
    ['out'],
    WIDTH,
  ),
];
