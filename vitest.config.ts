import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // One temporary folder for the run, removed at its end: tests/support/privateTemp.ts.
    globalSetup: ['tests/support/privateTemp.ts'],
    // Two cores in CI: forks keep Verilator builds and simulations from starving each other.
    pool: 'forks',
    maxWorkers: 2,
  },
});
