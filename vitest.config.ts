import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // One temporary folder for the run, removed at its end: tests/support/privateTemp.ts.
    globalSetup: ['tests/support/privateTemp.ts'],
    // An untraced Verilator run uses the design's traced build when one is cached (engines/verilatorEngine.ts):
    // a design traced in one test and run untraced in another is not compiled twice.
    env: { GEN_VERILATOR_REUSE_TRACED: '1' },
    // Two cores in CI: forks keep Verilator builds and simulations from starving each other.
    pool: 'forks',
    maxWorkers: 2,
  },
});
