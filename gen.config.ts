/**
 * This repository as a `gen` project: the framework's example designs, the Coruscant blocks, their
 * regression suites and the sparse synthesis workloads, registered exactly as a user's project
 * registers its own (see gen/project/config.ts).
 */
import { defineConfig, type SynthesisWorkload } from './gen/project/config.ts';
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
import { Fp16Multiplier } from './hw/designs/fp/fp16Multiplier.ts';
import { Fp32Adder } from './hw/designs/fp/fp32Adder.ts';
import { DotProduct4 } from './hw/designs/tensor/dotProduct4.ts';
import { TensorLane } from './hw/designs/tensor/tensorLane.ts';
import { ThreadGroup } from './hw/designs/tensor/threadGroup.ts';
import { Octet } from './hw/designs/tensor/octet.ts';
import { TensorCore } from './hw/designs/tensor/tensorCore.ts';
import { MmaUnit } from './hw/designs/tensor/mmaUnit.ts';
import { OperandRegisterFile } from './hw/designs/tensor/operandRegisterFile.ts';
import { MmaBench } from './hw/designs/tensor/mmaBench.ts';
import {
  LaneDetector,
  AdderChain,
  RegisterIndexEmitter,
  DensePointerIncrementer,
  BitmapThreadSlice,
  BitmapDecoder,
} from './hw/designs/decoder/index.ts';
import { REGRESS_SUITES } from './verif/suites/index.ts';
import { sparseWorkloadTops, sparseWorkloadVectors } from './synth/workloads/sparseWorkload.ts';

/** Back-to-back MMAs on Wanda-pruned weights, through each block's own ports. */
const sparseWorkload = (top: string): SynthesisWorkload => ({
  describe: ({ sparsity }) =>
    `back-to-back MMAs on Wanda-pruned weights at ${Math.round(sparsity * 100)} % sparsity, random FP16 B`,
  vectors: (params, options) => sparseWorkloadVectors(top, params, options),
});

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
    // The Coruscant hardware, bottom up.
    design: [
      Fp16Multiplier,
      Fp32Adder,
      DotProduct4,
      TensorLane,
      LaneDetector,
      AdderChain,
      RegisterIndexEmitter,
      DensePointerIncrementer,
      BitmapThreadSlice,
      BitmapDecoder,
      ThreadGroup,
      Octet,
      TensorCore,
      MmaUnit,
      OperandRegisterFile,
      MmaBench,
    ],
  },
  suites: REGRESS_SUITES,
  synthesis: { workloads: Object.fromEntries(sparseWorkloadTops.map((top) => [top, sparseWorkload(top)])) },
});
