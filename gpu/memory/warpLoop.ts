import { FieldError, UserError } from '../../common/errors.ts';
import { MemoryPathSimulator, type MemoryPathResult } from './pathModel.ts';
import type { GpuMemoryProfile } from './profileTypes.ts';
import { MAX_PATTERN_REQUESTS } from './patterns.ts';
import { mulberry32 } from './seededRandom.ts';

/**
 * Closed-loop load patterns: the microbenchmarks of docs/reference/h200-silicon.md §1 as the model runs
 * them. Every SM holds `warpsPerSm` warps; each warp runs steps, and in a step issues `inFlight`
 * warp-wide loads (one per cycle), waits for all of them (the loads of one step are consumed
 * before the next step issues) and starts its next step. So the bytes in flight per SM are
 * warps × 32 threads × load size × in-flight, and Little's law — bandwidth = bytes in flight /
 * latency — falls out of the path model's latencies and queues instead of being assumed.
 * `chase` is one thread's dependent pointer walk (each address read from the previous load).
 */

export const LOOP_PATTERNS = ['stream', 'stride', 'random', 'chase'] as const;
export type LoopPattern = (typeof LOOP_PATTERNS)[number];

/**
 * How a stream's threads meet the footprint's lines pass after pass: `rotating`, one grid-stride
 * walk over the total at index mod footprint (a thread's lines move between passes unless the
 * footprint is a multiple of a step); `fixed`, every pass the same walk (a loop over passes around
 * the grid-stride loop). gpu/probes/l2Partitions.cu measures both on silicon.
 */
export const STREAM_MAPPINGS = ['rotating', 'fixed'] as const;
export type StreamMapping = (typeof STREAM_MAPPINGS)[number];

/** One closed-loop run. */
export interface LoopOptions {
  readonly pattern: LoopPattern;
  /** Footprint, bytes. */
  readonly bytes: number;
  /** Warps per SM (default 64 = 8 blocks of 256 threads, the benchmark's bandwidth setup). */
  readonly warpsPerSm?: number;
  /** Loads in flight per thread (default 4). */
  readonly inFlight?: number;
  /**
   * stream / stride / random: threads per block, a multiple of 32 up to 1,024 whose warps divide
   * `warpsPerSm` (default 256, the probes' and the harness's blocks, where 8 warps divide it; else as
   * few blocks an SM as fit). The grid's blocks are dealt to the SMs in turn (`gridWarpSms`).
   */
  readonly threadsPerBlock?: number;
  /** stream: bytes read in all, the footprint repeated (default: the footprint once). */
  readonly totalBytes?: number;
  /** stream: how passes map threads to lines (default `rotating`). */
  readonly mapping?: StreamMapping;
  /**
   * stream: how far apart a warp's loads of one step lie, bytes: a multiple of a warp's 512 that
   * divides the grid's warps × 512 (default: that, the probes' grid-stride loop). The grid still
   * reads every chunk once, as l2Partitions' whole-step loop does with a spacing given.
   */
  readonly loadSpacingBytes?: number;
  /** stride / random: loads per thread (default 64, the benchmark's). */
  readonly loadsPerThread?: number;
  /** stride: distance between neighbouring threads' loads (default 128). */
  readonly strideBytes?: number;
  /** chase: loads timed (default: one walk of the footprint, at most 20 000). */
  readonly loads?: number;
  /**
   * Warm the caches with one untimed pass over the footprint first: a stream's own loop (its SMs,
   * mapping and parallelism); the other patterns read each line from two SMs half the GPU apart.
   */
  readonly warm?: boolean;
  readonly seed?: number;
  /** L1 bytes left for data after a shared-memory carve-out (default: all of it). */
  readonly l1DataBytes?: number;
  /**
   * stream / stride / random: the SMs that run warps, each once (default: all of them). The others
   * stay idle, as the blocks that leave at once in gpu/probes/l2Partitions.cu's `streamsms`.
   */
  readonly sms?: readonly number[];
  /**
   * stream: one thread walks lines of its own, one load at a time, while the stream runs
   * (gpu/probes/hitsUnderLoad.cu): does a lone SM's load wait behind the stream's, or a streaming
   * SM's behind its own? Its round trips come back as LoopResult.walk.
   */
  readonly walk?: LoneWalk;
}

