import { generateModel } from './codegen.ts';
import { groupedOrder } from './instanceGroups.ts';
import {
  checkScanOf,
  coverCounts,
  cycleFailures,
  initialMemory,
  type CompiledDesign,
  type FrameTransfer,
  type FrameWords,
} from './simulator.ts';
import type { CheckFailure, CheckMode, CheckResults } from '../contract/checks.ts';

/** The lanes model's generated functions (codegen.ts, lanes mode). */
interface LaneModel {
  /** The first `count` lanes' state: lane l's words `words[l]`, its memory i `memories[i][l]`. */
  bind(words: readonly Int32Array[], memories: readonly (readonly Int32Array[])[], count: number): void;
  /** Stores the design's constants into lane `lane`'s words. */
  initialize(lane: number): void;
  settle(): void;
  edge(): void;
}

const laneModels = new WeakMap<CompiledDesign, LaneModel>();

/**
 * A design's lanes model, generated once (the same storage plan as its one-stream model, so a
 * lane's words are laid out as a Simulator's and the frame transfers and check scans serve both).
 */
function laneModelOf(design: CompiledDesign): LaneModel {
  let model = laneModels.get(design);
  if (model) return model;
  const { order, groups } = groupedOrder(design.flat);
  const { layout, source } = generateModel(design.flat, order, groups, true);
  if (layout.wordCount !== design.layout.wordCount) throw new Error('internal: the lanes model has another layout');
  model = new Function('parity32', source)(parity32) as LaneModel;
  laneModels.set(design, model);
  return model;
}

function parity32(value: number): number {
  value ^= value >>> 16;
  value ^= value >>> 8;
  value ^= value >>> 4;
  value ^= value >>> 2;
  value ^= value >>> 1;
  return value & 1;
}

/** Whether a design can run in lanes: every lane must raise the same clocks in every step, and nothing prints. */
export const laneable = (design: CompiledDesign): boolean =>
  // Printed lines are per stream, and lanes keep no per-lane log: such designs run stream by stream.
  design.flat.clocks.length <= 1 &&
  (design.flat.prints?.length ?? 0) === 0 &&
  // Lanes start every register at 0: start values (random initial state) run stream by stream.
  design.flat.registers.every((register) => register.initial === undefined);

/** One stream for the lanes: its frames and cycle count. */
export interface LaneStream {
  readonly frames: FrameWords;
  readonly cycles: number;
}

/** What a stream's run gave: its check results, and in stop mode the failure that ended it. */
export interface LaneResult {
  readonly checks: CheckResults;
  readonly stopped?: CheckFailure;
}

/**
 * Runs independent streams of one single-clock design in `lanes` lanes of one model: every cycle
 * the inputs of each lane are copied in, all lanes settle in one pass, outputs and checks are read
 * per lane, and all lanes take the edge in one pass. A lane whose stream ends takes the next one
 * (state cleared to a fresh start); when none is left the last lane moves into its place, so the
 * passes cover only live lanes. Each stream gives exactly what a Simulator of its own would
 * (outputs in its frames, check failures and cover counts): lanes share code, never state.
 * In stop mode a failing assertion ends its own stream only; the caller decides what to throw.
 */
