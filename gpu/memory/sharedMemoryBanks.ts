/**
 * Shared-memory bank model: 32 banks, each 4 bytes wide, successive 4-byte words in successive
 * banks (memory.md §2d). A warp's access is split into wavefronts: each wavefront serves at most
 * one word per bank, and threads that touch the same word share it (broadcast for loads, merged
 * bytes for stores), so the count is the largest number of distinct words any one bank is asked for.
 */

export const SHARED_MEMORY_BANKS = 32;
export const BANK_WIDTH_BYTES = 4;

/**
 * Wavefronts of one warp access of at most 4 bytes per thread at the given byte addresses;
 * `activeMask` bit t enables thread t. A warp with no active thread takes no wavefront.
 */
export function sharedMemoryWavefronts(byteAddresses: ArrayLike<number>, activeMask = 0xffffffff): number {
  const wordsPerBank: Set<number>[] = Array.from({ length: SHARED_MEMORY_BANKS }, () => new Set<number>());
  for (let t = 0; t < byteAddresses.length && t < 32; t++) {
    if (((activeMask >>> t) & 1) === 0) continue;
    const word = Math.floor(byteAddresses[t]! / BANK_WIDTH_BYTES);
    wordsPerBank[word % SHARED_MEMORY_BANKS]!.add(word);
  }
  return Math.max(...wordsPerBank.map((words) => words.size));
}
