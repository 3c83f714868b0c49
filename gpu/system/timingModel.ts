import { MemoryPathSimulator, type MemoryPathResult } from '../memory/pathModel.ts';
import { memoryProfile } from '../memory/profiles.ts';
import { SECTOR_BYTES } from '../memory/coalescer.ts';
import { cyclicKeptShare } from '../memory/cyclicReuse.ts';
import { sortedByTime, TraceBuilder } from '../memory/requestTrace.ts';
import { computeProfile } from './computeProfiles.ts';
import { scheduleBlocks } from './blockSchedule.ts';
import { FieldError } from '../../common/errors.ts';
import { ALGORITHM1_STEP_CYCLES, iterationCosts, residentBlocks, type IterationCosts } from './kernelCosts.ts';
import { kernelLoads, LoadRecorder, type LoadAccounting } from './kernelTraces.ts';
import {
  autoSplitK,
  blockWork,
  checkShape,
  gridPlan,
  WARPS_PER_BLOCK,
  type GridPlan,
  type SpmmKernel,
  type SpmmShape,
} from './kernels.ts';
import { kernelLayoutBytes, tiledCslLayoutBytes, type SparseWeightLayout } from './sparseLayout.ts';
import type { MmaCycles } from './tensorCoreCycles.ts';

/**
 * The timing model of one SpMM kernel on one GPU (docs/spec.md §7), following the Fig. 4 pipeline: each
 * thread-block iteration is a memory stage (global loads of the next tile; zero-init and
 * decompression into shared memory) overlapped with the compute stage of the previous tile.
 *
 * Per block-iteration the SM needs max(issue, shared memory, tensor core, chain / resident) cycles,
 * where issue = each warp's instructions on its own scheduler, shared memory = wavefronts, tensor
 * = MMAs × the RTL's cycles per MMA, and chain = the block's own critical path (load latency or
 * MMA, then decompression, then barriers) that only other resident blocks can hide. The global
 * loads of every block-iteration are issued at that pace, SM by SM, into the memory path model,
 * which adds bandwidth, queueing and latency. The kernel time is the later of the two —
 * memory makespan + the last tile's decompression and MMA, or load latency + the busiest SM's
 * compute — plus the split-K reduction. The larger term names the bounding resource.
 */

/** What limits a kernel. */
export type BoundingResource =
  | 'DRAM'
  | 'L2'
  | 'L1'
  | 'memory latency'
  | 'issue'
  | 'shared memory'
  | 'tensor core'
  | 'L1 line rate'
  | 'L2 lookups'
  | 'load latency (MLP)'
  | 'decompression chain';

const MEMORY_BOUND_NAMES: Readonly<Record<MemoryPathResult['boundingResource'], BoundingResource>> = {
  dramChannel: 'DRAM',
  dramBank: 'DRAM',
  gpcPort: 'L2',
  l2Slice: 'L2',
  l2Link: 'L2',
  missQueue: 'memory latency',
  l1: 'L1',
  latency: 'memory latency',
};

/** Inputs of one model run. */
export interface KernelModelInput {
  readonly profile: string;
  readonly kernel: SpmmKernel;
  readonly shape: SpmmShape;
  /** The pruned A's layout (any, for dense: only its shape is used). */
  readonly layout: SparseWeightLayout;
  readonly mma: MmaCycles;
  /** Split-K (default: autoSplitK). */
  readonly splitK?: number;
  /**
   * Simulate the requests of about 1 in `sample` DRAM channels in the memory model (default 1 =
   * all; channelSample.ts), or all of them when the simulated channels do not finish together.
   */
  readonly sample?: number;
  /**
   * SM cycles the shared-memory store path takes per scattered 16-bit warp store of the
   * decompression, one queue for the SM's co-resident blocks (default: the compute profile's
   * measured `scatteredStoreCycles`, 0 where it has none); another value is a what-if.
   */
  readonly storeCycles?: number;
  /**
   * Copies of the weights the timed launches take in turn, so that a launch finds in the L2 what it
   * kept of its copy since its last turn (default: the compute profile's `rotatingCopies`, the
   * reference measurements'); 0: every launch reads its weights from DRAM, as under Nsight Compute,
   * which flushes the caches before the launch it profiles.
   */
  readonly rotatingCopies?: number;
}

