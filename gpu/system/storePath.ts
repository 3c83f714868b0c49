import { computeProfile } from './computeProfiles.ts';
import { FLASHLLM_EXTRACT_CYCLES_PER_VECTOR } from './kernelCosts.ts';
import { UserError } from '../../common/errors.ts';

/** One configuration of `gpu/probes/stsScatter.cu`: Flash-LLM's extract replayed on its own. */
export interface ScatteredStoreLoad {
  /** Blocks of 4 warps sharing the SM. */
  readonly blocksPerSm: number;
  /** Staged vectors of the block's fullest warp per rep (each a group of 4 STS.U16). */
  readonly warp0Steps: number;
  /** Warp STS.U16 one block issues per rep. */
  readonly warpStoresPerBlock: number;
}

/**
 * SM cycles per scattered warp STS.U16 under `load`: the later of the fullest warp's own extract
 * chain (FLASHLLM_EXTRACT_CYCLES_PER_VECTOR per staged vector; co-resident blocks run theirs side
 * by side) and the SM's shared-store path taking every block's stores one by one
 * (`scatteredStoreCycles` of the profile). With one block the chain sets the pace (≈ 23 cycles per
 * store per warp over 4 warps); from two blocks on the path does (docs/system-model.md, "The
 * probes' rows").
 */
export function scatteredStoreCyclesPerStore(profile: string, load: ScatteredStoreLoad): number {
  const path = computeProfile(profile).scatteredStoreCycles;
  if (path === undefined) throw new UserError(`GPU profile '${profile}' has no measured scattered-store rate`);
  const stores = load.blocksPerSm * load.warpStoresPerBlock;
  const chain = load.warp0Steps * FLASHLLM_EXTRACT_CYCLES_PER_VECTOR;
  return Math.max(chain, stores * path) / stores;
}