/** A one-thread dependent walk beside a stream (LoopOptions.walk). */
export interface LoneWalk {
  /** The walk's SM: one the stream leaves idle, or one of its own (the probe's `shared`). */
  readonly sm: number;
  /** Its lines, bytes, in a seeded random cyclic order, apart from the stream's footprint. */
  readonly bytes: number;
}

/** A lone walk's loads while every stream warp was on, SM cycles from issue to return. */
export interface WalkCycles {
  readonly loads: number;
  readonly mean: number;
  readonly p10: number;
  readonly p50: number;
  readonly p90: number;
}

/** What a closed-loop run measured (the timed part only). */
export interface LoopResult {
  readonly profile: string;
  readonly pattern: LoopPattern;
  readonly warpsPerSm: number;
  readonly inFlight: number;
  /** Threads per block (1 for a chase's one thread). */
  readonly threadsPerBlock: number;
  /** Bytes in flight per SM when every warp has its loads out. */
  readonly bytesInFlightPerSm: number;
  /** First issue to last completion of the timed loads, ns. */
  readonly timeNs: number;
  /** Bytes delivered to the SMs in whole 32-byte sectors. */
  readonly bytes: number;
  /** Thread-level loads timed. */
  readonly loads: number;
  readonly GBps: number;
  /** Warp-thread loads per second, 10^9. */
  readonly gLoadsPerSecond: number;
  /** chase: time per dependent load, ns. */
  readonly nsPerLoad?: number;
  /**
   * stream / stride / random: when the warps' last steps ended, over the timed part: the median
   * warp's time, and the fifth percentile's and the last warp's as fractions of it. Silicon's
   * warps spread far wider than the model's (gpu/probes/README.md, "Sixteenth batch").
   */
  readonly warpEnds?: WarpEnds;
  /**
   * stream / stride / random: how long the timed steps took, from a step's first load issued to
   * its last returned, as l2Partitions' `smsteps` times them on silicon.
   */
  readonly stepNs?: StepTimes;
  /** stream with `walk`: the lone walk's round trips in the timed part. */
  readonly walk?: WalkCycles;
  /** The path model's counters over the whole run (warm-up included). */
  readonly path: MemoryPathResult;
}

/** Percentiles of the steps' times in one run, ns (LoopResult.stepNs), each to within a nanosecond. */
export interface StepTimes {
  readonly p10: number;
  readonly p50: number;
  readonly p90: number;
}

/** The spread of the warps' end times in one run (LoopResult.warpEnds). */
export interface WarpEnds {
  readonly medianNs: number;
  readonly fifthPercentile: number;
  readonly last: number;
}

const THREADS = 32;
/** The probes' and the harness's blocks: 8 warps. */
const DEFAULT_THREADS_PER_BLOCK = 256;
const MAX_THREADS_PER_BLOCK = 1024;
/** Sub-cores (SMSPs) per SM, each with its own load/store unit; the SM's warp w (its place among them) runs on sub-core w mod 4. */
const SUB_CORES = 4;
const LINE = 128;
const SECTOR = 32;
const STREAM_LOAD_BYTES = 16;
const NARROW_LOAD_BYTES = 4;
const DEFAULT_CHASE_LOADS = 20_000;
/** Fisher–Yates walks are built up to this many lines (32 MB of indices); larger cold walks draw lines at random. */
const MAX_PERMUTED_LINES = 2 ** 23;
/** A lone walk's lines read before the stream starts, at most (hitsUnderLoad.cu's untimed steps). */
const WALK_WARM_LOADS = 32_768;

