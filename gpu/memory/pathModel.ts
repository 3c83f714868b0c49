import { channelSampleOf } from './channelSample.ts';
import { compileParityHash, type AddressHash } from './parityHash.ts';
import { DramModel } from './dram.ts';
import { L1Caches } from './l1Cache.ts';
import { L2Cache, l2HitLatencyCycles } from './l2Cache.ts';
import { withL1DataBytes } from './profiles.ts';
import type { GpuMemoryProfile, L2PartitionSpec } from './profileTypes.ts';
import { PartitionSets } from './partitionSets.ts';
import { smGpcs, smPartitions } from './smTopology.ts';
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
  /**
   * Simulate only the requests homed on about 1 in `channelSample` DRAM channels (channelSample.ts;
   * default 1 = all): the others are dropped before the L1, and each simulated sector holds the
   * SM's L1 and the partition link for 1 / fraction sectors' time, as the dropped ones would.
   */
  readonly channelSample?: number;
  /**
   * Keep each SM's outstanding misses for `missQueueFreeAt` (default false). Only a driver that asks
   * before each load (warpLoop.ts) can wait for the queue; requests fed without asking cannot, so
   * the books would change nothing for them and are not kept.
   */
  readonly trackMissQueue?: boolean;
}

/** First come, first served on one instance of a resource: when a job arriving at `arrivalNs` starts; books its service. */
function startOn(
  freeNs: Float64Array,
  busyNs: Float64Array,
  index: number,
  arrivalNs: number,
  serviceNs: number,
): number {
  const start = Math.max(arrivalNs, freeNs[index]!);
  freeNs[index] = start + serviceNs;
  busyNs[index]! += serviceNs;
  return start;
}

/**
 * A line's home partition from its address bits (L2PartitionSpec.homeAddressBits), or undefined
 * where the profile leaves homes to the slice hash. Throws on a spec the parity cannot serve.
 */
function homeByAddress(partitions: L2PartitionSpec, lineBytes: number): AddressHash | undefined {
  const bits = partitions.homeAddressBits;
  if (bits === undefined) return undefined;
  if (partitions.count !== 2) throw new RangeError(`homeAddressBits needs 2 L2 partitions, not ${partitions.count}`);
  const lowest = Math.log2(lineBytes);
  const bad = bits.find((bit, i) => !Number.isInteger(bit) || bit < lowest || bit > 52 || bits.indexOf(bit) !== i);
  if (bad !== undefined || bits.length === 0)
    throw new RangeError(
      `homeAddressBits must be distinct address bits ${lowest} … 52, one or more (got ${bad ?? 'none'})`,
    );
  return compileParityHash([bits.reduce((mask, bit) => mask + 2 ** bit, 0)]);
}

