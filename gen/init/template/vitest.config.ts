import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // The first Verilator build of a design takes a while; later runs use the build cache.
    testTimeout: 180_000,
  },
});