/**
 * Blocks of 256 threads where their 8 warps divide the SM's; else as few blocks an SM as fit in
 * 1,024 threads each (one block of W warps up to 32, as the harness's parallelism rows run).
 */
function defaultThreadsPerBlock(warpsPerSm: number): number {
  const perBlock = DEFAULT_THREADS_PER_BLOCK / THREADS;
  if (warpsPerSm % perBlock === 0) return DEFAULT_THREADS_PER_BLOCK;
  let blocks = 1;
  while (warpsPerSm % blocks !== 0 || warpsPerSm / blocks > MAX_THREADS_PER_BLOCK / THREADS) blocks++;
  return (warpsPerSm / blocks) * THREADS;
}

/** Runs one pattern on `profile`. */
export function runLoop(profile: GpuMemoryProfile, options: LoopOptions): LoopResult {
  const warpsPerSm = options.warpsPerSm ?? 64;
  const inFlight = options.inFlight ?? 4;
  for (const [name, value] of [
    ['--warps-per-sm', warpsPerSm],
    ['--in-flight', inFlight],
  ] as const) {
    if (!(Number.isSafeInteger(value) && value >= 1 && value <= 1024))
      throw new UserError(`${name} ${value}: give a whole number 1 … 1024`);
  }
  const threadsPerBlock = options.threadsPerBlock ?? defaultThreadsPerBlock(warpsPerSm);
  if (!(
    Number.isSafeInteger(threadsPerBlock) &&
    threadsPerBlock >= THREADS &&
    threadsPerBlock <= MAX_THREADS_PER_BLOCK &&
    threadsPerBlock % THREADS === 0 &&
    warpsPerSm % (threadsPerBlock / THREADS) === 0
  ))
    throw new UserError(
      `--threads-per-block ${threadsPerBlock}: give a multiple of 32 up to 1024 whose warps divide --warps-per-sm ${warpsPerSm}`,
    );
  if (options.walk && options.pattern !== 'stream')
    throw new FieldError('walk', `a lone walk runs beside a stream, not a ${options.pattern}`);
  if (!(Number.isSafeInteger(options.bytes) && options.bytes >= LINE))
    throw new FieldError('bytes', `${options.bytes}: give at least one 128-byte line`);
  // A run simulates every request one by one: bound the work before starting it, as the traced
  // patterns are bounded (a footprint's warm pass touches each line; a chase walks them).
  boundWork('--bytes', Math.floor(options.bytes / LINE), 'lines');
  const simulator = new MemoryPathSimulator(profile, {
    trackMissQueue: true,
    ...(options.l1DataBytes === undefined ? {} : { l1DataBytes: options.l1DataBytes }),
  });
  const cycleNs = simulator.cycleNs;
  let startNs = 0;
  if (options.warm && options.pattern === 'stream') {
    // One untimed pass of the same loop (the probe's first launch): the L2 keeps what its own
    // mapping leaves, which with split partitions depends on which SMs read which lines.
    const warm = runWarps(
      simulator,
      profile,
      { ...options, totalBytes: options.bytes },
      warpsPerSm,
      threadsPerBlock,
      inFlight,
      0,
    );
    startNs = warm.lastDoneNs + 1000;
  } else if (options.warm && options.pattern !== 'chase') {
    // One pass over the footprint's lines from every SM, untimed; the timed part starts once it has drained.
    const smCount = profile.sm.count;
    const lines = Math.floor(options.bytes / LINE);
    const order = Array.from({ length: smCount }, (_, sm) => sm);
    let done = 0;
    // From two SMs half the GPU apart, so that both L2 partitions hold their copies, as after the
    // benchmark's many passes.
    for (let line = 0; line < lines; line++) {
      const sm = order[line % order.length]!;
      const at = Math.floor(line / order.length) * cycleNs;
      done = Math.max(done, simulator.request(sm, line * LINE, LINE, at));
      done = Math.max(done, simulator.request((sm + (smCount >> 1)) % smCount, line * LINE, LINE, at));
    }
    startNs = done + 1000;
  }
  const before = simulator.result();
  const timed: {
    loads: number;
    startNs: number;
    lastDoneNs: number;
    warpEndNs?: Float64Array;
    stepHistogram?: Uint32Array;
    walk?: WalkCycles;
  } =
    options.pattern === 'chase'
      ? runChase(simulator, options, startNs)
      : runWarps(simulator, profile, options, warpsPerSm, threadsPerBlock, inFlight, startNs);
  const path = simulator.result();
  // A chase's warm walk runs inside runChase; its timed loads each bring one sector.
  const bytes = options.pattern === 'chase' ? timed.loads * SECTOR : path.bytes.l1ToSm - before.bytes.l1ToSm;
  const timeNs = timed.lastDoneNs - timed.startNs;
  const loadBytes = options.pattern === 'stream' ? STREAM_LOAD_BYTES : NARROW_LOAD_BYTES;
  return {
    profile: profile.name,
    pattern: options.pattern,
    warpsPerSm: options.pattern === 'chase' ? 1 : warpsPerSm,
    inFlight: options.pattern === 'chase' ? 1 : inFlight,
    threadsPerBlock: options.pattern === 'chase' ? 1 : threadsPerBlock,
    bytesInFlightPerSm: options.pattern === 'chase' ? loadBytes : warpsPerSm * THREADS * loadBytes * inFlight,
    timeNs,
    bytes,
    loads: timed.loads,
    GBps: bytes / timeNs,
    gLoadsPerSecond: timed.loads / timeNs,
    ...(timed.warpEndNs === undefined
      ? { nsPerLoad: timeNs / timed.loads }
      : { warpEnds: spreadOf(timed.warpEndNs), stepNs: stepPercentiles(timed.stepHistogram!) }),
    ...(timed.walk ? { walk: timed.walk } : {}),
    path,
  };
}