/** A kind of queued resource in the path. */
export type ResourceClass = 'l1' | 'missQueue' | 'gpcPort' | 'l2Slice' | 'l2Link' | 'dramBank' | 'dramChannel';

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
  /** farHits: hits found only in the line's home partition across the link (0 without partitions). */
  readonly l2: {
    readonly sectorHits: number;
    readonly sectorMisses: number;
    readonly hitRate: number;
    readonly farHits: number;
  };
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
  /** Per L2 slice, whether its requests are simulated (undefined: all are). */
  private readonly sampledSlices: Uint8Array | undefined;
  /** Per DRAM channel, 1 when simulated. */
  readonly sampledChannels: Uint8Array;
  /** Simulated channels / all channels. */
  readonly channelFraction: number;
  /** Per DRAM channel, the latest completion of a request homed on it, ns. */
  private readonly channelDoneNs: Float64Array;
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
  /** Slice time of one tag lookup, ns (0: data-bound only). */
  private readonly lookupNs: number;
  /** The line of the current trace entry whose L2 lookup was charged, and its sectors in the entry. */
  private lookupLine = -1;
  private entrySectorsOfLine = 1;
  /** Per SM, completion times of its outstanding sector misses (a binary min-heap, `missCount` long). */
  private readonly missHeap: Float64Array[];
  private readonly missCount: Int32Array;
  private readonly missQueueSectors: number;
  /** The profile has a miss queue that this simulator keeps no books of (SimulateOptions.trackMissQueue). */
  private readonly missQueueUntracked: boolean;
  private readonly missWaitNs: Float64Array;
  /** Per SM, how often its outstanding misses changed, and missQueueFreeAt's last reply (for that count of changes and sectors). */
  private readonly missHeapChanges: Int32Array;
  private readonly freeAtChanges: Int32Array;
  private readonly freeAtSectors: Int32Array;
  private readonly freeAtNs: Float64Array;
  /** Scratch for the k-th outstanding miss (kthSmallest). */
  private readonly frontier: Int32Array;
  /** Each SM's GPC and each GPC's port to the L2 (a sector's time on it, ns; 0: no port). */
  private readonly gpcOfSm: Int32Array;
  private readonly gpcServiceNs: number;
  private readonly gpcFreeNs: Float64Array;
  private readonly gpcBusyNs: Float64Array;
  /** Split L2: each partition's sets (its home lines and copies; instance = partition), the SMs' partition, link queues. */
  private readonly partitionSets: PartitionSets | undefined;
  private readonly partitionOfSm: Int32Array;
  /** A line's home partition by its address bits (L2PartitionSpec.homeAddressBits); absent: by its slice. */
  private readonly homeOf: AddressHash | undefined;
  private readonly slicesPerPartition: number;
  private readonly farExtraNs: number;
  private readonly linkServiceNs: number;
  private readonly linkFreeNs: Float64Array;
  private readonly linkBusyNs: Float64Array;
  private farHits = 0;
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
    const sample = channelSampleOf(l2, options.channelSample ?? 1);
    this.sampledSlices = sample.fraction < 1 ? sample.slices : undefined;
    this.sampledChannels = sample.channels;
    this.channelFraction = sample.fraction;
    this.channelDoneNs = new Float64Array(sample.channels.length).fill(-Infinity);
    this.l1ServiceNs = ((l1.sectorBytes / l1.bytesPerCycle) * this.nsPerCycle) / sample.fraction;
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
    this.lookupNs = l2.lookupsPerCyclePerSlice ? this.nsPerCycle / l2.lookupsPerCyclePerSlice : 0;
    this.missQueueSectors = options.trackMissQueue ? (this.profile.l1.missQueueSectors ?? Infinity) : Infinity;
    this.missQueueUntracked = !options.trackMissQueue && this.profile.l1.missQueueSectors !== undefined;
    const heapSize = Number.isFinite(this.missQueueSectors) ? this.missQueueSectors : 0;
    this.missHeap = Array.from({ length: sm.count }, () => new Float64Array(heapSize));
    this.missCount = new Int32Array(sm.count);
    this.missWaitNs = new Float64Array(sm.count);
    this.missHeapChanges = new Int32Array(sm.count);
    this.freeAtChanges = new Int32Array(sm.count).fill(-1);
    this.freeAtSectors = new Int32Array(sm.count);
    this.freeAtNs = new Float64Array(sm.count);
    this.frontier = new Int32Array(2 * heapSize + 2);
    this.gpcOfSm = smGpcs(sm);
    this.gpcServiceNs = sm.gpcs
      ? ((l2.sectorBytes / sm.gpcs.portBytesPerCycle) * this.nsPerCycle) / sample.fraction
      : 0;
    this.gpcFreeNs = new Float64Array(sm.gpcs?.count ?? 1);
    this.gpcBusyNs = new Float64Array(sm.gpcs?.count ?? 1);
    const partitions = l2.partitions;
    const count = partitions?.count ?? 1;
    this.slicesPerPartition = l2.slices / count;
    this.partitionOfSm = smPartitions(this.profile);
    this.farExtraNs = (partitions?.farExtraCycles ?? 0) * this.nsPerCycle;
    this.linkServiceNs = partitions
      ? ((l2.sectorBytes / partitions.linkBytesPerCycle) * this.nsPerCycle) / sample.fraction
      : 0;
    this.linkFreeNs = new Float64Array(count);
    this.linkBusyNs = new Float64Array(count);
    if (partitions) {
      if (l2.slices % count !== 0) throw new RangeError(`${l2.slices} L2 slices do not split into ${count} partitions`);
      this.homeOf = homeByAddress(partitions, l2.lineBytes);
      this.partitionSets = new PartitionSets(
        count,
        partitions.setShares ?? [
          { share: 1, keptMiB: (l2.slices / count) * ((l2.setsPerSlice * l2.ways * l2.lineBytes) / 2 ** 20) },
        ],
        l2.lineBytes,
        l2.sectorBytes,
      );
    }
  }

  /** Sectors read from DRAM so far (L2 misses): the warp loop's turn-around depends on them. */
  get dramReads(): number {
    return this.l2Misses;
  }

  /**
   * Runs one request of `bytes` bytes at `address` from `sm`, issued at `issueNs`, after everything
   * fed before; returns when its last sector reaches the SM, ns. The closed-loop drivers
   * (warpLoop.ts, the kernel model) call it in time order. `cacheGlobal`: an `ld.global.cg`,
   * which passes the L1 (its port and miss queue) without looking it up or filling it.
   */
  request(sm: number, address: number, bytes: number, issueNs: number, cacheGlobal = false): number {
    const sectorBytes = this.sectorBytes;
    const lastSector = Math.floor((address + bytes - 1) / sectorBytes) * sectorBytes;
    this.entryLine = -1;
    this.lookupLine = -1;
    let done = issueNs;
    const sampled = this.sampledSlices;
    for (let sector = Math.floor(address / sectorBytes) * sectorBytes; sector <= lastSector; sector += sectorBytes) {
      if (sampled !== undefined && sampled[this.l2.sliceOf(sector)] === 0) continue;
      const lineStart = Math.floor(sector / this.lineBytes) * this.lineBytes;
      const from = Math.max(lineStart, Math.floor(address / sectorBytes) * sectorBytes);
      this.entrySectorsOfLine = (Math.min(lastSector + sectorBytes, lineStart + this.lineBytes) - from) / sectorBytes;
      done = Math.max(done, this.load(sm, sector, issueNs, cacheGlobal));
    }
    return done;
  }

  /**
   * When `sm` may issue a load of `sectors` sector misses at or after `timeNs` without exceeding
   * its miss queue: `timeNs` if the slots are free, else the earliest outstanding miss's return
   * (ask again then). The closed-loop drivers hold a warp's load until then, so requests still
   * reach the path in time order; the model itself never reorders.
   */
  missQueueFreeAt(sm: number, timeNs: number, sectors: number): number {
    if (this.missQueueUntracked)
      throw new Error(`${this.profile.name}'s miss queue is not tracked: build the simulator with trackMissQueue`);
    if (!Number.isFinite(this.missQueueSectors)) return timeNs;
    const count = this.dropReturnedMisses(sm, timeNs);
    if (count === 0 || count + sectors <= this.missQueueSectors) return timeNs;
    // The SM's other waiting warps ask the same of the same misses: answer them from the last reply.
    if (this.freeAtChanges[sm] === this.missHeapChanges[sm] && this.freeAtSectors[sm] === sectors)
      return this.freeAtNs[sm]!;
    // Nothing on this SM issues before then (its other warps wait for slots too), so the
    // outstanding misses only drain: the load fits once the earliest `need` of them are back.
    const need = Math.min(count, count + sectors - this.missQueueSectors);
    const freeAt = kthSmallest(this.missHeap[sm]!, count, need, this.frontier);
    this.freeAtChanges[sm] = this.missHeapChanges[sm]!;
    this.freeAtSectors[sm] = sectors;
    this.freeAtNs[sm] = freeAt;
    return freeAt;
  }

  /** Books `ns` of waiting for a miss-queue slot to `sm` (reported as the missQueue resource). */
  recordMissQueueWait(sm: number, ns: number): void {
    this.missWaitNs[sm]! += ns;
  }

  /** Keeps the miss-queue books of `sm` at `timeNs` (drops returned misses). */
  private missSlot(sm: number, timeNs: number): number {
    if (!Number.isFinite(this.missQueueSectors)) return timeNs;
    const heap = this.missHeap[sm]!;
    const count = this.dropReturnedMisses(sm, timeNs);
    // A trace fed open-loop may exceed the queue; the oldest entry is then forgotten (no delay).
    if (count >= heap.length) {
      this.missCount[sm] = heapPop(heap, count);
      this.missHeapChanges[sm]!++;
    }
    return timeNs;
  }

  /** Drops the misses of `sm` that have returned by `timeNs` (counting the change); returns how many remain. */
  private dropReturnedMisses(sm: number, timeNs: number): number {
    const heap = this.missHeap[sm]!;
    let count = this.missCount[sm]!;
    if (count > 0 && heap[0]! <= timeNs) {
      this.missHeapChanges[sm]!++;
      while (count > 0 && heap[0]! <= timeNs) count = heapPop(heap, count);
      this.missCount[sm] = count;
    }
    return count;
  }

  /** Records that a miss of `sm` that took a slot completes at `doneNs`. */
  private missDone(sm: number, doneNs: number): void {
    if (!Number.isFinite(this.missQueueSectors)) return;
    this.missCount[sm] = heapPush(this.missHeap[sm]!, this.missCount[sm]!, doneNs);
    this.missHeapChanges[sm]!++;
  }

  /** Runs one batch of requests (after any fed before). */
  feed(trace: MemoryTrace): void {
    const { sm, address, bytes, time } = trace;
    const smCount = this.profile.sm.count;
    for (let i = 0; i < trace.length; i++) {
      const smId = sm[i]!;
      if (smId >= smCount)
        throw new RangeError(`trace entry ${i}: SM ${smId} does not exist on ${this.profile.name} (${smCount} SMs)`);
      this.request(smId, address[i]!, bytes[i]!, time[i]! * this.nsPerCycle);
    }
  }

  /** Nanoseconds per SM cycle of this profile. */
  get cycleNs(): number {
    return this.nsPerCycle;
  }

  /** One 32-byte sector request through the path; returns when it reaches the SM, ns. */
  private load(sm: number, address: number, issueNs: number, cacheGlobal: boolean): number {
    this.requests++;
    const l1Start = Math.max(issueNs, this.l1FreeNs[sm]!);
    this.l1FreeNs[sm] = l1Start + this.l1ServiceNs;
    this.l1BusyNs[sm]! += this.l1ServiceNs;
    const l1 = this.l1;
    const l1Outcome = cacheGlobal ? LINE_MISS : l1.access(sm, address);
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
      const missStart = this.missSlot(sm, l1Start);
      doneNs = this.loadFromL2(sm, address, this.gpcStart(sm, missStart), line);
      const channel = this.l2.channelOf(this.l2.sliceOf(address));
      if (doneNs > this.channelDoneNs[channel]!) this.channelDoneNs[channel] = doneNs;
      this.missDone(sm, doneNs);
      if (!cacheGlobal) l1.store.setReady(l1Slot, l1Sector, doneNs);
    }
    const latency = doneNs - issueNs;
    this.latencySumNs += latency;
    if (latency > this.maxLatencyNs) this.maxLatencyNs = latency;
    if (issueNs < this.firstIssueNs) this.firstIssueNs = issueNs;
    if (doneNs > this.lastDoneNs) this.lastDoneNs = doneNs;
    return doneNs;
  }

  /** Queues a sector on its SM's GPC port; returns when it may go on to the L2. */
  private gpcStart(sm: number, arrivalNs: number): number {
    if (this.gpcServiceNs === 0) return arrivalNs;
    return startOn(this.gpcFreeNs, this.gpcBusyNs, this.gpcOfSm[sm]!, arrivalNs, this.gpcServiceNs);
  }

  /** Queues a sector on `slice`: its data time, or its share of one tag lookup if that is longer. */
  private sliceStart(slice: number, arrivalNs: number, line: number): number {
    let service = this.l2ServiceNs;
    if (this.lookupNs > 0) {
      if (line !== this.lookupLine) this.lookupLine = line;
      service = Math.max(service, this.lookupNs / this.entrySectorsOfLine);
    }
    return startOn(this.sliceFreeNs, this.sliceBusyNs, slice, arrivalNs, service);
  }

  /** An L1 sector miss: the slice's queue, then a hit or a DRAM read. Returns when the data reaches the SM. */
  private loadFromL2(sm: number, address: number, arrivalNs: number, line: number): number {
    const l2 = this.l2;
    const slice = l2.sliceOf(address);
    const sets = this.partitionSets;
    if (sets === undefined) {
      const start = this.sliceStart(slice, arrivalNs, line);
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
    // Split L2: each partition's sets hold the lines homed there and copies of the other
    // partition's lines that its SMs read, under one LRU (gpu/probes/README.md, "Eleventh
    // batch"). The SM's own partition first (its copy or its home line sits in the slice of the
    // same index there), then the line's home partition across the link, then DRAM. A line homed
    // in the SM's partition that its sets lost comes from DRAM.
    const partition = this.partitionOfSm[sm]!;
    const perPartition = this.slicesPerPartition;
    const nearSlice = (slice % perPartition) + partition * perPartition;
    const start = this.sliceStart(nearSlice, arrivalNs, line);
    const sector = l2.sectorOf(address);
    const home = this.homeOf ? this.homeOf(address) : Math.floor(slice / perPartition);
    if (sets.access(partition, address) === HIT) {
      this.l2Hits++;
      return Math.max(start + this.l2LatencyNs[sm * this.slices + nearSlice]!, sets.readyAt(sector));
    }
    const nearSlot = sets.slot;
    let doneNs: number;
    if (home !== partition && sets.access(home, address) === HIT) {
      this.l2Hits++;
      this.farHits++;
      const linkStart = this.linkStart(home, start);
      doneNs = Math.max(
        linkStart +
          this.l2LatencyNs[sm * this.slices + (slice % perPartition) + home * perPartition]! +
          this.farExtraNs,
        sets.readyAt(sector),
      );
    } else {
      this.l2Misses++;
      // The DRAM channel stays the slice hash's: which channel serves a line is not measured,
      // and nothing here depends on the channel's partition.
      const extraNs = home === partition ? -this.farExtraNs / 2 : this.farExtraNs / 2;
      const arrival = home === partition ? start : this.linkStart(home, start);
      doneNs = this.dram.access(l2.channelOf(slice), address, arrival, extraNs);
      // The home partition's fill, then the copy near.
      if (home !== partition) sets.setReady(sector, doneNs);
    }
    sets.setReady(sector, doneNs, nearSlot);
    return doneNs;
  }

  /** Queues a sector on the link out of partition `from`; returns when it may go. */
  private linkStart(from: number, arrivalNs: number): number {
    return startOn(this.linkFreeNs, this.linkBusyNs, from, arrivalNs, this.linkServiceNs);
  }

  /**
   * The spread of the simulated channels' last completions: (latest − earliest) / (latest −
   * first issue), over the channels that served a request (0 with fewer than two). A channel
   * sample stands for the unsimulated channels only while the simulated ones finish together.
   */
  channelSpread(): number {
    let earliest = Infinity;
    let latest = -Infinity;
    for (const [channel, done] of this.channelDoneNs.entries()) {
      if (this.sampledChannels[channel] === 0 || done === -Infinity) continue;
      earliest = Math.min(earliest, done);
      latest = Math.max(latest, done);
    }
    return latest > earliest ? (latest - earliest) / (latest - this.firstIssueNs) : 0;
  }

  /** Time SM `sm` waited for a free miss-queue slot so far, ns. */
  missQueueWaitNs(sm: number): number {
    return this.missWaitNs[sm]!;
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
      missQueue: summarizeBusy(this.missWaitNs, makespanNs),
      gpcPort: summarizeBusy(this.gpcBusyNs, makespanNs),
      l2Slice: summarizeBusy(this.sliceBusyNs, makespanNs),
      l2Link: summarizeBusy(this.linkBusyNs, makespanNs),
      dramBank: summarizeBusy(dram.bankBusyNs, makespanNs),
      dramChannel: summarizeBusy(dram.busBusyNs, makespanNs),
    };
    // Miss-queue "busy" is waiting time summed over SMs, not occupancy: it names the bound only
    // when no real resource is busy half the time and some SM had to wait for a free slot.
    const busiest = (Object.keys(busy) as ResourceClass[])
      .filter((name) => name !== 'missQueue')
      .reduce((a, b) => (busy[b].utilization > busy[a].utilization ? b : a));
    const waited = busy.missQueue.maxBusyNs > 0;
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
        farHits: this.farHits,
      },
      dram: {
        requests: dramRequests,
        rowHits: dram.rowHits,
        rowEmpty: dram.rowEmpty,
        rowConflicts: dram.rowConflicts,
        rowHitRate: ratio(dram.rowHits, dramRequests),
      },
      busy,
      boundingResource: busy[busiest].utilization >= LATENCY_BOUND_BELOW ? busiest : waited ? 'missQueue' : 'latency',
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

