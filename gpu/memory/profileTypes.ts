/**
 * The shape of a GPU memory-path profile. Every group of numbers carries a `source` that cites
 * `docs/reference/memory.md` (or the seed study, its §0) for each of its fields; numbers that are guesses are
 * also listed in the profile's `assumptions`.
 */

/** An L1 data cache per SM: `sets × ways` lines of `lineBytes`, filled per `sectorBytes` sector. */
export interface L1Spec {
  readonly sets: number;
  readonly ways: number;
  readonly lineBytes: number;
  readonly sectorBytes: number;
  /** Load-to-use latency of an L1 hit (pointer chase), SM cycles. */
  readonly hitLatencyCycles: number;
  /** Data the L1 delivers to its SM per SM cycle. */
  readonly bytesPerCycle: number;
  /** Parity masks of the set index, one per index bit (log2(sets) of them). */
  readonly setIndexMasks: readonly number[];
  /**
   * Sector misses one SM may have outstanding at once (its MSHRs / L1 miss queue, in 32-byte
   * sectors): a further miss waits until the oldest returns. Absent = no limit.
   */
  readonly missQueueSectors?: number;
  readonly source: string;
}

/**
 * A share of a partition's sets and how much of a contiguous buffer they keep: a cyclic walk
 * whose lines in the partition (its home lines and copies) fit in `keptMiB` stays there, a longer
 * one thrashes them (partitionSets.ts).
 */
export interface PartitionSetShare {
  readonly share: number;
  readonly keptMiB: number;
}

/**
 * GH100-style split L2: the SMs and the slices are divided among `count` partitions. Each
 * partition's sets hold the lines homed in its slices and copies of the other partitions' lines
 * that its SMs read, under one LRU (capacity: the L2 / count). A hit in the SM's own partition
 * costs the L2 hit latency; a line found only in its home partition costs `farExtraCycles` more
 * and crosses the inter-partition link; a DRAM read of a line homed in the other partition costs
 * farExtraCycles / 2 more than the mean DRAM latency, one homed in the SM's own partition as much
 * less.
 */
export interface L2PartitionSpec {
  readonly count: number;
  readonly farExtraCycles: number;
  /** Data the link from one partition to the other carries per SM cycle (each direction). */
  readonly linkBytesPerCycle: number;
  /**
   * How much of a buffer a partition's sets keep, by share of the set index (partitionSets.ts);
   * absent: every set keeps the L2's `ways` lines.
   */
  readonly setShares?: readonly PartitionSetShare[];
  /**
   * Two partitions only: a line's home is the parity of these byte-address bits, so aligned blocks
   * of 2^(lowest bit) bytes share one. Absent: the slice hash's top bits (its slice / slices per
   * partition). The line's slice within its partition and its DRAM channel stay the slice hash's.
   */
  readonly homeAddressBits?: readonly number[];
  readonly source: string;
}

/**
 * The L2 slice selector. A byte address is cut into granules, `g = floor(address / granuleBytes)`,
 * and g into `r = g mod modulus` and `q = floor(g / modulus)`; then
 * `slice = r + modulus · parity(q)`, each bit of parity(q) the XOR of the q bits in one mask.
 * The seed's RTX 4090 function has this shape (XOR parities with mod-3/mod-9 terms, and a set
 * index over `q = a // 1152`, i.e. line / 9); its complete masks are unknown, so they are
 * parameters. Slices = modulus · 2^parityMasks.length.
 */
export interface SliceHashSpec {
  readonly granuleBytes: number;
  readonly modulus: number;
  /** Parity masks over q (not over the byte address). */
  readonly parityMasks: readonly number[];
  readonly source: string;
}

/** The shared L2: address-hashed slices, each set-associative, 128-byte lines of 32-byte sectors. */
export interface L2Spec {
  readonly slices: number;
  readonly setsPerSlice: number;
  readonly ways: number;
  readonly lineBytes: number;
  readonly sectorBytes: number;
  /** Load-to-use latency of an L2 hit (pointer chase), SM cycles: the centre of the per-SM spread. */
  readonly hitLatencyCycles: number;
  /**
   * Half-width of the spread of L2 hit latency over (SM, slice) pairs, SM cycles: each pair gets a
   * fixed latency in hitLatencyCycles ± this (memory.md §1b: the L40's spans 222–339 cycles). 0 = uniform.
   */
  readonly hitLatencySpreadCycles: number;
  /** Sector data one slice returns per SM cycle. */
  readonly bytesPerCyclePerSlice: number;
  /** Slices in front of each DRAM channel: slice s misses go to channel floor(s / slicesPerChannel). */
  readonly slicesPerChannel: number;
  readonly sliceHash: SliceHashSpec;
  /** Parity masks over the slice hash's q giving the set index inside a slice (log2(setsPerSlice) of them). */
  readonly setIndexMasks: readonly number[];
  /**
   * Tag lookups one slice does per SM cycle: a request for s sectors of one line keeps the slice
   * max(1 / lookupsPerCyclePerSlice, s · 32 / bytesPerCyclePerSlice) cycles. Absent = data-bound only.
   */
  readonly lookupsPerCyclePerSlice?: number;
  readonly partitions?: L2PartitionSpec;
  readonly source: string;
}

