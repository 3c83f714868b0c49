import { UserError } from '../../common/errors.ts';
import { foldedSliceMasks, xorFoldMasks } from './parityHash.ts';
import type { GpuMemoryProfile } from './profileTypes.ts';

/**
 * Named GPU memory-path profiles, as data. `memory.md §x` cites docs/reference/memory.md;
 * "seed" is the RTX 4090 L1/L2/DRAM study (summarized in docs/reference/memory.md §0), whose numbers memory.md §0
 * could not verify. The seed gives only fragments of its slice and set functions (its masks are
 * over mixed terms we cannot complete), so every profile uses the seed's *shape* — a mod term and
 * parities of q = line / modulus — with XOR-fold masks; see SliceHashSpec.
 */

const RTX4090_L2_MASKS = foldedSliceMasks(2, 10);
const AD102_FULL_L2_MASKS = foldedSliceMasks(4, 10);
const H200_L2_MASKS = foldedSliceMasks(5, 8);
const FOLDED_MASKS_SOURCE =
  "parityMasks and setIndexMasks: XOR-fold of q that is a bijection on q's low bits (foldedSliceMasks), a stand-in for masks the seed " +
  'gives only in part (memory.md §0: "slice hash … set_index … remain unverified"); assumption.';

/** The L40 (AD102, 142 SMs, 96 MB L2, GDDR6: the RTX 6000 Ada's die and configuration), measured at 2,490 MHz. */
const L40_BENCHES = 'memory.md §1f, RRZE-HPC gpu-benches on an L40 at 2,490 MHz';

const LINE = 128;
const SECTOR = 32;
const LINE_SECTOR_SOURCE =
  'lineBytes/sectorBytes: 128-byte lines of four 32-byte sectors, sector-granular fills (memory.md §0, NVIDIA forum 49571; §5).';

