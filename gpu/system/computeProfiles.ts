import { UserError } from '../../common/errors.ts';

/**
 * The SM-side numbers the system model needs beside the memory path (gpu/memory/profiles.ts):
 * issue, shared memory, registers, tensor throughput, the host link. Keyed by the same profile
 * names. Every number cites its source or says it is an assumption.
 */
export interface ComputeProfile {
  /** Warp schedulers (sub-cores) per SM, each issuing one warp instruction per cycle. */
  readonly schedulersPerSm: number;
  /** Shared memory a thread-block may use per SM (the carve-out maximum), bytes. */
  readonly sharedMemoryBytesPerSm: number;
  /** Shared-memory wavefronts per cycle per SM: 32 banks × 4 B = 128 B per wavefront. */
  readonly sharedWavefrontsPerCycle: number;
  /** 32-bit registers per SM. */
  readonly registersPerSm: number;
  /**
   * How many of the project's MmaUnits (docs/spec.md §4.2: 128 MACs per cycle per sub-core) one sub-core's
   * tensor hardware equals on this GPU — the paper scales its Volta-derived core "to the
   * throughput of each generation" (the paper, §3.3).
   */
  readonly mmaUnitsPerSubCore: number;
  /** Cycles of a block-wide barrier (__syncthreads) with all warps arriving together. */
  readonly barrierCycles: number;
  /** Host-to-device bandwidth for offloaded weights (paper Fig. 23), GB/s. */
  readonly pcieGBps: number;
  /** Fixed cost of launching the split-K reduction kernel after the main kernel, ns. */
  readonly reductionLaunchNs: number;
  /**
   * What a timed launch adds to the kernel's own time as the reference measurements saw it
   * (CUDA-event timing around launches), ns; 0 where the reference timed kernels alone.
   */
  readonly launchNs: number;
  /**
   * How many copies of the weights the reference measurements' timed launches take in turn (each
   * launch reads the next copy), where they do: a launch then finds in the L2 what it kept of its
   * copy over the other copies' launches (timingModel.ts). Absent: every launch reads its weights
   * from DRAM.
   */
  readonly rotatingCopies?: number;
  /**
   * Line requests (one per 128-byte line a warp load touches) an SM's L1 takes per cycle: an
   * uncoalesced warp load of 32 lines keeps it 32 / this cycles, whatever its sectors.
   */
  readonly l1LinesPerCycle: number;
  /**
   * The dense baseline as the vendor library runs it, where it was profiled: the share of the
   * DRAM's peak its kernel reads at (whatever the shape; its memory time is its bytes at that
   * rate), and the time of the separate reduction kernel it launches when it splits K, ns. Absent:
   * the dense kernel is only the path model's cp.async streamer, and its split-K reduction is
   * charged like the other kernels'.
   */
  readonly denseLibrary?: { readonly dramEfficiency: number; readonly splitKReductionNs: number };
  /**
   * Whether the blocks of a register-staged kernel (Flash-LLM, Coruscant, STC) burst their tile
   * loads in lockstep, so that a block's last load arrives only when the DRAM has delivered the
   * whole grid's burst (timingModel.ts `burstDrainCycles`): measured where true, see `source`.
   */
  readonly burstsInLockstep: boolean;
  /**
   * The SM clock while a kernel issues the tensor cores' mma.sync, MHz, where it differs from the
   * memory profile's clock (`sm.clockMHz`, at which the memory path's cycles were measured).
   * Every kernel modelled here issues them, so their SM-side cycles last this long.
   */
  readonly tensorClockMHz?: number;
  /** SM cycles per scattered 16-bit warp store when the SM's shared-store path, not a warp's own loop, sets the pace (storePath.ts). */
  readonly scatteredStoreCycles?: number;
  /**
   * SM cycles a warp spends per step of the software kernel's Algorithm 1 loop, measured, by the
   * blocks its SM holds: [one, two, three] (the last entry also for more). Absent: the assumed chain,
   * kernelCosts.ts ALGORITHM1_CHAIN_PER_STEP, for every residency.
   */
  readonly algorithm1StepCycles?: readonly number[];
  /**
   * SM cycles a register-staged block (Flash-LLM, Coruscant, STC) spends beyond its iterations:
   * its first tile (the prologue, which nothing of its own overlaps) and its end (the last tile's
   * MMAs, the partial sums through shared memory to global memory), where measured. The blocks
   * of a round start and end together, so an SM pays it once per round. Absent: one idle DRAM
   * round trip for the first load, once per kernel.
   */
  readonly blockStartEndCycles?: number;
  /**
   * What a timed launch adds to a register-staged kernel's blocks' span where it was measured (its
   * event time less the span from its first block's start to its last block's end: the launch, and
   * the last warps' stores), ns. Absent: `launchNs`.
   */
  readonly spanLaunchNs?: number;
  readonly source: string;
}

