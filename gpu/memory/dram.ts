import type { DramSpec } from './profileTypes.ts';
import { log2Exact } from './sectoredCache.ts';

const TWO_POW_32 = 2 ** 32;

/** A number in [0, 1) from two integers (a 32-bit integer mix): where a refresh window falls. */
function unitHash(a: number, b: number): number {
  let x = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b | 0, 0xc2b2ae35);
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return ((x ^ (x >>> 16)) >>> 0) / TWO_POW_32;
}

/** Bytes one DRAM request moves: one L2 sector. */
export const DRAM_REQUEST_BYTES = 32;

/**
 * DRAM as channels × banks with an open-row buffer per bank and one data bus per channel.
 * A request occupies its bank for a column access (row hit), activate + column (row closed), or
 * precharge + activate + column (row conflict) — two activates of one bank at least tRC
 * (`rowCycleNs`) apart — then the channel bus for one burst (`accessBytes`, 32 by default) at the
 * channel's share of the bandwidth. A sector whose burst the same bank has just delivered (the
 * other half of a 64-byte HBM burst) costs neither bank nor bus time. A fixed latency on top is
 * chosen so that one request to an idle, closed bank takes exactly the profile's measured DRAM
 * load latency. With the profile's `refresh`, a read reaching a channel whose group is closed waits
 * for the window's end on top of that, and the fixed part is lowered by the mean wait, so a lone
 * read still averages the measured latency.
 */
export class DramModel {
  /** Row open in each bank (channel-major), −1 when closed. */
  private readonly openRow: Float64Array;
  private readonly bankFreeNs: Float64Array;
  private readonly busFreeNs: Float64Array;
  /** Accumulated busy time of each bank and each channel bus, ns. */
  readonly bankBusyNs: Float64Array;
  readonly busBusyNs: Float64Array;
  /** Bus time of one 32-byte transfer, ns. */
  readonly transferNs: number;
  /** Latency added after the bus transfer, ns. */
  readonly fixedNs: number;
  rowHits = 0;
  rowEmpty = 0;
  rowConflicts = 0;
  private readonly bankBits: number;
  private readonly bankMask: number;
  private readonly lastActivateNs: Float64Array;
  /** Burst (address / accessBytes) each bank delivered last, and when it reached the L2. */
  private readonly lastBurst: Float64Array;
  private readonly lastBurstDoneNs: Float64Array;
  private readonly rowCycleNs: number;
  private readonly accessBytes: number;
  /** A lone read's mean wait for refresh, ns, taken out of the fixed part. */
  readonly refreshMeanNs: number;

  constructor(
    readonly spec: DramSpec,
    smClockMHz: number,
  ) {
    this.bankBits = log2Exact(spec.banksPerChannel, 'DRAM banks per channel');
    this.bankMask = spec.banksPerChannel - 1;
    const banks = spec.channels * spec.banksPerChannel;
    this.openRow = new Float64Array(banks).fill(-1);
    this.bankFreeNs = new Float64Array(banks);
    this.bankBusyNs = new Float64Array(banks);
    this.busFreeNs = new Float64Array(spec.channels);
    this.busBusyNs = new Float64Array(spec.channels);
    this.lastActivateNs = new Float64Array(banks).fill(-Infinity);
    this.lastBurst = new Float64Array(banks).fill(-1);
    this.lastBurstDoneNs = new Float64Array(banks);
    this.rowCycleNs = spec.rowCycleNs ?? 0;
    this.accessBytes = spec.accessBytes ?? DRAM_REQUEST_BYTES;
    this.transferNs = (this.accessBytes * spec.channels) / spec.bandwidthGBps;
    const rowOpenNs = spec.activateNs + spec.columnNs + (spec.latencyWithOpenRows ? spec.prechargeNs : 0);
    const refresh = spec.refresh;
    this.refreshMeanNs = refresh ? (refresh.windowNs * refresh.windowNs) / (2 * refresh.intervalNs) : 0;
    this.fixedNs = (spec.latencyCycles * 1000) / smClockMHz - rowOpenNs - this.transferNs - this.refreshMeanNs;
    if (this.fixedNs < 0) throw new RangeError('DRAM latency is shorter than one activate + column access + transfer');
  }