/**
 * Where a byte lands in DRAM (its channel comes from its L2 slice): the address is cut into
 * windows of `rowWindowBytes` (one row per channel, so channels · rowBytes); a window's bank is
 * the XOR-fold of the window number into log2(banks) bits, its row the window number / banks.
 */
export interface DramMappingSpec {
  readonly rowWindowBytes: number;
  readonly source: string;
}

/** DRAM: channels × banks, an open-row buffer per bank, a data bus per channel. */
export interface DramSpec {
  readonly channels: number;
  readonly banksPerChannel: number;
  readonly rowBytes: number;
  /** Peak bandwidth of all channels together, GB/s (10^9 bytes per second). */
  readonly bandwidthGBps: number;
  /** Load-to-use latency of a DRAM access (pointer chase, idle memory), SM cycles. */
  readonly latencyCycles: number;
  /** Bank time of a column access to the open row (a row hit), ns. */
  readonly columnNs: number;
  /** Bank time to open a row (activate), ns. */
  readonly activateNs: number;
  /** Bank time to close the open row (precharge), ns; a row conflict pays it plus activate. */
  readonly prechargeNs: number;
  /**
   * Whether `latencyCycles` was measured on banks with other rows open (a random walk after other
   * traffic: precharge + activate + column), rather than on closed banks.
   */
  readonly latencyWithOpenRows?: boolean;
  /** Shortest time between two activates of one bank (tRC), ns. Absent = activate + precharge. */
  readonly rowCycleNs?: number;
  /**
   * Bytes one DRAM burst moves (access granularity): a 32-byte sector read moves this many bytes
   * over the bus unless the other sectors of the same burst were read just before from that bank.
   * Absent = 32.
   */
  readonly accessBytes?: number;
  /** Refresh: windows in which a read waits for the window's end. Absent = none. */
  readonly refresh?: DramRefreshSpec;
  readonly mapping: DramMappingSpec;
  readonly source: string;
}

/**
 * DRAM refresh as the read's own wait: the channels fall into groups of `channelsPerWindow`, each
 * group closed for `windowNs` once every `intervalNs`, at a hashed point of each interval of its own
 * (DramModel.refreshWaitNs). A read that reaches a closed group waits for the window's end; it keeps
 * its place on the bank and the bus.
 */
export interface DramRefreshSpec {
  /** How long a group stays closed (tRFC), ns. */
  readonly windowNs: number;
  /** One window of each group in every interval (tREFI), ns. */
  readonly intervalNs: number;
  /** Channels that one window closes at once. */
  readonly channelsPerWindow: number;
  readonly source: string;
}

/** The SMs that issue loads. */
export interface SmSpec {
  readonly count: number;
  readonly clockMHz: number;
  /**
   * Cycles from the last load of a warp's step returning to the warp's next load issuing (wake-up
   * on the scoreboard, the consuming instructions, loop and address arithmetic, the register
   * write-back of a 512-byte warp load): the part of a streaming step a pointer chase's latency
   * does not contain, after a step that read DRAM. Absent = 0.
   */
  readonly loadStepCycles?: number;
  /**
   * The same turn-around after a step that read no DRAM (its loads all hit on chip): silicon's
   * lone warp turns around ≈ 60 cycles after an L2 hit and ≈ 108 after DRAM, so a step's
   * turn-around depends on the level that served it. Absent = loadStepCycles.
   */
  readonly l2HitStepCycles?: number;
  /**
   * Thread data one sub-core's load/store unit takes in per SM cycle: a warp load of 32 × 16 B
   * keeps it 512 / this cycles, so one warp's independent loads leave the SM this far apart and the
   * four sub-cores together accept 4 × this bytes per cycle. Absent = no limit.
   */
  readonly lsuBytesPerCyclePerSubCore?: number;
  /** How the SMs group into GPCs, whose crossbar ports their L2 traffic shares; absent: no port. */
  readonly gpcs?: GpcSpec;
  readonly source: string;
}

/**
 * GPCs (smTopology.ts): TPCs of `smsPerTpc` SMs dealt to `count` GPCs in turn; each GPC's SMs
 * share one port to the L2 that carries `portBytesPerCycle` of their data per SM cycle.
 */
export interface GpcSpec {
  readonly count: number;
  readonly smsPerTpc: number;
  readonly portBytesPerCycle: number;
  readonly source: string;
}

/** One named GPU: everything the memory path model needs. */
export interface GpuMemoryProfile {
  readonly name: string;
  readonly title: string;
  readonly sm: SmSpec;
  readonly l1: L1Spec;
  readonly l2: L2Spec;
  readonly dram: DramSpec;
  /** Every number above that is a guess or a stand-in for an unknown function, said in words. */
  readonly assumptions: readonly string[];
}