const ADA: ComputeProfile = {
  schedulersPerSm: 4,
  sharedMemoryBytesPerSm: 100 * 1024,
  sharedWavefrontsPerCycle: 1,
  registersPerSm: 65536,
  mmaUnitsPerSubCore: 1,
  barrierCycles: 24,
  pcieGBps: 31.5,
  reductionLaunchNs: 2000,
  launchNs: 0,
  l1LinesPerCycle: 0.57,
  burstsInLockstep: false,
  source:
    'schedulersPerSm 4 and registersPerSm 65536: every SM since Volta (4 SMSPs, 64 K 32-bit registers; GPGPU-Sim configs, docs/reference/facts.md §3). ' +
    'sharedMemoryBytesPerSm 100 KB: the largest CC 8.9 carve-out (memory.md §2a). sharedWavefrontsPerCycle 1 (32 banks × 4 B, memory.md §2d; one wavefront per cycle: assumption). ' +
    'mmaUnitsPerSubCore 1: AD102 FP16-with-FP32-accumulate tensor throughput is 128 FMA per cycle per SMSP (RTX 6000 Ada 364 TFLOPS = 142 SMs × 4 × 128 × 2 × 2.505 GHz; vendor spec, not in docs/reference/), the same as one MmaUnit. ' +
    "barrierCycles 24: assumption. pcieGBps 31.5: PCIe 4.0 ×16, 16 GT/s × 16 lanes × 128/130 / 8 (the RTX 6000 Ada's link; theoretical, one direction). " +
    'reductionLaunchNs 2000: a back-to-back kernel launch gap (assumption). launchNs 0: the paper times kernels with Nsight Systems (docs/spec.md §7). ' +
    "l1LinesPerCycle 0.57: the H200's with all 132 SMs asking (h200-silicon.md §1; there the L2's lookups bound it, see h200), taken over for AD102 (assumption, unmeasured there). It is a miss-path rate: on L1 hits " +
    "both GA102 and GH100 take ≈ 3.3–3.6 lines per cycle (docs/reference/memory.md §1f, gpu-strides); if it were set by the L2 slices' lookups " +
    "as it may be on H200 (0.79 per slice per cycle), AD102's 48 slices over 142 SMs would give 0.27 (docs/system-model.md, the paper's claims). " +
    "burstsInLockstep false: unmeasured on AD102, and the paper's software kernel (1.5× over cuBLAS at 50 %) overlaps its decompression with the DRAM, " +
    'which blocks waiting for the whole grid\'s burst could not (docs/system-model.md, "Flash-LLM by blocks per SM"). No scattered-store rate: unmeasured.',
};

