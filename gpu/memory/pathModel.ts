import { DramModel } from './dram.ts';
import { L1Caches } from './l1Cache.ts';
import { L2Cache, l2HitLatencyCycles } from './l2Cache.ts';
import { withL1DataBytes } from './profiles.ts';
import type { GpuMemoryProfile } from './profileTypes.ts';
import { HIT, LINE_MISS } from './sectoredCache.ts';
import type { MemoryTrace } from './requestTrace.ts';

/**
 * The trace-driven global-load path: SM → L1 → L2 slice → DRAM channel/bank, with a queue per
 * resource. Each resource has a "free at" time; a request starts at max(arrival, free), keeps the
 * resource for its service time, and completes after the stage's latency. Requests are served in
 * trace order (give traces in issue order). Latencies are calibrated so that a single load on an
 * idle GPU takes exactly the profile's measured L1-hit, L2-hit or DRAM pointer-chase latency.
 */

/** Options of one simulation. */
export interface SimulateOptions {
  /** L1 bytes left for data after the shared-memory carve-out (default: the profile's full L1). */
  readonly l1DataBytes?: number;
}

/** A kind of queued resource in the path. */
export type ResourceClass = 'l1' | 'l2Slice' | 'dramBank' | 'dramChannel';

/** The busy time of one class of resources over a simulation. */
export interface ResourceBusy {
  /** Busy time of the busiest instance (an SM's L1, a slice, a bank, a channel bus), ns. */
  readonly maxBusyNs: number;
  readonly meanBusyNs: number;
  /** Index of the busiest instance. */
  readonly busiest: number;
  /** maxBusyNs / makespan: 1 when that instance never idled. */
  readonly utilization: number;
}

/** What a trace costs on the modeled memory path. */
export interface MemoryPathResult {
  readonly profile: string;
  /** 32-byte sector requests the trace made. */
  readonly sectorRequests: number;
  /** From the first issue to the last completion. */
  readonly makespanNs: number;
  readonly makespanCycles: number;
  readonly meanLatencyNs: number;
  readonly meanLatencyCycles: number;
  readonly maxLatencyNs: number;
  /** Bytes delivered L1→SM, L2→L1 and DRAM→L2 (all in whole 32-byte sectors). */
  readonly bytes: { readonly l1ToSm: number; readonly l2ToL1: number; readonly dramToL2: number };
  /** sectorOnlyMisses: misses on a line that was already present before the request (only its sector was absent). */
  readonly l1: {
    readonly sectorHits: number;
    readonly sectorMisses: number;
    readonly sectorOnlyMisses: number;
    readonly hitRate: number;
  };
  readonly l2: { readonly sectorHits: number; readonly sectorMisses: number; readonly hitRate: number };
  readonly dram: {
    readonly requests: number;
    readonly rowHits: number;
    readonly rowEmpty: number;
    readonly rowConflicts: number;
    readonly rowHitRate: number;
  };
  readonly busy: Readonly<Record<ResourceClass, ResourceBusy>>;
  /** The resource class with the highest utilization, or 'latency' when none is busy half the time. */
  readonly boundingResource: ResourceClass | 'latency';
}

/** Utilization below which a run counts as latency-bound rather than limited by a resource. */
const LATENCY_BOUND_BELOW = 0.5;

/** Streams trace batches through the model; `result()` summarizes everything fed so far. */
export class MemoryPathSimulator {
  readonly l1: L1Caches;
  readonly l2: L2Cache;
  readonly dram: DramModel;
  private readonly profile: GpuMemoryProfile;
  private readonly nsPerCycle: number;
  private readonly l1ServiceNs: number;
  private readonly l2ServiceNs: number;
  private readonly l1LatencyNs: number;
  /** L2 hit latency of each (SM, slice) pair, ns, SM-major. */
  private readonly l2LatencyNs: Float64Array;
  private readonly slices: number;
  private readonly sectorBytes: number;
  private readonly lineBytes: number;
  /** The line the current trace entry allocated in L1 (its other sectors are part of that line miss), or −1. */
  private entryLine = -1;
  private readonly l1FreeNs: Float64Array;
  private readonly l1BusyNs: Float64Array;
  private readonly sliceFreeNs: Float64Array;
  private readonly sliceBusyNs: Float64Array;
  private requests = 0;
  private l1Hits = 0;
  private sectorOnlyMisses = 0;
  private l2Hits = 0;
  private l2Misses = 0;
  private firstIssueNs = Infinity;
  private lastDoneNs = -Infinity;
  private latencySumNs = 0;
  private maxLatencyNs = 0;

