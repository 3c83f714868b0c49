import type { IrDesign } from '../hw/ir/ir.ts';
import type { CheckMode } from '../hw/contract/checks.ts';
import type { ClockTimings } from '../hw/contract/clockSchedule.ts';
import type { InitialState } from '../hw/ir/randomInit.ts';
import type {
  BatchOptions,
  BatchResult,
  BatchSink,
  CompareOptions,
  CycleRun,
  Engine,
  EngineName,
  EngineSession,
  ExpectedStream,
  OutputVerdict,
  RunOptions,
  SessionOptions,
  Stimulus,
} from '../hw/contract/engine.ts';

/** The sink of a batch that keeps every stream's output frames. */
export const COLLECT = { kind: 'collect' } as const;

/**
 * The base of every engine: it implements `batch` and `open` (the contract, hw/contract/engine.ts),
 * and gets `run`, `runMany` and `compare` from here, written once as batches of one sink each, so
 * no engine has an entry point of its own to keep in step with the others.
 */
export abstract class BatchEngine implements Engine {
  abstract readonly name: EngineName;

  abstract batch<Sink extends BatchSink>(
    design: IrDesign,
    streams: readonly Stimulus[],
    sink: Sink,
    options?: BatchOptions,
  ): Promise<BatchResult<Sink>>;

  abstract open(design: IrDesign, options?: SessionOptions): Promise<EngineSession>;

  async run(design: IrDesign, inputs: Stimulus, options: RunOptions = {}): Promise<CycleRun> {
    const [run] = await this.batch(design, [inputs], COLLECT, options);
    return run!;
  }

  runMany(
    design: IrDesign,
    streams: readonly Stimulus[],
    options: { readonly checks?: CheckMode; readonly clocks?: ClockTimings; readonly init?: InitialState } = {},
  ): Promise<CycleRun[]> {
    // Only the batch options: a caller's object with more in it (a trace) traces nothing here.
    return this.batch(design, streams, COLLECT, { checks: options.checks, clocks: options.clocks, init: options.init });
  }

  compare(
    design: IrDesign,
    streams: readonly ExpectedStream[],
    options: CompareOptions = {},
  ): Promise<OutputVerdict[]> {
    const sink = {
      kind: 'compare',
      expected: streams.map((stream) => stream.expected),
      mismatches: options.mismatches,
    } as const;
    return this.batch(
      design,
      streams.map((stream) => stream.inputs),
      sink,
      { checks: options.checks, clocks: options.clocks, init: options.init },
    );
  }
}