/** Cycles per block-iteration of each SM-side stage. */
export interface IterationCycles {
  /** Of the chain: the cycles its decompression's scattered stores take in the SM's store path. */
  readonly storeWait: number;
  readonly issue: number;
  readonly decompressIssue: number;
  readonly sharedMemory: number;
  readonly tensorCore: number;
  /** The L1 taking the iteration's line requests (uncoalesced loads cost one per line). */
  readonly l1Lines: number;
  /** The SM's share of the L2 slices' lookups for those lines, shared by every SM that holds blocks. */
  readonly l2Lookups: number;
  /** Of the chain: the dependent global-load round trips it waits for. */
  readonly loadWait: number;
  /** Of the chain: the decompression on the warp's own dependency chain (or its issue, if longer). */
  readonly decompressChain: number;
  /** Of loadWait: the cycles its line requests take in the L1 (0 where the LSU or the DRAM, not the lines, sets the load issue). */
  readonly lineWait: number;
  /** Of loadWait: the cycles the grid's burst of loads takes in the DRAM (0 where the LSU or the L1 sets the load issue). */
  readonly burstDrain: number;
  /** Of the chain: cycles its line requests wait in the L1 behind co-resident blocks' (mean-value analysis). */
  readonly l1Queue: number;
  /** The block's critical path per iteration, queueing included. */
  readonly chain: number;
  /**
   * max(issue, sharedMemory, tensorCore, l1Lines, l2Lookups, chain / resident) at full residency: the
   * pace of an SM if every SM held as many blocks and an even share of the lookups. Reported; the
   * kernel's time comes from the blocks' schedule (blockSchedule.ts).
   */
  readonly effective: number;
}

/** One kernel's modeled time and where it goes. */
export interface KernelTiming {
  readonly kernel: SpmmKernel;
  readonly profile: string;
  readonly shape: SpmmShape;
  readonly sparsity: number;
  readonly splitK: number;
  readonly blocks: number;
  readonly residentBlocksPerSm: number;
  /** The share of the weights' lines the L2 keeps from the launch's earlier turn (rotatingCopies), read at an L2 hit's round trip. */
  readonly weightsInL2: number;
  readonly timeNs: number;
  readonly bound: BoundingResource;
  readonly stagesNs: {
    readonly memory: number;
    readonly compute: number;
    /** The first load's round trip before the SM side's compute; 0 where the profile's measured block start and end (in compute) hold it. */
    readonly prologue: number;
    readonly epilogue: number;
    readonly reduction: number;
    /** What the timed launch adds (the profile's `launchNs`, or `spanLaunchNs` for a register-staged kernel). */
    readonly launch: number;
  };
  readonly perIteration: IterationCycles;
  readonly costs: IterationCosts;
  /** Bytes of A as stored (the format's exact size) and as requested/moved. */
  readonly bytes: {
    readonly aStored: number;
    readonly aSectorRequests: number;
    readonly bSectorRequests: number;
    readonly dramRead: number;
  };
  readonly loads: { readonly A: LoadAccounting; readonly B: LoadAccounting };
  /** The memory path result of the simulated part. */
  readonly memory: MemoryPathResult;
  /** Fraction of the sector requests simulated (1 = all; the DRAM bytes are scaled by its inverse). */
  readonly simulatedFraction: number;
  /** The channel sample: channels simulated of all, and the spread of their last completions (channelSpread). */
  readonly sampling: {
    readonly requested: number;
    readonly channels: number;
    readonly of: number;
    readonly spread: number;
    /** The requested sample's channels finished more than CHANNEL_SPREAD_LIMIT apart, so all were simulated. */
    readonly fellBack: boolean;
  };
}

/**
 * How far apart a channel sample's channels may finish — (latest − earliest) / makespan — and still
 * stand for the unsampled ones: half the 5 % within which sampled runs must match full runs. In
 * the sweeps of the paper's shapes the sampled channels finish within 0.3 % of each other on
 * rtx6000ada (1.7 % for the 9216² dense kernel) and within 2.4 % for the sparse kernels on h200;
 * the dense kernel on h200 spreads 5–9 % and is rerun on all channels (docs/system-model.md, Sampling).
 */
export const CHANNEL_SPREAD_LIMIT = 0.025;

