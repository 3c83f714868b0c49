import type { DramSpec } from './profileTypes.ts';
import { log2Exact } from './sectoredCache.ts';

const TWO_POW_32 = 2 ** 32;

/** Bytes one DRAM request moves: one L2 sector. */
export const DRAM_REQUEST_BYTES = 32;

/**
 * DRAM as channels × banks with an open-row buffer per bank and one data bus per channel.
 * A request occupies its bank for a column access (row hit), activate + column (row closed), or
 * precharge + activate + column (row conflict), then the channel bus for 32 bytes at the
 * channel's share of the bandwidth. A fixed latency on top is chosen so that one request to an
 * idle, closed bank takes exactly the profile's measured DRAM load latency.
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
    this.transferNs = (DRAM_REQUEST_BYTES * spec.channels) / spec.bandwidthGBps;
    this.fixedNs = (spec.latencyCycles * 1000) / smClockMHz - spec.activateNs - spec.columnNs - this.transferNs;
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

  /** Serves one 32-byte read arriving at `arrivalNs` on `channel`; returns when its data reaches the L2, ns. */
  access(channel: number, address: number, arrivalNs: number): number {
    const spec = this.spec;
    const bank = channel * spec.banksPerChannel + this.bankOf(address);
    const row = this.rowOf(address);
    const open = this.openRow[bank]!;
    let cost: number;
    if (open === row) {
      cost = spec.columnNs;
      this.rowHits++;
    } else if (open < 0) {
      cost = spec.activateNs + spec.columnNs;
      this.rowEmpty++;
    } else {
      cost = spec.prechargeNs + spec.activateNs + spec.columnNs;
      this.rowConflicts++;
    }
    this.openRow[bank] = row;
    const bankStart = Math.max(arrivalNs, this.bankFreeNs[bank]!);
    const bankDone = bankStart + cost;
    this.bankFreeNs[bank] = bankDone;
    this.bankBusyNs[bank]! += cost;
    const busStart = Math.max(bankDone, this.busFreeNs[channel]!);
    const busDone = busStart + this.transferNs;
    this.busFreeNs[channel] = busDone;
    this.busBusyNs[channel]! += this.transferNs;
    return busDone + this.fixedNs;
  }
}