  /** Bank (within its channel) of the byte at `address`: the XOR-fold of its window number. */
  bankOf(address: number): number {
    const window = Math.floor(address / this.spec.mapping.rowWindowBytes);
    let folded = 0;
    for (let x = window >>> 0; x !== 0; x >>>= this.bankBits) folded ^= x & this.bankMask;
    for (let x = Math.floor(window / TWO_POW_32) >>> 0; x !== 0; x >>>= this.bankBits) folded ^= x & this.bankMask;
    return folded;
  }

  /** Row (within its bank) of the byte at `address`. */
  rowOf(address: number): number {
    return Math.floor(Math.floor(address / this.spec.mapping.rowWindowBytes) / this.spec.banksPerChannel);
  }

  /**
   * How long a read reaching `channel` at `arrivalNs` waits for its group's refresh window to end.
   * A group's k-th window starts at a hashed point of its k-th interval, not at a fixed phase:
   * silicon's windows bunch and drift, and a strict period beats against the warps' own steps.
   */
  refreshWaitNs(channel: number, arrivalNs: number): number {
    const refresh = this.spec.refresh;
    if (!refresh) return 0;
    const group = Math.floor(channel / refresh.channelsPerWindow);
    const k = Math.floor(arrivalNs / refresh.intervalNs);
    const start = k * refresh.intervalNs + unitHash(group, k) * (refresh.intervalNs - refresh.windowNs);
    const into = arrivalNs - start;
    return into >= 0 && into < refresh.windowNs ? refresh.windowNs - into : 0;
  }

  /**
   * Serves one 32-byte read arriving at `arrivalNs` on `channel`; returns when its data reaches
   * the L2, ns. `extraNs` lengthens the fixed part (the far L2 partition's crossing).
   */
  access(channel: number, address: number, arrivalNs: number, extraNs = 0): number {
    const spec = this.spec;
    const bank = channel * spec.banksPerChannel + this.bankOf(address);
    const burst = Math.floor(address / this.accessBytes);
    if (this.accessBytes > DRAM_REQUEST_BYTES && this.lastBurst[bank] === burst) {
      this.rowHits++;
      return (
        Math.max(arrivalNs, this.lastBurstDoneNs[bank]!) +
        this.fixedNs +
        extraNs +
        this.refreshWaitNs(channel, arrivalNs)
      );
    }
    const row = this.rowOf(address);
    const open = this.openRow[bank]!;
    const bankStart = Math.max(arrivalNs, this.bankFreeNs[bank]!);
    let bankDone: number;
    if (open === row) {
      bankDone = bankStart + spec.columnNs;
      this.rowHits++;
    } else {
      const closeNs = open < 0 ? 0 : spec.prechargeNs;
      if (open < 0) this.rowEmpty++;
      else this.rowConflicts++;
      const activateNs = Math.max(bankStart + closeNs, this.lastActivateNs[bank]! + this.rowCycleNs);
      this.lastActivateNs[bank] = activateNs;
      bankDone = activateNs + spec.activateNs + spec.columnNs;
    }
    this.openRow[bank] = row;
    this.bankFreeNs[bank] = bankDone;
    this.bankBusyNs[bank]! += bankDone - bankStart;
    const busStart = Math.max(bankDone, this.busFreeNs[channel]!);
    const busDone = busStart + this.transferNs;
    this.busFreeNs[channel] = busDone;
    this.busBusyNs[channel]! += this.transferNs;
    this.lastBurst[bank] = burst;
    this.lastBurstDoneNs[bank] = busDone;
    return busDone + this.fixedNs + extraNs + this.refreshWaitNs(channel, arrivalNs);
  }
}