/** What the SM side of one block-iteration needs besides the kernel's own costs. */
interface SmSide {
  /** One global-load round trip as a warp waits for it: idle DRAM latency + the warp's turn-around. */
  readonly loadLatencyCycles: number;
  readonly barrierCycles: number;
  readonly schedulers: number;
  readonly wavefrontsPerCycle: number;
  readonly mmaUnits: number;
  /** Cycles a warp's LDG.128 keeps its sub-core's load/store unit. */
  readonly lsuCyclesPerLoad: number;
  readonly l1LinesPerCycle: number;
  /** The SM's share of the L2 slices' lookups (lines per SM cycle) when every SM that holds blocks asks at once. */
  readonly l2LookupsPerCycle: number;
  /** Line requests of one block-iteration (measured on the kernel's own trace). */
  readonly linesPerIteration: number;
  /**
   * Cycles the DRAM takes to deliver one block-iteration's loads of every block resident on the
   * GPU (their bytes of A over the DRAM's peak): the blocks burst together, so a block's last load
   * arrives only once the whole burst has drained (burstDrainCycles).
   */
  readonly burstDrainCycles: number;
  readonly burstsInLockstep: boolean;
  /** SM cycles per scattered warp store in the shared-store path (0 where unmeasured). */
  readonly scatteredStoreCycles: number;
  /** Measured cycles per Algorithm 1 step by blocks per SM (computeProfiles.ts), where measured. */
  readonly algorithm1StepCycles?: readonly number[];
}

/**
 * Cycle time of one of `blocks` co-resident blocks that each spend `think` cycles of their
 * chain on their own (load latency, decompression, barriers) and `demand` cycles in a server they
 * share (the SM's L1 taking their line requests): mean-value analysis of that closed two-station
 * network (Reiser & Lavenberg, J. ACM 27(2), 1980), with the FCFS server's residual-service
 * correction for a deterministic service time (a block's lines leave at the L1's fixed line rate:
 * a block that finds another in service waits half a service on average, not a whole one;
 * Lazowska et al., Quantitative System Performance, 1984). The blocks' phases
 * are not in lockstep (their steps and load latencies vary), so line requests can find another
 * block's ahead of them; with one block there is no queue, and the caller keeps the L1's
 * throughput bound (blocks × demand per cycle) beside it.
 */
export function sharedServerCycle(think: number, demand: number | readonly number[], blocks: number): number {
  // Several servers (the L1, the store path) are stations of the same closed network.
  const demands = typeof demand === 'number' ? [demand] : demand;
  const queue = demands.map(() => 0);
  const busy = demands.map(() => 0);
  let cycle = think + demands.reduce((total, d) => total + d, 0);
  // Nothing to do and nothing to wait for: no queue forms (and the loop below would divide by 0).
  if (cycle === 0) return 0;
  for (let n = 1; n <= blocks; n++) {
    const residence = demands.map((d, k) => d * (1 + queue[k]! - busy[k]! / 2));
    cycle = think + residence.reduce((total, r) => total + r, 0);
    for (const [k, r] of residence.entries()) {
      queue[k] = (n * r) / cycle;
      busy[k] = (n * demands[k]!) / cycle;
    }
  }
  return cycle;
}

/**
 * The SM-side cycles of one block-iteration, an interval model in the spirit of GPUMech: each warp
 * of a block runs on its own sub-core, so a block's iteration takes its critical path (chain):
 * its dependent load round trips, its loads leaving the load/store unit and the L1, the
 * decompression on its own dependency chain (or its issue slots, if longer), the barriers.
 * `resident` blocks run side by side and hide each other's chains, but share the sub-cores' issue,
 * the shared memory, the tensor cores and the L1's line rate: per iteration the SM needs the larger
 * of chain / resident and each shared resource's time. For a register-staged kernel the L1's line
 * requests are on the chain (the decompression waits for the last value load, and a warp load that
 * touches 32 lines leaves the L1 only at its line rate), so co-resident blocks queue for it: the
 * chain then takes sharedServerCycle's cycle time.
 */
