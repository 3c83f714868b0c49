/**
 * A compact, column-oriented trace of global loads. SpMM traces hold 10^6–10^7 sector requests,
 * so each field is a typed-array column instead of an object per access. Addresses are byte
 * addresses below 2^53 (Float64Array holds them exactly); times are SM issue cycles.
 */

/** A batch of load requests; entry i is (sm[i], address[i], bytes[i], time[i]). All loads. */
export interface MemoryTrace {
  readonly length: number;
  /** The issuing SM, 0 … sm count − 1. */
  readonly sm: Uint16Array;
  /** Byte address of the first byte requested. */
  readonly address: Float64Array;
  /** Bytes requested from `address` on (1 … 128; the model touches every 32-byte sector they cover). */
  readonly bytes: Uint8Array;
  /** Issue time, SM cycles. */
  readonly time: Float64Array;
}

/** The largest request one trace entry may carry: one 128-byte line, e.g. a fully coalesced warp LDG.32. */
export const MAX_REQUEST_BYTES = 128;

/** Grows typed-array columns as requests are pushed; `build()` returns the filled prefix. */
export class TraceBuilder {
  private sm: Uint16Array;
  private address: Float64Array;
  private bytes: Uint8Array;
  private time: Float64Array;
  private count = 0;

  constructor(initialCapacity = 1024) {
    const capacity = Math.max(1, initialCapacity);
    this.sm = new Uint16Array(capacity);
    this.address = new Float64Array(capacity);
    this.bytes = new Uint8Array(capacity);
    this.time = new Float64Array(capacity);
  }

  /** Requests pushed so far. */
  get length(): number {
    return this.count;
  }

  /** Appends one load of `bytes` bytes at `address`, issued by `sm` at cycle `time`. */
  push(sm: number, address: number, bytes: number, time: number): void {
    if (!(bytes >= 1 && bytes <= MAX_REQUEST_BYTES) || !Number.isSafeInteger(address) || address < 0) {
      throw new RangeError(
        `bad trace request: address ${address}, ${bytes} bytes (1…${MAX_REQUEST_BYTES} bytes, address a safe integer ≥ 0)`,
      );
    }
    if (this.count === this.sm.length) this.grow();
    const i = this.count++;
    this.sm[i] = sm;
    this.address[i] = address;
    this.bytes[i] = bytes;
    this.time[i] = time;
  }

  /** The trace pushed so far (views of the builder's arrays; push no more after building). */
  build(): MemoryTrace {
    const n = this.count;
    return {
      length: n,
      sm: this.sm.subarray(0, n),
      address: this.address.subarray(0, n),
      bytes: this.bytes.subarray(0, n),
      time: this.time.subarray(0, n),
    };
  }

  private grow(): void {
    const capacity = this.sm.length * 2;
    const sm = new Uint16Array(capacity);
    sm.set(this.sm);
    const address = new Float64Array(capacity);
    address.set(this.address);
    const bytes = new Uint8Array(capacity);
    bytes.set(this.bytes);
    const time = new Float64Array(capacity);
    time.set(this.time);
    this.sm = sm;
    this.address = address;
    this.bytes = bytes;
    this.time = time;
  }
}

/**
 * The trace with its entries in issue-time order (stable: ties keep their order). The model
 * serves each resource first-come-first-served in trace order, so traces generated per SM or per
 * warp should be merged by time with this before simulation.
 */
export function sortedByTime(trace: MemoryTrace): MemoryTrace {
  const { time } = trace;
  let ordered = true;
  for (let i = 1; i < trace.length && ordered; i++) ordered = time[i - 1]! <= time[i]!;
  if (ordered) return trace;
  const sorted = Array.from({ length: trace.length }, (_, i) => i).sort((a, b) => time[a]! - time[b]! || a - b);
  return {
    length: trace.length,
    sm: Uint16Array.from(sorted, (i) => trace.sm[i]!),
    address: Float64Array.from(sorted, (i) => trace.address[i]!),
    bytes: Uint8Array.from(sorted, (i) => trace.bytes[i]!),
    time: Float64Array.from(sorted, (i) => time[i]!),
  };
}
