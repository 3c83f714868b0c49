/** The one batch primitive (Engine.batch) and its sinks, and run/runMany/compare as helpers over it (engines/batchEngine.ts). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { availableEngines, createEngine } from '../../engines/index.ts';
import { inputFrames } from '../../engines/designFrames.ts';
import { outputDigest } from '../../engines/outputCompare.ts';
import { BatchEngine, COLLECT } from '../../engines/batchEngine.ts';
import type { BatchOptions, BatchResult, BatchSink, Engine, Stimulus } from '../../hw/contract/engine.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';
import { fastCheckSeed } from '../support/seed.ts';
import { FrameWidths } from '../support/frameWidths.ts';

const seed = fastCheckSeed('batchSinks');
const design = elaborate(FrameWidths);

const streamArbitrary = fc.array(
  fc.array(
    fc.record(
      { narrow: fc.bigInt({ min: 0n, max: 7n }), wide: fc.bigInt({ min: 0n, max: (1n << 70n) - 1n }) },
      { requiredKeys: [] },
    ),
    { minLength: 1, maxLength: 12 },
  ),
  { minLength: 1, maxLength: 4 },
);

const engines = (['ts', 'verilator', 'icarus'] as const).filter((name) => availableEngines().available.includes(name));

describe.each(engines)('%s batch', (name) => {
  it('collects what runMany returns, digests what outputDigest says of it, compares as compare does', async () => {
    const engine = await createEngine(name);
    await fc.assert(
      fc.asyncProperty(streamArbitrary, async (rows) => {
        const streams = rows.map((each) => inputFrames(design, each));
        const collected = await engine.batch(design, streams, COLLECT);
        expect(collected.map((run) => run.outputs)).toEqual(
          (await engine.runMany(design, streams)).map((run) => run.outputs),
        );
        const digests = await engine.batch(design, streams, { kind: 'digest' });
        expect(digests).toEqual(collected.map((run) => outputDigest(run.frames)));
        const expected = collected.map((run) => ({ frames: run.frames }));
        const verdicts = await engine.batch(design, streams, { kind: 'compare', expected, mismatches: 2 });
        expect(verdicts).toEqual(
          await engine.compare(
            design,
            streams.map((inputs, index) => ({ inputs, expected: expected[index]! })),
            { mismatches: 2 },
          ),
        );
        expect(verdicts.map((verdict) => [verdict.equal, verdict.digest])).toEqual(digests.map((hex) => [true, hex]));
      }),
      { seed, numRuns: name === 'ts' ? 30 : 2 },
    );
  });

  it('refuses a compare sink with another number of expectations than streams', async () => {
    const engine = await createEngine(name);
    const streams = [inputFrames(design, [{ narrow: 1n }])];
    await expect(engine.batch(design, streams, { kind: 'compare', expected: [] })).rejects.toThrow(
      'compare: 0 expectations for 1 streams',
    );
  });
});

/** An engine that only counts its batches: run, runMany and compare reach it as batches of one sink each. */
class CountingEngine extends BatchEngine {
  readonly name = 'ts' as const;
  readonly sinks: string[] = [];

  constructor(private readonly inner: Engine) {
    super();
  }

  batch<Sink extends BatchSink>(
    design: IrDesign,
    streams: readonly Stimulus[],
    sink: Sink,
    options?: BatchOptions,
  ): Promise<BatchResult<Sink>> {
    this.sinks.push(`${sink.kind} ${streams.length}`);
    return this.inner.batch(design, streams, sink, options);
  }

  open: Engine['open'] = (...args) => this.inner.open(...args);
}

describe('BatchEngine', () => {
  it('runs run, runMany and compare as batches', async () => {
    const engine = new CountingEngine(await createEngine('ts'));
    const inputs = inputFrames(design, [{ narrow: 3n }, { wide: 5n }]);
    const run = await engine.run(design, inputs);
    await engine.runMany(design, [inputs, inputs]);
    const [verdict] = await engine.compare(design, [{ inputs, expected: { digest: outputDigest(run.frames) } }]);
    expect(verdict!.equal).toBe(true);
    expect(engine.sinks).toEqual(['collect 1', 'collect 2', 'compare 1']);
  });
});