function iterationCycles(
  costs: IterationCosts,
  input: KernelModelInput,
  resident: number,
  sm: SmSide,
): IterationCycles {
  const { mma } = input;
  const tensorCore = (costs.mmasPerWarp * mma.periodCycles) / sm.mmaUnits + mma.latencyCycles;
  const barriers = costs.barriers * sm.barrierCycles;
  const l1Lines = sm.linesPerIteration / sm.l1LinesPerCycle;
  const l2Lookups = sm.linesPerIteration / sm.l2LookupsPerCycle;
  // Register-staged kernels wait for this iteration's loads (one round trip, or two when the
  // value addresses come from offsets loaded the same iteration) before decompressing them; the
  // MMA of the previous tile runs meanwhile (Fig. 4). The loads leave at the slower of the
  // load/store unit and the L1's line rate. The dense kernel's multi-stage cp.async (3 stages)
  // leaves half the latency to hide, and its (coalesced) lines are not on its chain.
  const rounds = costs.loadsInRegisters ? costs.dependentLoadRounds : 0.5;
  const lsu = costs.loadInstructions * sm.lsuCyclesPerLoad;
  const lineWait = costs.loadsInRegisters ? l1Lines : 0;
  // The SM's shared-store path (the profile's measured rate, or a what-if storeCycles): the
  // block's scattered stores pass it one by one, and the decompression cannot end before they
  // have. Where the grid's blocks burst in lockstep, the blocks on an SM get their tiles together
  // and decompress together, so the path takes all of their stores in that one window (as
  // stsScatter's blocks, storePath.ts); otherwise their phases differ and they queue for it as
  // for the L1.
  const storeWait = costs.scatteredStores * (input.storeCycles ?? sm.scatteredStoreCycles);
  const lockstep = costs.loadsInRegisters && sm.burstsInLockstep;
  const storeWindow = (lockstep ? resident : 1) * storeWait;
  // Where the profile measured Algorithm 1's step by blocks per SM, it replaces the assumed one:
  // a second block's warps share the sub-cores and the MIO with the first's (twentieth batch).
  const measuredSteps = sm.algorithm1StepCycles;
  const stepCycles = measuredSteps?.[Math.min(resident, measuredSteps.length) - 1];
  const ownChain =
    stepCycles === undefined
      ? costs.decompressChainCycles
      : costs.decompressChainCycles + costs.algorithm1Steps * (stepCycles - ALGORITHM1_STEP_CYCLES);
  const decompressChain = Math.max(ownChain, costs.decompressInstructions, storeWindow);
  const queued = lockstep ? [] : [storeWait];
  const chainWith = (loadIssue: number, linesSetIssue: boolean) => {
    const loadWait = Math.max(rounds * sm.loadLatencyCycles + loadIssue, tensorCore);
    const alone = loadWait + decompressChain + barriers;
    // The part of the chain spent in the L1 (when the lines, not the LSU, set the load issue).
    const demand = linesSetIssue && loadWait > tensorCore ? lineWait : 0;
    return {
      loadWait,
      alone,
      demand,
      chain: sharedServerCycle(alone - demand - (lockstep ? 0 : storeWait), [demand, ...queued], resident),
    };
  };
  // The loads leave at the slower of the load/store unit and the L1's line rate (for which
  // co-resident blocks queue) — and, where the grid's blocks burst their tiles in lockstep
  // (gpu/probes/README.md, "The harness by split-K"), the last one arrives no earlier than the
  // DRAM has delivered the whole grid's burst.
  const local = chainWith(Math.max(lsu, lineWait), lineWait >= lsu);
  const burstDrain = costs.loadsInRegisters && sm.burstsInLockstep ? sm.burstDrainCycles : 0;
  const burst = chainWith(Math.max(lsu, burstDrain), false);
  const drained = burst.chain > local.chain;
  const { loadWait, alone, demand, chain } = drained ? burst : local;
  const issue = (costs.warpInstructions * WARPS_PER_BLOCK) / sm.schedulers;
  const sharedMemory = costs.sharedWavefronts / sm.wavefrontsPerCycle;
  return {
    issue,
    decompressIssue: costs.decompressInstructions,
    sharedMemory,
    tensorCore,
    l1Lines,
    l2Lookups,
    loadWait,
    lineWait: demand,
    burstDrain: drained && loadWait > tensorCore && burstDrain > lsu ? burstDrain : 0,
    storeWait,
    l1Queue: chain - alone,
    decompressChain,
    chain,
    effective: Math.max(issue, sharedMemory, tensorCore, l1Lines, l2Lookups, chain / resident),
  };
}

/**
 * Mean line requests and mean bytes of A (its distinct sectors: what the DRAM delivers) per
 * block-iteration of `loads`, from `count` iterations spread over the grid.
 */
