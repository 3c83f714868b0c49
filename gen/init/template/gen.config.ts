import { defineConfig } from 'coruscant-hdl/config';

/** What `gen` finds in this project: its designs (every exported module is a top) and regression suites. */
export default defineConfig({
  designs: ['src/accumulator.ts'],
  suites: ['src/accumulatorSuite.ts'],
});
