import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Two cores in CI: forks keep Verilator builds and simulations from starving each other.
    pool: 'forks',
    maxWorkers: 2,
  },
});
