import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { connect, defineModule, flip, type ModuleDefinition } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { createEngine } from '../../../engines/index.ts';
import { checkWithYosys, lintWithVerilator } from '../../../tools/lint.ts';
import {
  ArbiterModel,
  FifoModel,
  ForkModel,
  RoundRobinArbiter,
  SkidBuffer,
  Stream,
  StreamFifo,
  StreamFork,
  StreamJoin,
  assertStreamProtocol,
} from '../../../hw/lib/stream/index.ts';
import { StreamFifoChain } from '../../../hw/examples/streamFifoChain.ts';
import { arbitraryStreamCase, runStreamCase, streamSuites } from '../../../verif/suites/streams.ts';
import { fastCheckSeed } from '../../support/seed.ts';

const seed = fastCheckSeed('stream library');

describe('stream golden models keep the transaction rules', () => {
  it('a FIFO of any depth delivers every word, in order, and holds at most depth words', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), arbitraryStreamCase(1, 1, 8), (depth, testCase) => {
        const model = new FifoModel(depth);
        const { received, expected } = runStreamCase(model, ['in'], ['out'], testCase);
        const sent = testCase.words[0]!.map(BigInt);
        expect(received[0]).toEqual(sent.slice(0, received[0]!.length));
        for (const cycle of expected)
          if (cycle.count !== undefined) expect(Number(cycle.count)).toBeLessThanOrEqual(depth);
      }),
      { seed, numRuns: 300 },
    );
  });

  it('a fork gives every word to every output; the arbiter passes the words of each input in order, each once', () => {
    fc.assert(
      fc.property(arbitraryStreamCase(1, 3, 8), arbitraryStreamCase(3, 1, 8), (forkCase, arbiterCase) => {
        const fork = runStreamCase(new ForkModel(3), ['in'], ['out_0', 'out_1', 'out_2'], forkCase);
        const shortest = Math.min(...fork.received.map((words) => words.length));
        for (const words of fork.received)
          expect(words.slice(0, shortest)).toEqual(fork.received[0]!.slice(0, shortest));
        const arbiter = runStreamCase(new ArbiterModel(3), ['in_0', 'in_1', 'in_2'], ['out'], arbiterCase);
        // Each word out is the next unsent word of the input granted: per-input order, nothing lost or doubled.
        const sent = [0, 0, 0];
        arbiter.expected.forEach((ports, cycle) => {
          if (ports.out_valid !== 1n || arbiter.stimulus[cycle]!.out_ready !== 1n) return;
          const input = Number(ports.grant);
          expect(ports.out_data).toBe(BigInt(arbiterCase.words[input]![sent[input]!]!));
          sent[input]!++;
        });
        expect(sent.reduce((a, b) => a + b)).toBe(arbiter.received[0]!.length);
      }),
      { seed, numRuns: 200 },
    );
  });

  it('the round-robin arbiter serves waiting inputs in turn', () => {
    // All three inputs always offering, output always ready: grants cycle 0, 1, 2, 0, …
    const testCase = {
      words: [
        [1, 2, 3],
        [4, 5, 6],
        [7, 8, 9],
      ],
      offer: Array.from({ length: 9 }, () => [true, true, true]),
      ready: Array.from({ length: 9 }, () => [true]),
    };
    const run = runStreamCase(new ArbiterModel(3), ['in_0', 'in_1', 'in_2'], ['out'], testCase);
    expect(run.received[0]).toEqual([1n, 4n, 7n, 2n, 5n, 8n, 3n, 6n, 9n]);
  });
});

describe('stream blocks on the in-process engine = their golden models, assertions on', () => {
  it.each(streamSuites.map((suite) => [suite.name, suite] as const))('%s', async (_name, suite) => {
    const engine = await createEngine('ts');
    const cases = fc.sample(suite.arbitrary, { seed, numRuns: 60 });
    for (const testCase of cases) {
      const { stimulus, expected } = suite.vectors(testCase);
      const run = await engine.run(suite.design(testCase), stimulus);
      expected.forEach((ports, cycle) => {
        for (const [name, value] of Object.entries(ports))
          expect([cycle, name, run.outputs[cycle]![name]]).toEqual([cycle, name, value]);
      });
    }
  });

  it('a producer that drops valid before ready fails the protocol assertion at that cycle', async () => {
    // A stream passed straight through, with the checks on its output: the input is the culprit.
    const Passthrough = defineModule({
      name: 'Passthrough',
      defaults: {},
      ports: () => ({ in: flip(Stream(4)), out: Stream(4) }),
      build(m, io) {
        connect(io.out, io.in);
        assertStreamProtocol(m, io.out, 'out');
      },
    });
    const engine = await createEngine('ts');
    const idle = { in_valid: 0n, in_data: 0n, out_ready: 0n };
    const run = async (third: Record<string, bigint>) =>
      (
        await engine.run(
          elaborate(Passthrough),
          [
            { ...idle, reset: 1n },
            { ...idle, reset: 0n, in_valid: 1n, in_data: 3n },
            { ...idle, ...third },
          ],
          { checks: 'count' },
        )
      ).checks?.failures.map((failure) => [failure.cycle, failure.message]);
    expect(await run({ in_data: 3n })).toEqual([[2, 'out: valid held until ready']]);
    expect(await run({ in_valid: 1n, in_data: 4n })).toEqual([[2, 'out: data stable while stalled']]);
    expect(await run({ in_valid: 1n, in_data: 3n })).toEqual([]);
  });
});

describe('stream blocks as Verilog', () => {
  const blocks: [string, ModuleDefinition, Record<string, number>][] = [
    ['StreamFifo depth 1', StreamFifo, { depth: 1 }],
    ['StreamFifo depth 5', StreamFifo, { depth: 5 }],
    ['SkidBuffer', SkidBuffer, {}],
    ['RoundRobinArbiter', RoundRobinArbiter, { inputs: 3 }],
    ['StreamFork', StreamFork, { outputs: 3 }],
    ['StreamJoin', StreamJoin, { inputs: 3 }],
    ['StreamFifoChain', StreamFifoChain, {}],
  ];
  it.each([1, 3, 5, 6, 9])(
    'StreamFifo of depth %i stores that many words (at least 2), no power-of-two padding',
    (depth) => {
      const design = elaborate(StreamFifo, { depth });
      const verilog = [...emitVerilog(design).values()].join('\n');
      expect(verilog).toMatch(new RegExp(`words \\[0:${Math.max(2, depth) - 1}\\];`));
    },
  );

  it.each(blocks)('%s is verilator -Wall and yosys check clean', async (_name, definition, params) => {
    const design = elaborate(definition, params);
    const files = emitVerilog(design);
    expect(await lintWithVerilator(files, design.top)).toEqual([]);
    expect(await checkWithYosys(files, design.top, { system: true })).toEqual([]);
  });
});