/**
 * The `k`-th smallest value (k ≥ 1) of the min-heap `heap[0 … count)`, without changing it: a
 * best-first walk from the root over a frontier of heap indices (`scratch`, ≥ 2k + 1 long), k log k.
 */
function kthSmallest(heap: Float64Array, count: number, k: number, scratch: Int32Array): number {
  scratch[0] = 0;
  let size = 1;
  for (let taken = 1; ; taken++) {
    const top = scratch[0]!;
    if (taken === k) return heap[top]!;
    // Pop the frontier's minimum, then add its children.
    const last = scratch[--size]!;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const c = r < size && heap[scratch[r]!]! < heap[scratch[l]!]! ? r : l;
      if (heap[scratch[c]!]! >= heap[last]!) break;
      scratch[i] = scratch[c]!;
      i = c;
    }
    if (size > 0) scratch[i] = last;
    const left = 2 * top + 1;
    if (left < count) size = frontierPush(heap, scratch, size, left);
    if (left + 1 < count) size = frontierPush(heap, scratch, size, left + 1);
  }
}

/** Adds heap index `index` to kthSmallest's frontier (a min-heap of indices by value, `size` long); returns the new size. */
function frontierPush(heap: Float64Array, scratch: Int32Array, size: number, index: number): number {
  let i = size;
  const value = heap[index]!;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[scratch[parent]!]! <= value) break;
    scratch[i] = scratch[parent]!;
    i = parent;
  }
  scratch[i] = index;
  return size + 1;
}

// The two below move a hole rather than swap, writing each moved value once: every sector miss of
// every SM passes through them (a sixth of a stream's run; the hole saves about 3 % of it).

/** Pushes `value` on the min-heap `heap[0 … count)`; returns the new count. */
function heapPush(heap: Float64Array, count: number, value: number): number {
  let i = count;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent]! <= value) break;
    heap[i] = heap[parent]!;
    i = parent;
  }
  heap[i] = value;
  return count + 1;
}

/** Removes the minimum of the min-heap `heap[0 … count)`; returns the new count. */
function heapPop(heap: Float64Array, count: number): number {
  const last = count - 1;
  const value = heap[last]!;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= last) break;
    const r = l + 1;
    const c = r < last && heap[r]! < heap[l]! ? r : l;
    if (heap[c]! >= value) break;
    heap[i] = heap[c]!;
    i = c;
  }
  heap[i] = value;
  return last;
}