const rtx4090: GpuMemoryProfile = {
  name: 'rtx4090',
  title: 'GeForce RTX 4090 (AD102, 128 of 144 SMs, 72 MB L2, 1008 GB/s GDDR6X)',
  sm: {
    count: 128,
    clockMHz: 2520,
    loadStepCycles: 100,
    l2HitStepCycles: 60,
    lsuBytesPerCyclePerSubCore: 24,
    source:
      'count 128 SMs, clockMHz 2520 boost (memory.md §2a pcspecchart; §5). loadStepCycles 100, l2HitStepCycles 60 and lsuBytesPerCyclePerSubCore 24: ' +
      "the H200's, calibrated on its silicon (h200-silicon.md §1), taken over for Ada's SM (assumption: no Ada measurement; the L40's one-load-per-thread " +
      "stream of memory.md §1f retires a block per load, so it does not give a warp's turn-around).",
  },
  l1: {
    sets: 128,
    ways: 8,
    lineBytes: LINE,
    sectorBytes: SECTOR,
    hitLatencyCycles: 36,
    bytesPerCycle: 64,
    setIndexMasks: xorFoldMasks(7, 7),
    missQueueSectors: 384 * 4,
    source:
      'ways 8: seed ("8-way set-associative"). sets 128: 128 KB L1+smem per SM (memory.md §2a, §5) / (8 ways × 128 B), i.e. no shared-memory carve-out ' +
      '(assumption; shrink with withL1DataBytes). ' +
      LINE_SECTOR_SOURCE +
      ` hitLatencyCycles 36: the L40's pointer walk, 36.0–36.3 cycles at 8–84 kB (${L40_BENCHES}, gpu-latency/l40.txt; the AD102 SM is the same on every card); ` +
      'markdewing measured 40 on an RTX 4090 with unlocked clocks and says his L1 figures run a few cycles above RRZE-HPC (memory.md §1a). ' +
      'bytesPerCycle 64: the L40 re-reading an L1-resident buffer with 4-byte loads, one block of 256 threads per SM, delivers 22,620 GB/s = 64.0 B per SM cycle ' +
      '(gpu-cache/l40.txt; V100/A100/H100 reach ≈ 128 with the same program, its README). On GA102 the same limit shows as 2 cycles per warp load of 1–3 lines ' +
      "(A40, gpu-strides/a40.txt), i.e. an instruction rate; the model's per-sector port reproduces the coalesced row and charges wider warp loads more. setIndexMasks: XOR-fold of line-address " +
      "bits stands in for the seed's parity function, whose masks are not given (memory.md §0). " +
      'missQueueSectors 1536 = 384 MSHR entries × 4 sectors (Accel-Sim SM89_RTX4060_LAPTOP dl1 A:384:48, memory.md §3b).',
  },
  l2: {
    slices: 36,
    setsPerSlice: 1024,
    ways: 16,
    lineBytes: LINE,
    sectorBytes: SECTOR,
    hitLatencyCycles: 296,
    hitLatencySpreadCycles: 0,
    bytesPerCyclePerSlice: 1536 / 36,
    slicesPerChannel: 3,
    sliceHash: {
      granuleBytes: LINE,
      modulus: 9,
      parityMasks: RTX4090_L2_MASKS.parityMasks,
      source:
        "modulus 9 and 2 parity bits: the seed's `_state` (a mod-9 term and parities P1, P2 pick one of 36 slices); granuleBytes 128 " +
        "and q = line / 9: the seed's set_index works on q = a // 1152 = a // (9 · 128). " +
        FOLDED_MASKS_SOURCE,
    },
    setIndexMasks: RTX4090_L2_MASKS.setIndexMasks,
    source:
      "slices 36 = 12 controllers × 3 (seed; unverified, memory.md §0, where an Nsight note counts 48). setsPerSlice 1024: the seed's " +
      'set_index has 10 bits b0..b9. ways 16: seed. 36 × 1024 × 16 × 128 B = 72 MiB, the 72 MB of memory.md §2a. ' +
      LINE_SECTOR_SOURCE +
      ' hitLatencyCycles 296 (memory.md §1a); hitLatencySpreadCycles 0: no per-SM data for this card (memory.md §1b has the L40 only). bytesPerCyclePerSlice = 1536 B/cycle theoretical L2 (memory.md §2a, Nsight note) / 36. ' +
      'slicesPerChannel 3 (seed). setIndexMasks: see sliceHash.',
  },
  dram: {
    channels: 12,
    banksPerChannel: 16,
    rowBytes: 1024,
    bandwidthGBps: 1008,
    latencyCycles: 636,
    columnNs: 3.4,
    activateNs: 23.8,
    prechargeNs: 23.8,
    mapping: {
      rowWindowBytes: 1024 * 12,
      source:
        'rowWindowBytes = rowBytes × channels: one row per channel per window (assumption; the real map is not found, memory.md §6).',
    },
    source:
      'channels 12 × 32-bit, bandwidthGBps 1008 = 384 bit × 21 Gb/s / 8 (memory.md §2a). latencyCycles 636 (memory.md §1a). ' +
      'rowBytes 1024: seed (1 KiB rows, not found elsewhere, memory.md §0). banksPerChannel 16: Accel-Sim GDDR6 nbk=16 (memory.md §3a; ' +
      "GDDR6X bank count not found, §6). columnNs 3.4: seed (≈3.4 ns per read in an open row). activateNs + prechargeNs = 47.6: the seed's " +
      '"a new row costs ≈15×" (15 × 3.4 − 3.4), split evenly between precharge and activate (assumption).',
  },
  assumptions: [
    'L1 holds the full 128 KB (no shared-memory carve-out); kernels that use shared memory should call withL1DataBytes.',
    'L1 port 64 B per SM cycle per sector (the L40 measures it with 4-byte coalesced loads; wider loads unmeasured); 1536 sectors of misses outstanding per SM (Accel-Sim MSHRs).',
    "SM load pace (warp turn-around 100 cycles after DRAM, 60 after an L2 hit; 24 B per cycle per sub-core load/store unit): the H200's calibration.",
    'L1 set index: XOR-fold of line-address bits (the seed says parity; its masks are not published).',
    "L2 slice = (line mod 9) + 9 · (2 parities of q = line / 9), set = 10 parities of q: the seed's shape with XOR-fold masks.",
    'L2 runs at the SM clock; each slice returns 1536/36 B per cycle (theoretical, not the ≈2/3 measured).',
    'DRAM: 16 banks per channel; rows of 1 KiB; row conflict = precharge 23.8 ns + activate 23.8 ns + column 3.4 ns.',
    'DRAM map: 12 KiB windows, bank = XOR-fold of the window number, row = window / banks.',
    'Addresses are physical (the L1 is virtually indexed per the seed; the model does not translate).',
  ],
};

