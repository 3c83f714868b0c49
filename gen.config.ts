/**
 * This repository as a `gen` project: the framework's example designs and their regression suites,
 * and the Coruscant showcase as a plugin (its blocks, suites, commands, report sections and
 * synthesis workloads), registered exactly as a user's project registers its own (see docs/plugins.md).
 */
import { defineConfig } from './api/config.ts';
import { Counter } from './hw/examples/counter.ts';
import { Popcount } from './hw/examples/popcount.ts';
import { Lfsr } from './hw/examples/lfsr.ts';
import { RegisterFile } from './hw/examples/registerFile.ts';
import { MacPipeline } from './hw/examples/macPipeline.ts';
import { BenchPipeline } from './hw/examples/benchPipeline.ts';
import { StreamFifoChain } from './hw/examples/streamFifoChain.ts';
import { SerialTransmitter } from './hw/examples/serialTransmitter.ts';
import { Crc8Stream } from './hw/examples/crc8Stream.ts';
import { TwoClockFifo } from './hw/examples/twoClockFifo.ts';
import { MaskedRamRom } from './hw/examples/maskedRamRom.ts';
import { EXAMPLE_SUITES } from './verif/suites/index.ts';
import { coruscant } from './coruscant/plugin.ts';

export default defineConfig({
  designs: {
    // Small designs that exercise the framework.
    example: [
      Counter,
      Popcount,
      Lfsr,
      RegisterFile,
      MacPipeline,
      BenchPipeline,
      StreamFifoChain,
      SerialTransmitter,
      Crc8Stream,
      TwoClockFifo,
      MaskedRamRom,
    ],
  },
  suites: EXAMPLE_SUITES,
  // The showcase: the Coruscant blocks, their suites, commands, report sections and synthesis workloads.
  plugins: [coruscant],
});