/** The median of the warps' end times and the fifth percentile's and the last's share of it. */
function spreadOf(warpEndNs: Float64Array): WarpEnds {
  const sorted = Float64Array.from(warpEndNs).sort();
  const at = (fraction: number) => sorted[Math.floor(fraction * (sorted.length - 1))]!;
  const medianNs = at(0.5);
  return { medianNs, fifthPercentile: at(0.05) / medianNs, last: at(1) / medianNs };
}

/** Steps are counted by whole nanoseconds up to this, the last bin also taking what lies above. */
const STEP_HISTOGRAM_NS = 2 ** 16;

/** The 10th, 50th and 90th percentiles of a step histogram (bin b: b … b + 1 ns), each a bin's middle. */
function stepPercentiles(histogram: Uint32Array): StepTimes {
  const all = histogram.reduce((sum, count) => sum + count, 0);
  const at = (fraction: number) => {
    let below = 0;
    let bin = 0;
    while (bin < histogram.length - 1 && below + histogram[bin]! < all * fraction) below += histogram[bin++]!;
    return bin + 0.5;
  };
  return { p10: at(0.1), p50: at(0.5), p90: at(0.9) };
}

/** The dependent walk: one thread on SM 0, a random cyclic order of the footprint's lines, 4-byte loads. */
function runChase(
  simulator: MemoryPathSimulator,
  options: LoopOptions,
  startNs: number,
): { loads: number; startNs: number; lastDoneNs: number } {
  const lines = Math.floor(options.bytes / LINE);
  const loads = options.loads ?? Math.min(lines, DEFAULT_CHASE_LOADS);
  if (!(Number.isSafeInteger(loads) && loads >= 1))
    throw new FieldError('requests', `${loads}: give a positive whole number`);
  boundWork('--requests', loads, 'loads');
  const random = mulberry32(options.seed ?? 1);
  let lineAt: (i: number) => number;
  if (lines <= MAX_PERMUTED_LINES) {
    const order = shuffledLines(lines, random);
    lineAt = (i) => order[i % lines]!;
    if (options.warm) {
      // The benchmark walks the cycle once before timing it: the caches end up in the walk's own LRU order.
      let t = startNs;
      for (let i = 0; i < lines; i++) t = simulator.request(0, lineAt(i) * LINE, NARROW_LOAD_BYTES, t);
      startNs = t;
    }
  } else {
    lineAt = () => Math.floor(random() * lines);
  }
  let t = startNs;
  for (let i = 0; i < loads; i++) t = simulator.request(0, lineAt(i) * LINE, NARROW_LOAD_BYTES, t);
  return { loads, startNs, lastDoneNs: t };
}

