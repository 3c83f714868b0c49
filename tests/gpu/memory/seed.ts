/** The fast-check seed of this run, printed so a failure replays with FC_SEED=<seed> npx vitest run <file>. */
export function fastCheckSeed(label: string): number {
  const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2 ** 31);
  console.log(`${label}: fast-check seed ${seed} (replay with FC_SEED=${seed})`);
  return seed;
}