function meanIterationTraffic(
  loads: ReturnType<typeof kernelLoads>,
  plan: GridPlan,
  count = 16,
): { lines: number; aBytes: number } {
  let lines = 0;
  let aBytes = 0;
  const total = plan.rowBlocks * plan.kTiles;
  const n = Math.min(count, total);
  for (let i = 0; i < n; i++) {
    const index = Math.floor(((i + 0.5) * total) / n);
    const recorder = new LoadRecorder(new TraceBuilder(1024));
    loads.blockIteration(recorder, 0, 0, index % plan.rowBlocks, Math.floor(index / plan.rowBlocks));
    const trace = recorder.trace.build();
    lines += trace.length;
    const sectors = new Set<number>();
    for (let r = 0; r < trace.length; r++)
      for (let offset = 0; offset < trace.bytes[r]!; offset += SECTOR_BYTES) sectors.add(trace.address[r]! + offset);
    // B's tile (fully coalesced: no sector twice) is shared by every block and read from the L2.
    aBytes += (sectors.size - recorder.accounting.B.sectors) * SECTOR_BYTES;
  }
  return { lines: lines / n, aBytes: aBytes / n };
}

/** Runs the model for one kernel. `onRound` reports memory-model progress (rounds simulated, total). */
export function modelKernel(input: KernelModelInput, onRound?: (done: number, total: number) => void): KernelTiming {
  const { shape, kernel, layout } = input;
  checkShape(shape);
  if (input.storeCycles !== undefined && !(Number.isFinite(input.storeCycles) && input.storeCycles >= 0))
    throw new FieldError('storeCycles', `${input.storeCycles}: give a number of cycles ≥ 0`);
  if (input.rotatingCopies !== undefined) checkRotatingCopies(input.rotatingCopies);
  const memory = memoryProfile(input.profile);
  const compute = computeProfile(input.profile);
  const smCount = memory.sm.count;
  const nsPerCycle = 1000 / memory.sm.clockMHz;
  // The SM side counts cycles of the clock the SMs run at while they issue mma.sync; the memory
  // path's figures (latencies, rates) are cycles of the profile's clock, at which they were measured.
  const smNsPerCycle = 1000 / (compute.tensorClockMHz ?? memory.sm.clockMHz);
  const smPerPathCycle = nsPerCycle / smNsPerCycle;
  const costs = iterationCosts(kernel, layout, shape.n);
  const resident = residentBlocks(costs, compute);
  const plan = gridPlan(shape, input.splitK ?? autoSplitK(shape, smCount));
  const loadLatency = memory.dram.latencyCycles;
  const loads = kernelLoads(kernel, shape, layout);
  const traffic = meanIterationTraffic(loads, plan);
  const dramBytesPerSmCycle = memory.dram.bandwidthGBps * smNsPerCycle;
  const burstBlocks = Math.min(plan.blocks, smCount * resident);
  // An SM's misses leave its L1 at most at the profile's line rate, on the block's chain. The SMs
  // that hold blocks share the L2 slices' lookups, but only while they ask at the same time: a
  // block asks for its lines for a part of its iteration, and the blocks drift apart after their
  // first tile (gridBurst). So the lookups bound the grid's mean line rate, not a block's chain —
  // the STC proxy's cycles per iteration are the same on 32, 64 and 128 SMs (2,659 / 2,610 / 2,723,
  // gpu/probes/README.md, "Eighth batch").
  const { lookupsPerCyclePerSlice } = memory.l2;
  const l2LookupsPerSm = lookupsPerCyclePerSlice
    ? (memory.l2.slices * lookupsPerCyclePerSlice) / Math.min(plan.blocks, smCount)
    : Infinity;
  // Where the timed launches take turns over copies of the weights (the reference harness's), a
  // launch reads what the L2 kept of its copy, at an L2 hit's round trip: the one-block iterations of
  // the harness's small grids (flashgrid, twenty-sixth batch). The memory path is still fed cold.
  const copies = input.rotatingCopies ?? compute.rotatingCopies ?? 0;
  const aStored = storedBytes(kernel, shape, layout);
  const weightsInL2 = copies > 0 ? cyclicKeptShare(memory.l2, copies * aStored) : 0;
  const dramTrip = loadLatency + (memory.sm.loadStepCycles ?? 0);
  const l2Trip = memory.l2.hitLatencyCycles + (memory.sm.l2HitStepCycles ?? memory.sm.loadStepCycles ?? 0);
  const smSide: SmSide = {
    loadLatencyCycles: (weightsInL2 * l2Trip + (1 - weightsInL2) * dramTrip) * smPerPathCycle,
    barrierCycles: compute.barrierCycles,
    schedulers: compute.schedulersPerSm,
    wavefrontsPerCycle: compute.sharedWavefrontsPerCycle,
    mmaUnits: compute.mmaUnitsPerSubCore,
    lsuCyclesPerLoad: memory.sm.lsuBytesPerCyclePerSubCore ? 512 / memory.sm.lsuBytesPerCyclePerSubCore : 1,
    l1LinesPerCycle: compute.l1LinesPerCycle / smPerPathCycle,
    l2LookupsPerCycle: l2LookupsPerSm / smPerPathCycle,
    linesPerIteration: traffic.lines,
    burstDrainCycles: (traffic.aBytes * burstBlocks) / dramBytesPerSmCycle,
    burstsInLockstep: compute.burstsInLockstep,
    scatteredStoreCycles: compute.scatteredStoreCycles ?? 0,
    ...(compute.algorithm1StepCycles ? { algorithm1StepCycles: compute.algorithm1StepCycles } : {}),
  };
  // The blocks iterating together burst their tiles together: the grid's iterating blocks (at
  // the start, `burstBlocks`).
  const cyclesAt = (r: number, bursting = burstBlocks): IterationCycles =>
    iterationCycles(costs, input, r, {
      ...smSide,
      burstDrainCycles: (traffic.aBytes * bursting) / dramBytesPerSmCycle,
    });
  const full = cyclesAt(resident);
  // A block's start and end: its first tile and its stores overlap nothing of its own, and the
  // blocks that start together on an SM overlap theirs (tenth batch). The dense kernel is the path
  // model's streamer, not a register-staged block.
  const startEnd = costs.loadsInRegisters ? compute.blockStartEndCycles : undefined;
  const works = Array.from({ length: plan.blocks }, (_, block) => blockWork(plan, block));
  // Each SM iterates at the pace of the blocks it holds (issue, shared memory, tensor cores, its
  // L1, the chain over its blocks, with the burst of the grid's blocks): fewer blocks have less to
  // hide their chain behind (ninth batch: at one iteration per block, 128 / 512 / 1,024 blocks take
  // 1 : 2.14 : 3.03 times one round).
  const paces = new Map<number, number>();
  const paceCycles = (blocks: number, gridBlocks: number): number => {
    const key = blocks * (plan.blocks + 1) + gridBlocks;
    let pace = paces.get(key);
    if (pace === undefined) paces.set(key, (pace = localCycles(cyclesAt(blocks, gridBlocks), blocks)));
    return pace;
  };
  // The L2 slices' lookups are the grid's, shared by the SMs asking at the time (blockSchedule.ts):
  // past one round the STC proxy's cycles per iteration follow the grid's block-iterations (ninth
  // batch: 4.19 / 8.10 µs on 512 / 1,024 blocks).
  const schedule = (lookupsPerCycle: number) =>
    scheduleBlocks({
      smCount,
      slotsPerSm: resident,
      iterations: works.map((work) => work.iterations),
      gapCycles: startEnd ?? 0,
      paceCycles,
      lookupsPerCycle,
      lookupsPerIteration: traffic.lines,
    });
  const timeline = schedule((memory.l2.slices * (lookupsPerCyclePerSlice ?? Infinity)) / smPerPathCycle);
  const ownPaces = lookupsPerCyclePerSlice ? schedule(Infinity) : timeline;
  const lookupsBind = timeline.makespan > ownPaces.makespan * (1 + 1e-9);
  const computeCycles = timeline.makespan;
  // The SM that finishes last names the SM-side bound, at the most blocks it held.
  const lastSm = timeline.smFinish.indexOf(Math.max(...timeline.smFinish));
  const lastResident = Math.max(1, timeline.smPeakBlocks[lastSm] ?? 1);

  // Memory: every block issues each iteration's loads when the schedule starts it, staggered over
  // the iteration by its SM's number (the SMs are not in lockstep), in time order.
  const issues = works
    .flatMap((work, block) =>
      Array.from({ length: work.iterations }, (_, k) => {
        const sm = timeline.smOf[block]!;
        const start = timeline.iterationStarts[block]![k]!;
        const length = timeline.iterationEnds[block]![k]! - start;
        const item: [number, number] = [work.rowBlock, work.firstKTile + k];
        return { timeCycles: start + (sm / smCount) * length, sm, item };
      }),
    )
    .sort((a, b) => a.timeCycles - b.timeCycles);
  const l1Bytes = memory.l1.sets * memory.l1.ways * memory.l1.lineBytes;
  const l1DataBytes = Math.max(memory.l1.sets * memory.l1.lineBytes, l1Bytes - resident * costs.sharedBytesPerBlock);
  const simulate = (
    channelSample: number,
    report?: (done: number, total: number) => void,
  ): { simulator: MemoryPathSimulator; accounting: Record<'A' | 'B', LoadAccounting> } => {
    const simulator = new MemoryPathSimulator(memory, { l1DataBytes: Math.min(l1Bytes, l1DataBytes), channelSample });
    const accounting = {
      A: { instructions: 0, threadBytes: 0, sectors: 0 },
      B: { instructions: 0, threadBytes: 0, sectors: 0 },
    };
    // Fed an SM count of block-iterations at a time.
    const batches = Math.ceil(issues.length / smCount);
    for (let batch = 0; batch < batches; batch++) {
      const recorder = new LoadRecorder(new TraceBuilder(1 << 14));
      for (const { timeCycles, sm, item } of issues.slice(batch * smCount, (batch + 1) * smCount))
        loads.blockIteration(recorder, sm, timeCycles / smPerPathCycle, ...item);
      simulator.feed(sortedByTime(recorder.trace.build()));
      for (const operand of ['A', 'B'] as const) {
        accounting[operand].instructions += recorder.accounting[operand].instructions;
        accounting[operand].threadBytes += recorder.accounting[operand].threadBytes;
        accounting[operand].sectors += recorder.accounting[operand].sectors;
      }
      report?.(batch + 1, batches);
    }
    return { simulator, accounting };
  };
  // The vendor library's dense kernel was measured to read at a fixed share of the DRAM's peak
  // whatever the shape and grid (its TMA pipeline, not the path's queues, sets its pace): its
  // memory time is its bytes at that rate, and only its bytes are taken from the path, which a
  // sample gives as well as all channels.
  const library = kernel === 'dense' ? compute.denseLibrary : undefined;
  // A sampled run simulates every iteration, at its full-run time, but only the requests homed on
  // the sampled channels: those channels' slices, banks and buses see exactly their full-run
  // streams, and the kernel's memory time is the latest channel's. That stands for the others only
  // while the sampled channels finish together; where they do not (the in-order channel bus of
  // an overloaded DRAM idles behind busy banks by different amounts), one of the others may
  // finish later still, so all are simulated.
  const requested = Math.max(1, input.sample ?? 1);
  let run = simulate(requested, onRound);
  const sampledChannels = run.simulator.sampledChannels.reduce((a, b) => a + b, 0);
  const spread = run.simulator.channelSpread();
  const fellBack = library === undefined && run.simulator.channelFraction < 1 && spread > CHANNEL_SPREAD_LIMIT;
  if (fellBack) run = simulate(1);
  const { simulator, accounting } = run;
  const result = simulator.result();
  const fraction = result.sectorRequests / Math.max(1, accounting.A.sectors + accounting.B.sectors);
  const latencyNs = loadLatency * nsPerCycle;
  const dramReadBytes = fraction > 0 ? result.bytes.dramToL2 / fraction : 0;
  const memoryNs = library ? dramReadBytes / (library.dramEfficiency * memory.dram.bandwidthGBps) : result.makespanNs;
  const epilogueNs = (full.decompressIssue + full.tensorCore) * smNsPerCycle;
  // Where the blocks' start and end are measured, the first load is part of it (in computeNs).
  const prologueNs = startEnd === undefined ? latencyNs : 0;
  const computeNs = computeCycles * smNsPerCycle;
  const l2GBps = (memory.l2.slices * memory.l2.bytesPerCyclePerSlice * memory.sm.clockMHz) / 1000;
  // Where the library splits K, its reduction is a kernel of its own, timed as a whole.
  const reductionNs =
    library && plan.splitK > 1
      ? library.splitKReductionNs
      : reductionTimeNs(shape, plan.splitK, l2GBps, compute.reductionLaunchNs);
  // Where the blocks' start and end are measured, so is what the timed launch adds to their span.
  const launchNs = startEnd === undefined ? compute.launchNs : (compute.spanLaunchNs ?? compute.launchNs);
  const memorySide = memoryNs + epilogueNs;
  const computeSide = prologueNs + computeNs;
  const sectorBytes = (sectors: number): number => 32 * sectors;
  return {
    kernel,
    profile: input.profile,
    shape,
    sparsity: 1 - layout.nonzeros / (layout.m * layout.k),
    splitK: plan.splitK,
    blocks: plan.blocks,
    residentBlocksPerSm: resident,
    weightsInL2,
    timeNs: Math.max(memorySide, computeSide) + reductionNs + launchNs,
    // A memory path with no resource busy half the time ('latency') only followed the SMs' issue
    // schedule, so the SM side names the bound even where the makespan came out a little later.
    bound:
      memorySide >= computeSide && library
        ? 'DRAM'
        : memorySide >= computeSide && result.boundingResource !== 'latency'
          ? MEMORY_BOUND_NAMES[result.boundingResource]
          : lookupsBind
            ? 'L2 lookups'
            : smBound(cyclesAt(lastResident), lastResident),
    stagesNs: {
      memory: memoryNs,
      compute: computeNs,
      prologue: prologueNs,
      epilogue: epilogueNs,
      reduction: reductionNs,
      launch: launchNs,
    },
    perIteration: full,
    costs,
    bytes: {
      aStored,
      aSectorRequests: sectorBytes(accounting.A.sectors),
      bSectorRequests: sectorBytes(accounting.B.sectors),
      dramRead: dramReadBytes,
    },
    loads: accounting,
    memory: result,
    simulatedFraction: fraction,
    sampling: {
      requested,
      channels: fellBack ? memory.dram.channels : sampledChannels,
      of: memory.dram.channels,
      spread,
      fellBack,
    },
  };
}