/** The lines 0 … lines − 1 in a seeded random order (Fisher–Yates): a walk's cycle. */
function shuffledLines(lines: number, random: () => number): Uint32Array {
  const order = Uint32Array.from({ length: lines }, (_, i) => i);
  for (let i = lines - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  return order;
}

/** A min-heap of (time, warp) for the warp scheduler. */
class WarpQueue {
  private readonly time: Float64Array;
  private readonly warp: Int32Array;
  size = 0;
  constructor(capacity: number) {
    this.time = new Float64Array(capacity);
    this.warp = new Int32Array(capacity);
  }
  push(time: number, warp: number): void {
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.time[parent]! <= time) break;
      this.time[i] = this.time[parent]!;
      this.warp[i] = this.warp[parent]!;
      i = parent;
    }
    this.time[i] = time;
    this.warp[i] = warp;
  }
  /** Removes the earliest entry; returns its warp (its time is in `lastTime`). */
  pop(): number {
    const warp = this.warp[0]!;
    this.lastTime = this.time[0]!;
    const n = --this.size;
    const t = this.time[n]!;
    const w = this.warp[n]!;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.time[r]! < this.time[l]! ? r : l;
      if (this.time[c]! >= t) break;
      this.time[i] = this.time[c]!;
      this.warp[i] = this.warp[c]!;
      i = c;
    }
    this.time[i] = t;
    this.warp[i] = w;
    return warp;
  }
  lastTime = 0;
}

/**
 * Where a grid's warps run: blocks of `warpsPerBlock` warps, `warpsPerSm / warpsPerBlock` an SM,
 * dealt to `sms` in turn, block b on sms[b mod n], as the block scheduler deals a grid that fits at
 * once: on the H200 the probe's grid (8 blocks of 256 threads an SM) lands its first 132 blocks on
 * 116 SMs and its first 264 on all 132 (`blockmap`, gpu/probes/results/2026-12-02), and on an H100
 * every round of 132 blocks on 124–132 SMs (the thirty-eighth batch's warps); dealt SM by SM they
 * would reach 17 and 33. Returns each warp's SM and its place among the SM's warps (which picks its
 * sub-core).
 */
export function gridWarpSms(
  sms: readonly number[],
  warpsPerSm: number,
  warpsPerBlock: number,
): { sm: Int32Array; slot: Int32Array } {
  const warps = sms.length * warpsPerSm;
  const sm = new Int32Array(warps);
  const slot = new Int32Array(warps);
  for (let g = 0; g < warps; g++) {
    const block = Math.floor(g / warpsPerBlock);
    sm[g] = sms[block % sms.length]!;
    slot[g] = Math.floor(block / sms.length) * warpsPerBlock + (g % warpsPerBlock);
  }
  return { sm, slot };
}

