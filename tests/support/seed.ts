/**
 * The fast-check seed of a test file: `FC_SEED` when replaying, else fresh. It is printed, so a
 * failure in CI can be replayed with `FC_SEED=<seed> npx vitest run <file>` (fast-check's own
 * failure message adds the `path` to the shrunk counterexample).
 */
export function fastCheckSeed(label: string): number {
  const fromEnvironment = process.env['FC_SEED'];
  const seed = fromEnvironment === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(fromEnvironment);
  console.log(`[${label}] fast-check seed ${seed} (replay: FC_SEED=${seed} npx vitest run <this file>)`);
  return seed;
}