const rtx6000ada: GpuMemoryProfile = {
  name: 'rtx6000ada',
  title: "RTX 6000 Ada Generation (AD102, 142 SMs, 96 MB L2, 960 GB/s GDDR6) — the paper's GPU",
  sm: {
    count: 142,
    clockMHz: 2505,
    source:
      'count 142 SMs (memory.md §2b grafikkarten; L40 also 142, §1b). clockMHz 2505 boost (memory.md §2b cputronic, 3P; grafikkarten says 2535). ' +
      "loadStepCycles 100, l2HitStepCycles 60 and lsuBytesPerCyclePerSubCore 24: the H200's, calibrated on its silicon (h200-silicon.md §1), taken over (assumption).",
    loadStepCycles: 100,
    l2HitStepCycles: 60,
    lsuBytesPerCyclePerSubCore: 24,
  },
  l1: {
    ...rtx4090.l1,
    source:
      "The AD102 SM of the RTX 4090 (memory.md §2b); its hit latency and port rate are the L40's, this card's die and configuration: " +
      rtx4090.l1.source,
  },
  l2: {
    slices: 48,
    setsPerSlice: 1024,
    ways: 16,
    lineBytes: LINE,
    sectorBytes: SECTOR,
    hitLatencyCycles: 279,
    hitLatencySpreadCycles: 58.5,
    bytesPerCyclePerSlice: 43.5,
    slicesPerChannel: 4,
    sliceHash: {
      granuleBytes: LINE,
      modulus: 3,
      parityMasks: AD102_FULL_L2_MASKS.parityMasks,
      source:
        "modulus 3 (the seed's mod-3 term) and 4 parity bits give 48 slices; the full-AD102 function is not known (assumption). " +
        'granuleBytes 128: assumption. ' +
        FOLDED_MASKS_SOURCE,
    },
    setIndexMasks: AD102_FULL_L2_MASKS.setIndexMasks,
    source:
      'slices 48 = 12 controllers × 4, slicesPerChannel 4: the seed says L40S (AD102, full L2) has 4 slices per controller (not found, memory.md §2b) and an ' +
      'Nsight note counts 48 L2 units on AD102 (memory.md §0). setsPerSlice 1024 and ways 16 as measured on the RTX 4090 (seed); ' +
      '48 × 1024 × 16 × 128 B = 96 MiB, the 96 MB of memory.md §2b. ' +
      LINE_SECTOR_SOURCE +
      ' hitLatencyCycles 279 and hitLatencySpreadCycles 58.5: the L40 ' +
      '(same die, 142 SMs) spans 222–339 cycles by SM, "not a constant near 279" (memory.md §1b); (222 + 339) / 2 − 279 = 1.5 cycles is ignored; ' +
      `one SM's walk on the L40 reads 276.5 cycles from 0.2 to 27 MB and 278.9–282.7 up to 87 MB, with no step of a far partition (${L40_BENCHES}, gpu-latency/l40.txt). ` +
      'bytesPerCyclePerSlice 43.5: all SMs reading an L2-resident buffer on the L40 reach 5,100–5,330 GB/s from 1.5 to 92 MB (≈ 5,200 = 2,088 B per cycle at 2,490 MHz, ' +
      'gpu-l2-cache/l40.txt), / 48 slices; it was 32, the "32 B × 8 × 6" Nsight figure of the RTX 4090 (memory.md §2a), which the L40 exceeds by 36 %. ' +
      'The L2 holds the full 96 MB: the same program falls to DRAM speed only past 98 MB. setIndexMasks: see sliceHash.',
  },
  dram: {
    channels: 12,
    banksPerChannel: 16,
    rowBytes: 2048,
    bandwidthGBps: 960,
    latencyCycles: 253.7 * 2.505,
    latencyWithOpenRows: true,
    columnNs: 4 / 3.5005,
    activateNs: 24 / 3.5005,
    prechargeNs: 24 / 3.5005,
    mapping: {
      rowWindowBytes: 2048 * 12,
      source:
        'rowWindowBytes = rowBytes × channels (assumption, as for rtx4090; the real map is not found, memory.md §6).',
    },
    source:
      'channels 12 × 32-bit (384-bit bus) and bandwidthGBps 960 = 384 × 20 Gb/s / 8 (memory.md §2b). ' +
      `latencyCycles 635.5 = 253.7 ns at 2,505 MHz: the L40's pointer walk over 702 MB, 631.7 cycles at 2,490 MHz (${L40_BENCHES}, gpu-latency/l40.txt; ` +
      "the same die with GDDR6 at 18 instead of 20 Gb/s), a random walk, so on banks with other rows open (latencyWithOpenRows); the RTX 4090's 636 cycles (memory.md §1a) agree. " +
      'GDDR6 per Accel-Sim (memory.md §3a): banksPerChannel 16 (nbk=16), rowBytes 2048 ' +
      '(6 column bits × 32 B), activateNs = tRCD 24 cy, prechargeNs = tRP 24 cy, columnNs = tCCD 4 cy, all at the 3500.5 MHz command clock.',
  },
  assumptions: [
    'L1 as on the RTX 4090 (same AD102 SM): 128 KB, 8 ways, no carve-out, 1536 sectors of misses outstanding per SM; hit latency and port rate measured on the L40.',
    "SM load pace (warp turn-around 100 cycles after DRAM, 60 after an L2 hit; 24 B per cycle per sub-core load/store unit): the H200's calibration.",
    '48 L2 slices (4 per controller), 1024 sets × 16 ways each; slice = (line mod 3) + 3 · (4 parities of line / 3), XOR-fold masks.',
    "L2 hit latency: 279 ± 58.5 cycles (the L40's 222–339), fixed per (SM, slice) pair but drawn uniformly: the real geometry is unknown.",
    'DRAM latency 253.7 ns, measured on the L40 (same die, GDDR6 at 18 Gb/s), not on this card.',
    "GDDR6 timing and 2 KiB rows from Accel-Sim's GDDR6 configs (RTX 3070 / RTX 4060 laptop).",
    'DRAM map: 24 KiB windows, bank = XOR-fold of the window number, row = window / banks.',
    'Addresses are physical.',
  ],
};