  constructor(profile: GpuMemoryProfile, options: SimulateOptions = {}) {
    this.profile = options.l1DataBytes === undefined ? profile : withL1DataBytes(profile, options.l1DataBytes);
    const { sm, l1, l2, dram } = this.profile;
    if (l1.sectorBytes !== l2.sectorBytes || l1.lineBytes !== l2.lineBytes)
      throw new RangeError('L1 and L2 must share line and sector sizes');
    this.nsPerCycle = 1000 / sm.clockMHz;
    this.sectorBytes = l1.sectorBytes;
    this.lineBytes = l1.lineBytes;
    this.l1ServiceNs = (l1.sectorBytes / l1.bytesPerCycle) * this.nsPerCycle;
    this.l2ServiceNs = (l2.sectorBytes / l2.bytesPerCyclePerSlice) * this.nsPerCycle;
    this.l1LatencyNs = l1.hitLatencyCycles * this.nsPerCycle;
    this.l2LatencyNs = l2HitLatencyCycles(l2, sm.count).map((cycles) => cycles * this.nsPerCycle);
    this.slices = l2.slices;
    this.l1 = new L1Caches(this.profile.l1, sm.count);
    this.l2 = new L2Cache(l2);
    this.dram = new DramModel(dram, sm.clockMHz);
    this.l1FreeNs = new Float64Array(sm.count);
    this.l1BusyNs = new Float64Array(sm.count);
    this.sliceFreeNs = new Float64Array(l2.slices);
    this.sliceBusyNs = new Float64Array(l2.slices);
  }

  /** Runs one batch of requests (after any fed before). */
  feed(trace: MemoryTrace): void {
    const { sm, address, bytes, time } = trace;
    const smCount = this.profile.sm.count;
    const sectorBytes = this.sectorBytes;
    for (let i = 0; i < trace.length; i++) {
      const smId = sm[i]!;
      if (smId >= smCount)
        throw new RangeError(`trace entry ${i}: SM ${smId} does not exist on ${this.profile.name} (${smCount} SMs)`);
      const first = address[i]!;
      const issueNs = time[i]! * this.nsPerCycle;
      const lastSector = Math.floor((first + bytes[i]! - 1) / sectorBytes) * sectorBytes;
      this.entryLine = -1;
      for (let sector = Math.floor(first / sectorBytes) * sectorBytes; sector <= lastSector; sector += sectorBytes) {
        this.load(smId, sector, issueNs);
      }
    }
  }

  /** One 32-byte sector request through the path. */
  private load(sm: number, address: number, issueNs: number): void {
    this.requests++;
    const l1Start = Math.max(issueNs, this.l1FreeNs[sm]!);
    this.l1FreeNs[sm] = l1Start + this.l1ServiceNs;
    this.l1BusyNs[sm]! += this.l1ServiceNs;
    const l1 = this.l1;
    const l1Outcome = l1.access(sm, address);
    const l1Slot = l1.store.slot;
    const l1Sector = l1.sectorOf(address);
    let doneNs: number;
    if (l1Outcome === HIT) {
      this.l1Hits++;
      doneNs = Math.max(l1Start + this.l1LatencyNs, l1.store.readyAt(l1Slot, l1Sector));
    } else {
      const line = Math.floor(address / this.lineBytes);
      if (l1Outcome === LINE_MISS) this.entryLine = line;
      else if (line !== this.entryLine) this.sectorOnlyMisses++;
      doneNs = this.loadFromL2(sm, address, l1Start);
      l1.store.setReady(l1Slot, l1Sector, doneNs);
    }
    const latency = doneNs - issueNs;
    this.latencySumNs += latency;
    if (latency > this.maxLatencyNs) this.maxLatencyNs = latency;
    if (issueNs < this.firstIssueNs) this.firstIssueNs = issueNs;
    if (doneNs > this.lastDoneNs) this.lastDoneNs = doneNs;
  }

  /** An L1 sector miss: the slice's queue, then a hit or a DRAM read. Returns when the data reaches the SM. */
  private loadFromL2(sm: number, address: number, arrivalNs: number): number {
    const l2 = this.l2;
    const slice = l2.sliceOf(address);
    const start = Math.max(arrivalNs, this.sliceFreeNs[slice]!);
    this.sliceFreeNs[slice] = start + this.l2ServiceNs;
    this.sliceBusyNs[slice]! += this.l2ServiceNs;
    const outcome = l2.access(slice, address);
    const slot = l2.store.slot;
    const sector = l2.sectorOf(address);
    if (outcome === HIT) {
      this.l2Hits++;
      return Math.max(start + this.l2LatencyNs[sm * this.slices + slice]!, l2.store.readyAt(slot, sector));
    }
    this.l2Misses++;
    const doneNs = this.dram.access(l2.channelOf(slice), address, start);
    l2.store.setReady(slot, sector, doneNs);
    return doneNs;
  }

