/**
 * The Coruscant sparse tensor core as a plugin of the framework: its hardware (the FP units, the
 * bitmap decoder, the tensor core and MMA unit), its regression suites, the synthesis workloads
 * that measure it on pruned weights, its commands (`gen mma`, `spmm`, `formats`, `memsim`,
 * `report`) and the sections of `gen report`. A project enables it in gen.config.ts (`plugins: [coruscant]`), as this repository
 * does; it reaches the framework only through the package's public entry points (api/).
 */
import { definePlugin } from '../api/plugin.ts';
import type { SynthesisWorkload } from '../api/config.ts';
import { Fp16Multiplier } from './designs/fp/fp16Multiplier.ts';
import { Fp32Adder } from './designs/fp/fp32Adder.ts';
import { DotProduct4 } from './designs/tensor/dotProduct4.ts';
import { TensorLane } from './designs/tensor/tensorLane.ts';
import { ThreadGroup } from './designs/tensor/threadGroup.ts';
import { Octet } from './designs/tensor/octet.ts';
import { TensorCore } from './designs/tensor/tensorCore.ts';
import { MmaUnit } from './designs/tensor/mmaUnit.ts';
import { OperandRegisterFile } from './designs/tensor/operandRegisterFile.ts';
import { MmaBench } from './designs/tensor/mmaBench.ts';
import {
  LaneDetector,
  AdderChain,
  RegisterIndexEmitter,
  DensePointerIncrementer,
  BitmapThreadSlice,
  BitmapDecoder,
} from './designs/decoder/index.ts';
import { sparseWorkloadTops, sparseWorkloadVectors } from './workloads/sparseWorkload.ts';
import { CORUSCANT_SUITES } from './suites/index.ts';

/** Back-to-back MMAs on Wanda-pruned weights, through each block's own ports. */
const sparseWorkload = (top: string): SynthesisWorkload => ({
  describe: ({ sparsity }) =>
    `back-to-back MMAs on Wanda-pruned weights at ${Math.round(sparsity * 100)} % sparsity, random FP16 B`,
  vectors: (params, options) => sparseWorkloadVectors(top, params, options),
});

/** The Coruscant showcase: enable it with `plugins: [coruscant]` in gen.config.ts. */
export const coruscant = definePlugin({
  name: 'coruscant',
  commands: [
    {
      name: 'mma',
      describe: 'Run MMAs on the MmaUnit (dense m16n8k16 or Coruscant m32n1k64): D = A·B + C, bit-exact',
      load: async () => (await import('./commands/mma.ts')).mmaCommand,
    },
    {
      name: 'spmm',
      describe:
        'D = A·B + C for float16 A (M×K) and B (K×N), float32 C: golden, on the RTL, or modeled on a GPU (--model)',
      load: async () => (await import('./commands/spmm.ts')).spmmCommand,
    },
    {
      name: 'formats',
      describe:
        'Storage size of a pruned FP16 matrix in CSR, CSC, COO, ELL, Tiled-CSL, 2:4 and Coruscant, as % of dense (paper Fig. 3)',
      load: async () => (await import('./commands/formats.ts')).formatsCommand,
    },
    {
      name: 'memsim',
      describe:
        "Run a load pattern or an SpMM kernel's address trace through a modeled GPU memory path (L1, L2 slices, DRAM)",
      load: async () => (await import('./commands/memsim.ts')).memsimCommand,
    },
    {
      name: 'report',
      describe: 'Run the whole flow and write one self-contained HTML page with summary.json',
      load: async () => (await import('./commands/report.ts')).reportCommand,
    },
  ],
  designs: {
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
  suites: CORUSCANT_SUITES,
  synthesis: { workloads: Object.fromEntries(sparseWorkloadTops.map((top) => [top, sparseWorkload(top)])) },
  reportSections: async () => (await import('./report/sections/index.ts')).REPORT_SECTIONS,
});