const COMPUTE_PROFILES: Readonly<Record<string, ComputeProfile>> = {
  rtx4090: ADA,
  rtx6000ada: ADA,
  h200: {
    ...ADA,
    sharedMemoryBytesPerSm: 228 * 1024,
    mmaUnitsPerSubCore: 4,
    pcieGBps: 63,
    launchNs: 6000,
    rotatingCopies: 4,
    denseLibrary: { dramEfficiency: 0.763, splitKReductionNs: 3860 },
    l1LinesPerCycle: 0.96,
    burstsInLockstep: true,
    scatteredStoreCycles: 3.1,
    algorithm1StepCycles: [66.9, 74.2, 83.5],
    tensorClockMHz: 1800,
    reductionLaunchNs: 2560,
    blockStartEndCycles: 1680,
    spanLaunchNs: 7360,
    source:
      'schedulersPerSm, registersPerSm, sharedWavefrontsPerCycle, barrierCycles as for Ada (see rtx6000ada). ' +
      "reductionLaunchNs 2560, blockStartEndCycles 1680 and spanLaunchNs 7360: stcLifetime (the harness's STC proxy with marks, gpu/probes/results/2026-12-04) on 16 shapes. " +
      "The main kernel's event time less its blocks' span: median 7.36 µs (6.56–9.02 but for one slow span, stcLifetime3.jsonl); an empty grid of its blocks 5.7–8.4 (median 6.59). " +
      "The API's call (main kernel and split-K reduction) less its main kernel alone, less the reduction's modelled traffic: median 2.56 µs (1.55–3.92). " +
      "A block's prologue and epilogue less one of its loop's iterations, with one block per SM on the DRAM-resident shapes " +
      '(4096 × 14336 50 / 70 %, 2048 × 28672, 7168² 50 / 70 %; two runs): median 1,680 cycles (1,394–1,798); ' +
      'with two and three per SM 1,700–2,430 and 2,190–3,170, the co-resident blocks sharing what they load and store. ' +
      'sharedMemoryBytesPerSm 228 KB (memory.md §2c, Accel-Sim shmem option). mmaUnitsPerSubCore 4: H100/H200 SXM dense FP16 989 TFLOPS ≈ ' +
      '132 SMs × 4 × 512 × 2 × 1.83 GHz (vendor spec, not in docs/reference/), i.e. 4 MmaUnits per SMSP. pcieGBps 63: PCIe 5.0 ×16, 32 GT/s × 16 × 128/130 / 8. ' +
      "rotatingCopies 4: the harness (dhjoo98/coruscant at 1b715b1, kernel_comparison/spmm_perf.cu) times launch i on copy i % 4 of each kernel's weights " +
      "(A + (i % 4)·M·K, and likewise each format's arrays), so at one block per SM the grids whose four copies the L2 holds iterate on its round trips: " +
      'the STC proxy 1,554 / 1,688 cycles on 16 / 32 SMs, 2,456 … 2,677 on 64 … 128 (gpu/probes/results/2026-12-06, flashgrid), where Nsight Compute, ' +
      'which flushes the caches before its launch, has 2,659 on 32 (results/2026-12-03c), and the marked kernels given sixteen copies iterate alike on 16, 32 and 64 SMs ' +
      '(the STC proxy 2,446 / 2,442 / 2,498 cycles, with four 1,544 / 2,176 / 2,538; results/2026-12-06e, flashcopies, an H100). ' +
      'launchNs 6000: the silicon harness timed cuBLAS at 35–39 µs (7168²) and 56–57 µs (9216²) where PyTorch, 200 launches, saw 29.9 and 50.7 µs (h200-silicon.md §2). ' +
      'denseLibrary: cuBLAS under Nsight Compute on the H200 (gpu/probes/results/2026-12-02/parity.txt, cublas-*.details.txt): its nvjet kernel reads at ' +
      '75.2–77.3 % of the DRAM peak on all five shapes profiled (7168² 76.6, 9216² 75.2, 4096 × 14336 75.4, 2048 × 28672 77.3, 14336 × 4096 77.0; mean 76.3 %), ' +
      'and where it splits K (9216², 4096 × 14336, 2048 × 28672) a splitKreduce_kernel of 3.81 / 4.38 / 3.39 µs follows (mean 3.86). ' +
      "The dense kernel's memory time is its bytes at that rate alone: nvjet's grids (96–128 CTAs of 384 threads) are not the model's dense kernel, " +
      'whose path makespan reads 72–90 % of the peak over the same shapes (docs/system-model.md, "The dense baseline\'s pace"). ' +
      'l1LinesPerCycle 0.96: l2Partitions gather on the H200 (gpu/probes/results/2026-12-03b/gather.jsonl): 4-byte loads to random sectors of an L2-resident ' +
      '16 MiB from one block of 384 threads on each of 16, 33 or 66 SMs reach 0.957–0.960 lines per SM per cycle (128 threads: 0.88); ' +
      "from 99 SMs on the L2 slices' lookups bound them (0.62–0.66 per SM at 99, 0.56–0.61 at 132 = 145–159 G/s; h200-silicon.md §1: 149–151 G/s, " +
      "the memory profile's 0.79 lookups per slice per cycle), which the model shares among the SMs that hold blocks as a bound on the grid's mean line rate, " +
      "not on a block's chain (timingModel.ts): the STC proxy's cycles per iteration are 2,659 / 2,610 / 2,723 on 32 / 64 / 128 SMs " +
      '(gpu/probes/results/2026-12-03c/stcScaleNcu.txt). ' +
      "burstsInLockstep: the harness's Flash-LLM at 7168², split-K 4 / 8 / 12 / 14 (1 to 3 blocks per SM; gpu/probes/results/2026-12-02b/splitk.txt): " +
      "its iteration grows with the bytes every resident block loads, by their time at the DRAM's peak, with one block per SM as with three. " +
      'scatteredStoreCycles 3.1: stsScatter with two blocks per SM (3.15, scan order; 3.05 with three; gpu/probes/README.md). ' +
      "algorithm1StepCycles 66.9 / 74.2 / 83.5: the harness's software kernel at K 7168, split-K 8, 50 %, M 4096, 8448 and 12544 (one, two and three blocks per SM) " +
      "under Nsight Compute's source counters on the H200: the unrolled loop's share of the stall samples times the warps' cycles, per executed FLO, one a step " +
      '(gpu/probes/stallGrowth.py --per FLO, gpu/probes/results/2026-12-05c/algorithm1Steps.txt; an H100 gave 67.8 / 74.2 for one and two, 2026-12-05b). ' +
      "tensorClockMHz 1800: smClock's blocks read clock64 against %globaltimer at 1.800 GHz while they issue mma.sync (1, 2, 4 and 8 blocks per SM, " +
      'with or without Nsight Compute), at 1.98 GHz with FMA chains or streams (gpu/probes/results/2026-12-03); Nsight Compute times the ' +
      "harness's kernels, cuBLAS's included, at 1.79–1.82 GHz.",
  },
};

/** The compute profile of a GPU profile name. */
export function computeProfile(name: string): ComputeProfile {
  const profile = COMPUTE_PROFILES[name];
  if (!profile)
    throw new UserError(`no compute profile for GPU '${name}' (choose ${Object.keys(COMPUTE_PROFILES).join(', ')})`);
  return profile;
}
