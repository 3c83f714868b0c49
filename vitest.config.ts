import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // One temporary folder for the run, removed at its end: tests/support/privateTemp.ts; in it,
    // the checkout compiled once, the `gen` the tests spawn: tests/support/compiledGen.ts.
    globalSetup: ['tests/support/privateTemp.ts', 'tests/support/compiledGen.ts'],
    // Two cores in CI: forks keep Verilator builds and simulations from starving each other.
    pool: 'forks',
    maxWorkers: 2,
  },
});