/** An SM's cycles per block-iteration with `resident` blocks, by what the SM itself holds (the L2's lookups are the grid's). */
function localCycles(cycles: IterationCycles, resident: number): number {
  return Math.max(cycles.issue, cycles.sharedMemory, cycles.tensorCore, cycles.l1Lines, cycles.chain / resident);
}

/** The SM-side term that sets the iteration time on the SM that finishes last (the L2's lookups are named for the grid). */
function smBound(cycles: IterationCycles, resident: number): BoundingResource {
  const terms: Array<[BoundingResource, number]> = [
    ['issue', cycles.issue],
    ['shared memory', cycles.sharedMemory],
    ['tensor core', cycles.tensorCore],
    ['L1 line rate', cycles.l1Lines],
    [chainBound(cycles), cycles.chain / resident],
  ];
  return terms.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

/** The largest part of a block's chain: its decompression, its load round trips, or its lines in the (shared) L1. */
function chainBound(cycles: IterationCycles): BoundingResource {
  const inL1 = cycles.chain - cycles.decompressChain - (cycles.loadWait - cycles.lineWait);
  const parts: Array<[BoundingResource, number]> = [
    ['decompression chain', cycles.decompressChain],
    ['load latency (MLP)', cycles.loadWait - cycles.lineWait],
    ['L1 line rate', inL1],
  ];
  return parts.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

/** Refuses a count of rotating copies (KernelModelInput.rotatingCopies) that is not a whole number ≥ 0. */
export function checkRotatingCopies(copies: number): void {
  if (!(Number.isSafeInteger(copies) && copies >= 0))
    throw new FieldError('rotatingCopies', `${copies}: give a whole number of copies ≥ 0`);
}

/** Bytes of A as the kernel stores it. */
export function storedBytes(kernel: SpmmKernel, shape: SpmmShape, layout: SparseWeightLayout): number {
  const table: Record<SpmmKernel, () => number> = {
    dense: () => 2 * shape.m * shape.k,
    flashllm: () => tiledCslLayoutBytes(layout),
    coruscant: () => kernelLayoutBytes(layout),
    stc: () => kernelLayoutBytes(layout),
  };
  return table[kernel]();
}

/**
 * Split-K epilogue: every split writes an M×N FP32 partial, a reduction kernel (one launch) reads
 * them and writes D in FP16. The partials (M·N·4·splitK bytes, a few MB) stay in L2, so they are
 * charged at the L2's aggregate bandwidth; the path model traces loads only. Without split-K the
 * main kernel writes D itself.
 */
export function reductionTimeNs(shape: SpmmShape, splitK: number, l2GBps: number, launchNs: number): number {
  const out = shape.m * shape.n;
  if (splitK === 1) return (2 * out) / l2GBps;
  return launchNs + (2 * 4 * out * splitK + 2 * out) / l2GBps;
}