/** Warp-level closed loop of the stream, stride and random patterns. */
function runWarps(
  simulator: MemoryPathSimulator,
  profile: GpuMemoryProfile,
  options: LoopOptions,
  warpsPerSm: number,
  threadsPerBlock: number,
  inFlight: number,
  startNs: number,
): {
  loads: number;
  startNs: number;
  lastDoneNs: number;
  warpEndNs: Float64Array;
  stepHistogram: Uint32Array;
  walk?: WalkCycles;
} {
  const smCount = profile.sm.count;
  const sms = options.sms ?? Array.from({ length: smCount }, (_, sm) => sm);
  if (
    sms.length === 0 ||
    new Set(sms).size !== sms.length ||
    sms.some((sm) => !(Number.isSafeInteger(sm) && sm >= 0 && sm < smCount))
  )
    throw new FieldError('sms', `${sms.join(',') || 'none'}: give distinct SM numbers below ${smCount}`);
  const warps = sms.length * warpsPerSm;
  const placed = gridWarpSms(sms, warpsPerSm, threadsPerBlock / THREADS);
  const footprint = Math.floor(options.bytes / LINE) * LINE;
  const pattern = options.pattern;
  const warpBytes = THREADS * STREAM_LOAD_BYTES;
  const spacingBytes = options.loadSpacingBytes ?? warps * warpBytes;
  if (!(spacingBytes % warpBytes === 0 && spacingBytes > 0 && (warps * warpBytes) % spacingBytes === 0))
    throw new FieldError(
      'loadSpacingBytes',
      `${spacingBytes}: give a multiple of ${warpBytes} that divides the grid's ${warps * warpBytes}`,
    );
  /** The spacing in a warp's loads, 512-byte chunks. */
  const spacing = spacingBytes / warpBytes;
  let steps: number;
  const fixed = pattern === 'stream' && options.mapping === 'fixed';
  // fixed: whole passes, each ceil(footprint / step) steps, loads past the footprint not issued.
  const stepsPerPass = Math.max(1, Math.ceil(footprint / (warps * inFlight * warpBytes)));
  if (pattern === 'stream') {
    const total = options.totalBytes ?? footprint;
    steps = fixed
      ? Math.max(1, Math.ceil(total / footprint)) * stepsPerPass
      : Math.max(1, Math.ceil(total / (warps * inFlight * warpBytes)));
  } else {
    const perThread = options.loadsPerThread ?? 64;
    if (!(Number.isSafeInteger(perThread) && perThread >= 1))
      throw new FieldError('loadsPerThread', `${perThread}: give a positive whole number`);
    steps = Math.max(1, Math.ceil(perThread / inFlight));
  }
  boundWork(
    pattern === 'stream' ? '--bytes/--total-bytes' : '--loads-per-thread',
    steps * warps * inFlight,
    'warp loads',
  );
  const stride = options.strideBytes ?? LINE;
  const random = mulberry32(options.seed ?? 1);
  const sectors = Math.max(1, Math.floor(footprint / SECTOR));
  const cycleNs = simulator.cycleNs;
  // The turn-around after a step depends on where its loads were served: DRAM, or the L2 alone.
  const dramTurnaroundNs = (profile.sm.loadStepCycles ?? 0) * cycleNs;
  const l2TurnaroundNs = (profile.sm.l2HitStepCycles ?? profile.sm.loadStepCycles ?? 0) * cycleNs;
  const loadBytes = pattern === 'stream' ? STREAM_LOAD_BYTES : NARROW_LOAD_BYTES;
  const lsuRate = profile.sm.lsuBytesPerCyclePerSubCore;
  const lsuNs = lsuRate ? ((THREADS * loadBytes) / lsuRate) * cycleNs : cycleNs;
  const lsuFree = new Float64Array(smCount * SUB_CORES);
  const walk = pattern === 'stream' && options.walk ? loneWalk(options.walk, smCount, footprint) : undefined;
  if (walk) {
    // The walk's lines into the L2 first, alone, as the probe's untimed first launch brings them.
    for (; walk.loads < Math.min(walk.lines, WALK_WARM_LOADS); walk.loads++)
      startNs = simulator.request(walk.sm, walk.addressOf(walk.loads), NARROW_LOAD_BYTES, startNs, true);
  }
  // The walk is the queue's last entry, after the stream's warps.
  const queue = new WarpQueue(warps + 1);
  let activeWarps = warps;
  const sectorsPerWarpLoad = pattern === 'stream' ? warpBytes / SECTOR : THREADS;
  const stepOf = new Int32Array(warps);
  /** Next load of the current step (inFlight = all issued, waiting), and the step's latest return. */
  const loadOf = new Int32Array(warps);
  const stepDone = new Float64Array(warps);
  const stepReadDram = new Uint8Array(warps);
  const warpEndNs = new Float64Array(warps);
  const stepStart = new Float64Array(warps);
  const stepHistogram = new Uint32Array(STEP_HISTOGRAM_NS);
  // Warps do not start in lockstep (launch and scheduling skew): each starts at a seeded random
  // point within one idle DRAM latency, so steps do not stay aligned into GPU-wide bursts.
  const skewNs = profile.dram.latencyCycles * cycleNs;
  const skew = mulberry32((options.seed ?? 1) ^ 0x9e3779b9);
  for (let g = 0; g < warps; g++) queue.push(startNs + skew() * skewNs, g);
  if (walk) queue.push(startNs, warps);
  let loads = 0;
  let lastDone = startNs;
  // Every load is its own event, so the path model sees requests in time order (its queues cannot
  // backfill a request that arrives earlier than one already booked).
  while (queue.size > 0) {
    const g = queue.pop();
    const now = queue.lastTime;
    if (g === warps) {
      // The lone walk: its next load once the last returned, while any stream warp is still on; on
      // a streaming SM it waits for a miss-queue slot as their loads do (its clock already runs).
      const issue = Math.max(now, simulator.missQueueFreeAt(walk!.sm, now, 1));
      const done = simulator.request(walk!.sm, walk!.addressOf(walk!.loads++), NARROW_LOAD_BYTES, issue, true);
      // Timed while every stream warp is on: from one skew after the start until the first ends.
      if (now >= startNs + skewNs && activeWarps === warps) walk!.cycles.push((done - now) / cycleNs);
      if (activeWarps > 0) queue.push(done, g);
      continue;
    }
    const sm = placed.sm[g]!;
    const step = stepOf[g]!;
    const j = loadOf[g]!;
    if (j === inFlight) {
      // The step's loads are all back (the event was set at its last return): consume, next step.
      lastDone = Math.max(lastDone, stepDone[g]!);
      warpEndNs[g] = stepDone[g]! - startNs;
      stepHistogram[Math.min(Math.floor(stepDone[g]! - stepStart[g]!), STEP_HISTOGRAM_NS - 1)]!++;
      stepOf[g] = step + 1;
      loadOf[g] = 0;
      if (step + 1 < steps) queue.push(stepDone[g]! + (stepReadDram[g] ? dramTurnaroundNs : l2TurnaroundNs), g);
      else activeWarps--;
      stepReadDram[g] = 0;
      continue;
    }
    const lsu = sm * SUB_CORES + (placed.slot[g]! % SUB_CORES);
    if (lsuFree[lsu]! > now) {
      queue.push(lsuFree[lsu]!, g);
      continue;
    }
    // The load needs free miss-queue slots (MSHRs); otherwise the warp waits for the oldest miss.
    const free = simulator.missQueueFreeAt(sm, now, sectorsPerWarpLoad);
    if (free > now) {
      simulator.recordMissQueueWait(sm, free - now);
      queue.push(free, g);
      continue;
    }
    lsuFree[lsu] = now + lsuNs;
    if (j === 0) stepStart[g] = now;
    let done = j === 0 ? now : stepDone[g]!;
    const dramReadsBefore = simulator.dramReads;
    // Grid-stride order: in each run of inFlight × warps chunks, the grid's warp g reads column
    // g mod spacing of group g / spacing, its loads `spacing` chunks apart (with the default
    // spacing, chunk g of each row of the grid).
    const chunk =
      (fixed ? step % stepsPerPass : step) * inFlight * warps +
      Math.floor(g / spacing) * inFlight * spacing +
      (g % spacing) +
      j * spacing;
    // A fixed pass's loads past its end are not issued (the kernel's bounds check).
    const issued = !(fixed && chunk * warpBytes >= footprint);
    if (pattern === 'stream') {
      const base = (chunk * warpBytes) % footprint;
      if (issued)
        for (let offset = 0; offset < warpBytes; offset += LINE) {
          // ld.global.cg, as the harness's stream: L2 only.
          done = Math.max(done, simulator.request(sm, (base + offset) % footprint, LINE, now, true));
        }
    } else if (pattern === 'stride') {
      for (let lane = 0; lane < THREADS; lane++) {
        const address = (((chunk * THREADS + lane) * stride) % footprint) & ~(NARROW_LOAD_BYTES - 1);
        done = Math.max(done, simulator.request(sm, address, NARROW_LOAD_BYTES, now));
      }
    } else {
      for (let lane = 0; lane < THREADS; lane++) {
        const address = Math.floor(random() * sectors) * SECTOR;
        done = Math.max(done, simulator.request(sm, address, NARROW_LOAD_BYTES, now));
      }
    }
    if (issued) loads += THREADS;
    if (simulator.dramReads > dramReadsBefore) stepReadDram[g] = 1;
    stepDone[g] = done;
    loadOf[g] = j + 1;
    queue.push(j + 1 === inFlight ? done : Math.max(now + cycleNs, lsuFree[lsu]!), g);
  }
  return {
    loads,
    startNs,
    lastDoneNs: lastDone,
    warpEndNs,
    stepHistogram,
    ...(walk ? { walk: walkCyclesOf(walk.cycles) } : {}),
  };
}