const h200: GpuMemoryProfile = {
  name: 'h200',
  title: 'H200 SXM (GH100, 132 SMs, HBM3e 4.8 TB/s)',
  sm: {
    count: 132,
    clockMHz: 1980,
    loadStepCycles: 100,
    l2HitStepCycles: 60,
    lsuBytesPerCyclePerSubCore: 24,
    gpcs: {
      count: 8,
      smsPerTpc: 2,
      portBytesPerCycle: 635,
      source:
        'gpu/probes/l2Partitions.cu gpcmap and streamsms on the H200 (gpu/probes/README.md, "Twelfth batch"): thread block clusters of 2–16 blocks, one per SM, ' +
        'join the SMs into 8 GPCs (up to 16 clusters of 16 fit 7 at once); TPC t (SMs 2t, 2t + 1) lies in GPC t mod 8 for t < 32, and each of the GPCs the clusters join has all its SMs in one L2 partition, ' +
        'which smmap on two other H200s matches: SMs 2t and 2t + 1 always share a partition, and the first 16 / 32 / 64 SMs split 8 / 16 / 32 between the partitions. ' +
        "portBytesPerCycle 635: one GPC's SMs streaming 24 MiB from the L2 read 1.25–1.27 TB/s (median 1,257 GB/s = 635 B × 1.98 GHz), and one SM of each of its TPCs the same 1.23–1.24, where one SM alone reads 172 GB/s and two 344.",
    },
    source:
      'count 132 SMs, clockMHz 1980 (memory.md §2c, §3c Accel-Sim clock_domains, §5; h200-silicon.md: 132 SMs at 1,980 MHz under load). ' +
      'loadStepCycles 100: one warp per SM with one 16-byte load per thread in flight streams 172 GB/s, i.e. 393 ns per step, against the ' +
      "≈ 340 ns the path model gives that step (a 4-line load's slowest line, near and far homes): the difference, ≈ 50 ns, is the warp's own turn-around after DRAM (h200-silicon.md §1; calibration). " +
      "l2HitStepCycles 60: the same lone warp reading 4–32 MiB from the L2 steps in 350 cycles against the 288–293 of the chase's near L2 hit at those sizes (gpu/probes/README.md, fourth batch: l2Partitions one load in flight), " +
      'i.e. it turns around ≈ 60 cycles after an L2 hit where it needs ≈ 108 after DRAM (measurement). ' +
      'lsuBytesPerCyclePerSubCore 24: with 4 loads in flight instead of 1 a lone warp needs ≈ 100 ns more per step (548 vs 172 GB/s for 4× the bytes, h200-silicon.md §1), ' +
      "i.e. its LDG.128s leave ≈ 21 cycles apart = 512 B / 24 B per cycle; 4 sub-cores × 24 B stay under the L1's 128 B per cycle (calibration). " +
      "Read off runs of three rounds; over 40 µs the model's lone warp gains ≈ 65 ns, not 100 (the 1 × 4 row +9.5 %, a known miss). The rest is not the load unit's: a slower pace would cap one SM below the 181 GB/s it reads from the L2 with one load out a warp, and on one SM alone an H100's four-out step is 32 cycles longer than its one-out step where the model's is 64 (gpu/probes/README.md, thirty-first batch; docs/system-model.md, the streams' length).",
  },
  l1: {
    sets: 256,
    ways: 8,
    lineBytes: LINE,
    sectorBytes: SECTOR,
    hitLatencyCycles: 40,
    bytesPerCycle: 128,
    setIndexMasks: xorFoldMasks(8, 7),
    missQueueSectors: 1424,
    source:
      'sets 256 × ways 8 × 128 B = 256 KB unified L1 per SM, no carve-out (memory.md §2c, §5); 8 ways as measured on Ada (seed; assumption). ' +
      LINE_SECTOR_SOURCE +
      ' hitLatencyCycles 40: H200 warm chase 39.7 cycles at 8–192 KiB (h200-silicon.md §1; H100 SXM 40, memory.md §1a). bytesPerCycle 128: assumption. setIndexMasks: XOR-fold (assumption). ' +
      'missQueueSectors 1424 (44.5 KiB): gpu/probes/l2Partitions.cu streamsms, one SM streaming 1 GiB from DRAM with 64 warps × 4 loads of 512 B a step, reads 136.8 GB/s (results/2026-12-04c/tpcStreams.txt; one TPC 135.7 a SM, two TPCs 136.7), where it reads 172 GB/s from the L2: ' +
      "with these loops the SM keeps ≈ 44 KiB of sectors out. 1424 = 89 of the stream's 16-sector warp loads is where the model's one SM reads it (137.0 GB/s at a mean latency of 326 ns). " +
      "It is the loops' pace, not a queue: an H100's SM (the same GH100 SM; these loops read there as on the H200) keeps 128 KiB out and reads 236.7 GB/s when the same 64 warps × 4 issue in whole steps (l2Partitions smdepth, results/2026-12-05j; docs/system-model.md, a warp's loads out); kept as the calibration of the probes' loops (calibration). " +
      "Accel-Sim's 512 MSHR entries × 4 sectors (SM90_H200 dl1 A:512:64, memory.md §3c) read 186 GB/s, the load/store units' bound.",
  },
  l2: {
    slices: 96,
    setsPerSlice: 256,
    ways: 20,
    lineBytes: LINE,
    sectorBytes: SECTOR,
    hitLatencyCycles: 287.6,
    hitLatencySpreadCycles: 0,
    bytesPerCyclePerSlice: 48,
    lookupsPerCyclePerSlice: 0.79,
    slicesPerChannel: 2,
    partitions: {
      count: 2,
      farExtraCycles: 171.1,
      linkBytesPerCycle: 641,
      setShares: [
        { share: 0.25, keptMiB: 27.5 },
        { share: 0.04, keptMiB: 28.5 },
        { share: 0.2, keptMiB: 30.5 },
        { share: 0.105, keptMiB: 31.5 },
        { share: 0.235, keptMiB: 32.5 },
        { share: 0.06, keptMiB: 33.5 },
        { share: 0.11, keptMiB: 35 },
      ],
      homeAddressBits: [12, 13, 15, 17, 19, 21, 22, 24],
      source:
        "Each partition's sets hold its home lines and its copies under one LRU: gpu/probes/l2Partitions.cu streamsms on the H200 (results/2026-12-04b): " +
        'the 66 SMs of one partition reading 40–56 MiB get 49–54 % of the bytes from DRAM and 46–49 % across the fabric (Nsight Compute), the lines homed in their own partition lost with the copies; ' +
        "the single walk of l2Replacement.cu (results/2026-12-02d) beyond 36 MiB: half its loads at ≈ 460 cycles (far hits), half at ≈ 550 (its own partition's lines from DRAM), the latter kept when the far half goes to DRAM at 60–64 MiB. " +
        'setShares: the same walk sends the same lines away in every pass (again in the next pass 88–99 % of the time, from 28 MiB on; the same shares with another permutation): ' +
        'sets that overflow before others. Share leaving by footprint 0 (≤ 27 MiB, 1–4 % noise), 0.25 (28), 0.28 (29), 0.29 (30), 0.49 (31), 0.59 (32), 0.82 (33), 0.89 (34), 1 (36); ' +
        'each step is a share of the sets kept up to the midpoint between the two footprints (35 for the last, whose step spans 34–36). Σ share × kept = 30.9 MiB a partition. ' +
        "count 2: GH100 has two L2 partitions (Accel-Sim SM90_H200 n_chiplet_partition 2, memory.md §3c; Ampere split L2 with far hits copied near, §1c); l2Partitions.cu smmap: 66 of the 132 SMs share SM 0's. " +
        'Which SMs: whole GPCs (sm.gpcs); smmap on four H200s splits the first 16 / 32 / 64 SMs 8 / 16 / 32 between the partitions, and a 64-block grid of stcLifetime.cu lands 30–34 of its blocks in each (results/2026-12-04/blocksSms.tgz, on either of two maps). ' +
        'farExtraCycles 171.1: smmap, an SM of the other partition walking 4 MiB that SM 0 walked: 381.3 cycles a load on its first pass against 295.8 on its second, half its lines homed far: 2 × (381.3 − 295.8); another H200, 4 and 16 MiB: 171.3. ' +
        'homeAddressBits: the maps of which lines one partition serves near, far and from DRAM (gpu/probes/homeMap.py on results/2026-12-04i and 2026-12-04h, "The sixteenth batch\'s maps read again"): a 4 KiB block\'s lines share a home, ' +
        "within each 2 MiB page the parity of address bits 12, 13, 15, 17 and 19 (99.8 % of the blocks, the same in every run's fresh buffer), flipped page by page by a constant that bits 21, 22 and 24 give in 24 of 28 pages; " +
        "the model's buffers are contiguous, so the page bits stand in for the physical pages. " +
        "linkBytesPerCycle 641 per direction: one partition's SMs streaming 40–64 MiB read 2.55–3.03 TB/s with 41–50 % of the sectors across the fabric, 1.23–1.28 TB/s (median 1.27) = 641 B × 1.98 GHz.",
    },
    sliceHash: {
      granuleBytes: LINE,
      modulus: 3,
      parityMasks: H200_L2_MASKS.parityMasks,
      source:
        'modulus 3 and 5 parity bits give 96 slices; Accel-Sim uses "IPOLY_Modulo for non-2^k partition count" and says "we don\'t know ' +
        'L2 address mapping" (memory.md §3c). granuleBytes 128: assumption. ' +
        FOLDED_MASKS_SOURCE,
    },
    setIndexMasks: H200_L2_MASKS.setIndexMasks,
    source:
      'slices 96 = 48 channels × 2 sub-partitions, setsPerSlice 256, ways 20 (Accel-Sim SM90_H200 dl2 S:256:128:20, memory.md §3c) = 60 MiB, ' +
      'the full-die size Accel-Sim models; the enabled H200 L2 size is not found (memory.md §2c, §6; H100 SXM5 enables 50 MB). ' +
      LINE_SECTOR_SOURCE +
      ' hitLatencyCycles 287.6: H200 warm chase at 2 and 16 MiB (h200-silicon.md §1; H100 SXM 291, memory.md §1a); hitLatencySpreadCycles 0: no per-SM data (memory.md §1b is the L40 only). ' +
      'bytesPerCyclePerSlice 48: gpu/probes/l2Partitions.cu on the H200 (2026-12-02, gpu/probes/README.md) reads 8.2–8.7 TB/s for every L2-resident footprint of 8–52 MiB, fixed or rotating, and the same from 4 blocks × 1 load in flight to 8 × 8 per SM: a throughput ceiling, 8.5 TB/s / 96 slices / 1.98 GHz ≈ 45 B/cycle of data, 48 with the imbalance of the slice hash (the L2 program of gpu-benches: 9.7 TB/s; the 12.35 TB/s of the harness at 24 MiB exceeds every L2-only reading, docs/system-model.md). ' +
      'lookupsPerCyclePerSlice 0.79: random and stride-128 4-byte loads over 16 MiB (L2-resident) reach 149–151 G requests/s = 0.79 per slice per cycle (h200-silicon.md §1 sector throughput). ' +
      'slicesPerChannel 2 (Accel-Sim n_sub_partition_per_mchannel, §3c). setIndexMasks: see sliceHash.',
  },
  dram: {
    channels: 48,
    banksPerChannel: 32,
    rowBytes: 1024,
    bandwidthGBps: 4800,
    latencyCycles: 672.4,
    columnNs: 6 / 3.106,
    activateNs: 37 / 3.106,
    prechargeNs: 37 / 3.106,
    latencyWithOpenRows: true,
    rowCycleNs: 124 / 3.106,
    accessBytes: 64,
    refresh: {
      windowNs: 262.6,
      intervalNs: 3230,
      channelsPerWindow: 4,
      source:
        'windowNs 262.6: the H200\'s walk over 36–52 MiB, whose DRAM reads spread flat up to ≈ 520 cycles past their peak (gpu/probes/README.md, "DRAM\'s tail"). ' +
        "intervalNs 3230: an H100's trace of single reads (thirty-second batch, gpu/probes/README.md): 0.25 % of reads a 16-cycle bin over the 29 bins of its 234.3-ns window, 7.25 % of reads arrive inside a window, one every 234.3 / 0.0725 ns; " +
        "the H200 keeps it (no H200 trace is taken): HBM3's refresh interval is one for every die density, where tRFC grows with it (Ramulator 2.0's HBM3 table: tREFI 3.9 µs, tRFC 260–350 ns for 4–8 Gb). " +
        "channelsPerWindow 4: an H100's reads on other SMs wait in a read's window as if a tenth of DRAM shares it (thirty-fourth batch), one of its ten 512-bit memory controllers; the H200 has twelve (six HBM3e stacks of two each, docs/reference/memory.md §2c), 48 / 12 = 4 of the model's channels.",
    },
    mapping: {
      rowWindowBytes: 1024 * 48,
      source:
        'rowWindowBytes = rowBytes × channels (assumption, as for rtx4090; the real map is not found, memory.md §6).',
    },
    source:
      'bandwidthGBps 4800: 4.8 TB/s HBM3e (memory.md §2c; 6 × 1024 bit × 6.2 Gb/s = 4762 derived). channels 48 (Accel-Sim n_mem, §3c). ' +
      'latencyCycles 672.4: H200 cold chase over 1 GiB (h200-silicon.md §1; H100 HBM3 700, memory.md §1a), measured after streaming 4 GiB, so on banks with other rows open (latencyWithOpenRows). banksPerChannel 32: two 16-bank pseudo-channels ' +
      'per channel (HBM3 organization; assumption, Accel-Sim models nbk=16, memory.md §3c). rowBytes 1024: one HBM3 row (page) is 64 columns × 128 bits = 1 KiB in the HBM3 organization presets of Ramulator 2.0 (github.com/CMU-SAFARI/ramulator2, src/dram/impl/HBM3.cpp: Co 1<<6, DQ 128; the density check 2 Gb holds); it was 2048, the GDDR6 map of §3a, under which one-sector-per-line reads over 1 GiB found twice the row hits silicon allows (stride-128 row: 66.2 G/s model, 58.4 silicon; now 60.4). ' +
      "activateNs = tRCD 37 cy, prechargeNs = tRP 37 cy, rowCycleNs = tRC 124 cy at 3106 MHz: Accel-Sim's H100 HBM3 timing line " +
      '(memory.md §3c; its H200 line, tRC 50 cy = 16 ns, is below any DRAM row cycle); columnNs = CCDL 6 cy, the column-to-column time within one bank group, which back-to-back reads of one bank pay (Accel-Sim H200 line). With 48 × 32 banks, tRC bounds random reads at 1536 / 39.9 ns = 38.5 G/s ' +
      '(the 1 GiB random row: 39.1 G/s, h200-silicon.md §1). accessBytes 64: an HBM3 pseudo-channel is 64 bits wide with burst length 8 (derived; assumption).',
  },
  assumptions: [
    'L1: 256 KB, 8 ways (the way count measured on Ada), no carve-out.',
    "L2 organized as Accel-Sim's 96 × 256 sets × 20 ways = 60 MiB (the driver of the measured H200 reports 62,914,560 B = 60 MiB).",
    "L2 partitions: each holds its home lines and copies of what its SMs read from the other under one LRU (≈ 30.9 MiB in shares that overflow at 27.5–35 MiB, measured); which lines the real policy keeps when both partitions' SMs read more than they hold, and the hash, are not published.",
    'L2 slice: 48 B per cycle (the l2Partitions probe) and 0.79 tag lookups per cycle (the sector rows), both read off H200 measurements (not a published figure).',
    'DRAM: 32 banks per channel and 64-byte bursts (HBM3 pseudo-channels); the DRAM latency is the mean of lines homed near (−85.55 cycles) and far (+85.55).',
    "DRAM refresh: four of the 48 channels closed at once (one of twelve memory controllers, read off an H100's tenth), at a hashed point of each 3.23-µs interval (an H100's, the H200's not measured); which channels a controller holds is not known.",
    'SM miss queue: 1424 sectors outstanding per SM, read off one SM streaming from DRAM (not a published figure).',
    "L2 slice = (line mod 3) + 3 · (5 parities of line / 3), XOR-fold masks: a stand-in, not GH100's function.",
    "HBM3 timings from Accel-Sim's H100 line (tRCD = tRP = 11.9 ns, tRC = 39.9 ns) for HBM3e.",
    'DRAM map: 48 KiB windows (1 KiB HBM3 rows × 48 channels), bank = XOR-fold of the window number, row = window / banks.',
    'Addresses are physical.',
  ],
};

