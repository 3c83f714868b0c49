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
  source:
    'schedulersPerSm 4 and registersPerSm 65536: every SM since Volta (4 SMSPs, 64 K 32-bit registers; GPGPU-Sim configs, docs/reference/facts.md §3). ' +
    'sharedMemoryBytesPerSm 100 KB: the largest CC 8.9 carve-out (memory.md §2a). sharedWavefrontsPerCycle 1 (32 banks × 4 B, memory.md §2d; one wavefront per cycle: assumption). ' +
    'mmaUnitsPerSubCore 1: AD102 FP16-with-FP32-accumulate tensor throughput is 128 FMA per cycle per SMSP (RTX 6000 Ada 364 TFLOPS = 142 SMs × 4 × 128 × 2 × 2.505 GHz; vendor spec, not in docs/reference/), the same as one MmaUnit. ' +
    "barrierCycles 24: assumption. pcieGBps 31.5: PCIe 4.0 ×16, 16 GT/s × 16 lanes × 128/130 / 8 (the RTX 6000 Ada's link; theoretical, one direction). " +
    'reductionLaunchNs 2000: a back-to-back kernel launch gap (assumption).',
};

const COMPUTE_PROFILES: Readonly<Record<string, ComputeProfile>> = {
  rtx4090: ADA,
  rtx6000ada: ADA,
  h200: {
    ...ADA,
    sharedMemoryBytesPerSm: 228 * 1024,
    mmaUnitsPerSubCore: 4,
    pcieGBps: 63,
    source:
      'schedulersPerSm, registersPerSm, sharedWavefrontsPerCycle, barrierCycles, reductionLaunchNs as for Ada (see rtx6000ada). ' +
      'sharedMemoryBytesPerSm 228 KB (memory.md §2c, Accel-Sim shmem option). mmaUnitsPerSubCore 4: H100/H200 SXM dense FP16 989 TFLOPS ≈ ' +
      '132 SMs × 4 × 512 × 2 × 1.83 GHz (vendor spec, not in docs/reference/), i.e. 4 MmaUnits per SMSP. pcieGBps 63: PCIe 5.0 ×16, 32 GT/s × 16 × 128/130 / 8.',
  },
};

/** The compute profile of a GPU profile name. */
export function computeProfile(name: string): ComputeProfile {
  const profile = COMPUTE_PROFILES[name];
  if (!profile)
    throw new UserError(`no compute profile for GPU '${name}' (choose ${Object.keys(COMPUTE_PROFILES).join(', ')})`);
  return profile;
}