/** A walk's state in runWarps: its SM and lines, where its load i goes, how many it made, the timed ones' cycles. */
interface WalkState {
  readonly sm: number;
  readonly lines: number;
  readonly addressOf: (load: number) => number;
  loads: number;
  readonly cycles: number[];
}

/**
 * Checks a walk's SM and size and lays its lines out past the stream's footprint
 * (from the next 2 MiB page on, as the probe's own allocation), in a seeded random cycle.
 */
function loneWalk(walk: LoneWalk, smCount: number, footprint: number): WalkState {
  if (!(Number.isSafeInteger(walk.sm) && walk.sm >= 0 && walk.sm < smCount))
    throw new FieldError('walk.sm', `${walk.sm}: give an SM below ${smCount}`);
  const lines = Math.floor(walk.bytes / LINE);
  if (!(Number.isSafeInteger(lines) && lines >= 2 && lines <= MAX_PERMUTED_LINES))
    throw new FieldError('walk.bytes', `${walk.bytes}: give 2 … ${MAX_PERMUTED_LINES} lines of ${LINE} bytes`);
  const page = 2 * 2 ** 20;
  const base = (Math.floor(footprint / page) + 1) * page;
  const order = shuffledLines(lines, mulberry32(0x5eed));
  return { sm: walk.sm, lines, addressOf: (load) => base + order[load % lines]! * LINE, loads: 0, cycles: [] };
}

/** The mean and percentiles of a lone walk's timed round trips (zeros when it timed none). */
function walkCyclesOf(cycles: number[]): WalkCycles {
  if (cycles.length === 0) return { loads: 0, mean: 0, p10: 0, p50: 0, p90: 0 };
  const sorted = Float64Array.from(cycles).sort();
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return { loads: sorted.length, mean, p10: at(0.1), p50: at(0.5), p90: at(0.9) };
}

/** Refuses, in one line naming the option, a run that would simulate more than MAX_PATTERN_REQUESTS units of work. */
function boundWork(option: string, count: number, what: string): void {
  if (count > MAX_PATTERN_REQUESTS)
    throw new UserError(
      `${option}: the run needs ${count} ${what}, more than the ${MAX_PATTERN_REQUESTS} a run may simulate`,
    );
}