/** Every profile by name, in the order `gen memsim --help` lists them. */
export const GPU_MEMORY_PROFILES: Readonly<Record<string, GpuMemoryProfile>> = { rtx4090, rtx6000ada, h200 };

/** The profile called `name`; a UserError naming the choices otherwise. */
export function memoryProfile(name: string): GpuMemoryProfile {
  const profile = GPU_MEMORY_PROFILES[name];
  if (!profile)
    throw new UserError(`unknown GPU profile '${name}' (choose ${Object.keys(GPU_MEMORY_PROFILES).join(', ')})`);
  return profile;
}

/**
 * The profile with an L1 of `bytes` (what is left after the shared-memory carve-out): the set count
 * and index stay, the way count shrinks, as when the unified L1/shared array is split.
 */
export function withL1DataBytes(profile: GpuMemoryProfile, bytes: number): GpuMemoryProfile {
  const ways = Math.floor(bytes / (profile.l1.sets * profile.l1.lineBytes));
  if (ways < 1) throw new UserError(`L1 of ${bytes} bytes holds less than one way of ${profile.l1.sets} sets`);
  return {
    ...profile,
    l1: {
      ...profile.l1,
      ways,
      source: `${profile.l1.source} ways reduced to ${ways} for a ${bytes}-byte L1 data carve-out.`,
    },
  };
}