export function runLanes(
  design: CompiledDesign,
  transfer: FrameTransfer,
  streams: readonly LaneStream[],
  options: { readonly lanes: number; readonly checkMode: CheckMode },
): LaneResult[] {
  if (!laneable(design)) throw new Error('internal: lanes of a design that laneable() refuses');
  if (transfer.design !== design) throw new Error('internal: a frame transfer of another design');
  const model = laneModelOf(design);
  const width = design.layout.wordCount;
  const laneCount = Math.max(1, Math.min(options.lanes, streams.length));
  const words = new Int32Array(width * laneCount);
  const images = design.flat.memories.map(initialMemory);
  const memories = images.map((image) => new Int32Array(image.length * laneCount));
  const checkCount = design.flat.checks?.length ?? 0;
  const scan = checkCount > 0 ? checkScanOf(design) : undefined;
  const stop = options.checkMode === 'stop';
  const mask = (1 << design.flat.clocks.length) - 1;
  const { load, store, inputStride, outputStride } = transfer;

  // Per lane: its view of the state and memories, its stream (-1: none), the stream's cycle, its check hits.
  const views = Array.from({ length: laneCount }, (_, lane) => words.subarray(lane * width, (lane + 1) * width));
  const memoryViews = memories.map((memory, index) => {
    const size = images[index]!.length;
    return Array.from({ length: laneCount }, (_, lane) => memory.subarray(lane * size, (lane + 1) * size));
  });
  const streamOf = new Int32Array(laneCount).fill(-1);
  const cycleOf = new Int32Array(laneCount);
  const hits = Array.from({ length: laneCount }, () => new Uint32Array(checkCount));
  const failures: CheckFailure[][] = Array.from({ length: laneCount }, () => []);
  const results = new Array<LaneResult>(streams.length);
  let next = 0;
  let live = laneCount;

  const start = (lane: number): void => {
    words.fill(0, lane * width, (lane + 1) * width);
    model.initialize(lane);
    images.forEach((image, index) => memories[index]!.set(image, lane * image.length));
    hits[lane]!.fill(0);
    failures[lane] = [];
    cycleOf[lane] = 0;
    streamOf[lane] = next++;
  };
  const finish = (lane: number, stopped?: CheckFailure): void => {
    results[streamOf[lane]!] = {
      checks: { failures: failures[lane]!, covers: coverCounts(design, hits[lane]!) },
      ...(stopped ? { stopped } : {}),
    };
    streamOf[lane] = -1;
  };
  /** Moves the last live lane into `lane` (a finished one), so the passes stay over live lanes. */
  const retire = (lane: number): void => {
    const last = --live;
    if (lane !== last) {
      words.copyWithin(lane * width, last * width, (last + 1) * width);
      images.forEach((image, index) =>
        memories[index]!.copyWithin(lane * image.length, last * image.length, (last + 1) * image.length),
      );
      streamOf[lane] = streamOf[last]!;
      cycleOf[lane] = cycleOf[last]!;
      [hits[lane], hits[last]] = [hits[last]!, hits[lane]!];
      [failures[lane], failures[last]] = [failures[last]!, failures[lane]!];
    }
    model.bind(views, memoryViews, live);
  };
  /** Lane `lane`'s stream is over: it takes the next stream, or retires. Returns whether it is live. */
  const advance = (lane: number, stopped?: CheckFailure): boolean => {
    finish(lane, stopped);
    while (next < streams.length) {
      start(lane);
      if (streams[streamOf[lane]!]!.cycles > 0) return true;
      finish(lane);
    }
    retire(lane);
    return false;
  };

  model.bind(views, memoryViews, live);
  for (let lane = live - 1; lane >= 0; lane--) {
    streamOf[lane] = -1;
    if (next >= streams.length) retire(lane);
    else {
      start(lane);
      if (streams[streamOf[lane]!]!.cycles === 0) advance(lane);
    }
  }
  while (live > 0) {
    for (let lane = 0; lane < live; lane++)
      load(views[lane]!, streams[streamOf[lane]!]!.frames.inputs, cycleOf[lane]! * inputStride);
    model.settle();
    for (let lane = 0; lane < live; lane++) {
      const view = views[lane]!;
      const cycle = cycleOf[lane]!;
      store(view, streams[streamOf[lane]!]!.frames.outputs, cycle * outputStride);
      if (!scan) continue;
      const failing = scan(view, hits[lane]!, mask);
      if (failing < 0) continue;
      const found = cycleFailures(design, view, hits[lane]!, failing, mask, cycle, stop);
      failures[lane]!.push(...found);
      // A stopped stream takes no edge: the next stream starts in its lane after this pass.
      if (stop) cycleOf[lane] = -1;
    }
    model.edge();
    for (let lane = live - 1; lane >= 0; lane--) {
      if (cycleOf[lane] === -1) {
        advance(lane, failures[lane]![0]);
        continue;
      }
      const cycle = ++cycleOf[lane]!;
      if (cycle >= streams[streamOf[lane]!]!.cycles) advance(lane);
    }
  }
  return results;
}