  /**
   * Puts the sectors of [address, address + bytes) in the L2 as if read long before: ready at time
   * 0, no queue time, no counts. A sampled run uses it for an operand that the full run reads from
   * DRAM once and then hits in L2, so the sample's scattered first touches are not scaled up as misses.
   */
  preloadL2(address: number, bytes: number): void {
    const l2 = this.l2;
    for (
      let sector = Math.floor(address / this.sectorBytes) * this.sectorBytes;
      sector < address + bytes;
      sector += this.sectorBytes
    ) {
      l2.access(l2.sliceOf(sector), sector);
      l2.store.setReady(l2.store.slot, l2.sectorOf(sector), 0);
    }
  }

  /** Totals, rates, busy times and the bounding resource of everything fed so far. */
  result(): MemoryPathResult {
    const makespanNs = this.requests === 0 ? 0 : this.lastDoneNs - this.firstIssueNs;
    const cycles = (ns: number): number => ns / this.nsPerCycle;
    const l1Misses = this.requests - this.l1Hits;
    const dram = this.dram;
    const dramRequests = dram.rowHits + dram.rowEmpty + dram.rowConflicts;
    const busy: Record<ResourceClass, ResourceBusy> = {
      l1: summarizeBusy(this.l1BusyNs, makespanNs),
      l2Slice: summarizeBusy(this.sliceBusyNs, makespanNs),
      dramBank: summarizeBusy(dram.bankBusyNs, makespanNs),
      dramChannel: summarizeBusy(dram.busBusyNs, makespanNs),
    };
    const busiest = (Object.keys(busy) as ResourceClass[]).reduce((a, b) =>
      busy[b].utilization > busy[a].utilization ? b : a,
    );
    const meanLatencyNs = this.requests === 0 ? 0 : this.latencySumNs / this.requests;
    return {
      profile: this.profile.name,
      sectorRequests: this.requests,
      makespanNs,
      makespanCycles: cycles(makespanNs),
      meanLatencyNs,
      meanLatencyCycles: cycles(meanLatencyNs),
      maxLatencyNs: this.maxLatencyNs,
      bytes: {
        l1ToSm: this.requests * this.sectorBytes,
        l2ToL1: l1Misses * this.sectorBytes,
        dramToL2: this.l2Misses * this.sectorBytes,
      },
      l1: {
        sectorHits: this.l1Hits,
        sectorMisses: l1Misses,
        sectorOnlyMisses: this.sectorOnlyMisses,
        hitRate: ratio(this.l1Hits, this.requests),
      },
      l2: {
        sectorHits: this.l2Hits,
        sectorMisses: this.l2Misses,
        hitRate: ratio(this.l2Hits, this.l2Hits + this.l2Misses),
      },
      dram: {
        requests: dramRequests,
        rowHits: dram.rowHits,
        rowEmpty: dram.rowEmpty,
        rowConflicts: dram.rowConflicts,
        rowHitRate: ratio(dram.rowHits, dramRequests),
      },
      busy,
      boundingResource: busy[busiest].utilization < LATENCY_BOUND_BELOW ? 'latency' : busiest,
    };
  }
}

/** Runs a whole trace (one batch, or an iterable of batches) on a fresh, cold GPU. */
export function simulateTrace(
  profile: GpuMemoryProfile,
  trace: MemoryTrace | Iterable<MemoryTrace>,
  options: SimulateOptions = {},
): MemoryPathResult {
  const simulator = new MemoryPathSimulator(profile, options);
  if (isTraceBatch(trace)) simulator.feed(trace);
  else for (const batch of trace) simulator.feed(batch);
  return simulator.result();
}

function isTraceBatch(trace: MemoryTrace | Iterable<MemoryTrace>): trace is MemoryTrace {
  return (trace as MemoryTrace).address instanceof Float64Array;
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

function summarizeBusy(busyNs: Float64Array, makespanNs: number): ResourceBusy {
  let max = 0;
  let busiest = 0;
  let sum = 0;
  for (let i = 0; i < busyNs.length; i++) {
    const value = busyNs[i]!;
    sum += value;
    if (value > max) {
      max = value;
      busiest = i;
    }
  }
  return {
    maxBusyNs: max,
    meanBusyNs: busyNs.length === 0 ? 0 : sum / busyNs.length,
    busiest,
    utilization: makespanNs === 0 ? 0 : max / makespanNs,
  };
}
