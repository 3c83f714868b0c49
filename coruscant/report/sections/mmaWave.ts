import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mmaLatency } from '../../designs/tensor/mmaUnit.ts';
import { createEngine } from '../../../api/engines.ts';
import { coruscantMma } from '../../golden/models/mma.ts';
import { encodeNpy } from '../../golden/io/npy.ts';
import { zerosFp16, zerosFp32, type Fp16Matrix } from '../../golden/matrix.ts';
import { mulberry32 } from '../../../gpu/memory/seededRandom.ts';
import { numberToFp16 } from '../../golden/numerics/fp16.ts';
import { runMmasOnRtl } from '../../mma/runMmas.ts';
import { globToRegExp } from '../../../api/waves.ts';
import { readVcdFile } from '../../../api/waves.ts';
import { renderWaveDromSvg, traceToWaveDrom } from '../../../api/waves.ts';
import { figureHtml, ShownNumbers, waveSvgWithNameRoom } from '../html.ts';
import type { ReportSection, SectionResult } from '../../../api/plugin.ts';

const SEED = 3;
const SPARSITY = 0.5;
const VCD_NAME = 'mma.vcd';
/** The bench's handshake, the decoder's pointer and thread 0's selects, lane 0's operands and accumulator, and D of thread 0. */
const SIGNALS = [
  'MmaBench.start', 'MmaBench.mode', 'MmaBench.busy', 'MmaBench.last', 'MmaBench.dValid',
  'MmaBench.mma.decoder_pointer', 'MmaBench.mma.decoder_operand_0_?_register',
  'MmaBench.mma.tensorCore0_lane_0_a_?', 'MmaBench.mma.tensorCore0_lane_0_b_0', 'MmaBench.mma.tensorCore0_lane_0_acc', 'MmaBench.d_0',
];
const DRAWN = SIGNALS.map(globToRegExp);

/** Small integers as FP16 (exact sums, readable hex), every element zero with probability `SPARSITY`. */
function randomFp16(rows: number, cols: number, random: () => number, sparsity: number): Fp16Matrix {
  const matrix = zerosFp16(rows, cols);
  for (let index = 0; index < matrix.bits.length; index++) if (random() >= sparsity) matrix.bits[index] = numberToFp16(Math.floor(random() * 7) - 3 || 1);
  return matrix;
}

/**
 * One Coruscant MMA (m32n1k64, A 50 % sparse) on the MmaUnit RTL through the in-process simulator,
 * traced to VCD and drawn: the decoder walks the bitmaps while lane 0 accumulates, then D is
 * written back. D is compared with the golden MMA bit for bit.
 */
export const mmaWaveSection: ReportSection = {
  id: 'mmaWave',
  title: 'Waveform: one Coruscant MMA',
  reproduce: (context) => [
    `npx gen mma --mode coruscant -a ${context.out}/mma/A.npy -b ${context.out}/mma/B.npy -c ${context.out}/mma/C.npy --out /tmp/D.npy --engine ts --vcd /tmp/mma.vcd`,
    `npx gen wave show --vcd /tmp/mma.vcd --signals '${SIGNALS.join(',')}' --svg /tmp/mma.svg`,
  ],
  run: async (context): Promise<SectionResult> => {
    const random = mulberry32(SEED);
    const A = randomFp16(32, 64, random, SPARSITY);
    const B = randomFp16(64, 1, random, 0);
    const C = zerosFp32(32, 1);
    const vcd = join(context.scratch, VCD_NAME);
    const run = await runMmasOnRtl(await createEngine('ts'), [{ mode: 'coruscant', A, B, C }], { vcd });
    const D = run.results[0]!;
    const golden = coruscantMma(A, B, C);
    const mismatches = golden.bits.filter((bits, index) => D.bits[index] !== bits).length;
    const start = run.starts[0]!;
    const latency = run.startToLastWriteback[0]!;
    // The trace has thousands of nets; read only the drawn ones (and the clock).
    const trace = readVcdFile(vcd, { keep: (signal) => signal.fullName === 'MmaBench.clk' || DRAWN.some((pattern) => pattern.test(signal.fullName)) });
    const source = traceToWaveDrom(trace, { patterns: SIGNALS, fromCycle: Math.max(0, start - 2), toCycle: start + latency });
    const svg = waveSvgWithNameRoom(renderWaveDromSvg({ ...source, head: { text: 'MmaUnit, Coruscant mode: one m32n1k64 MMA, A 50 % sparse (values in hex)', tock: Math.max(0, start - 2) } }));
    const shown = new ShownNumbers('mmaWave');
    const nonzeros = A.bits.filter((bits) => bits !== 0).length;
    const html = [
      `<p>D = A·B + C with A 32×64 (${shown.show('nonzerosA', nonzeros, 'integer')} of 2,048 elements nonzero, sent in STC format: a bitmap per thread and its packed values), B 64×1, C = 0. ` +
        `The MMA starts in cycle ${shown.show('startCycle', start, 'integer')}; the decoder presents four operand selects per thread per cycle for 16 cycles while each lane accumulates, ` +
        `and D is written back ${shown.show('startToWriteback', latency, 'integer')} cycles after start (pipeline latency ${shown.show('latency', mmaLatency(0), 'integer')}). ` +
        `D equals the golden MMA bit for bit: <span class="${mismatches === 0 ? 'pass' : 'fail'}">${shown.show('mismatches', mismatches, 'integer')} of 32 outputs differ</span>.</p>`,
      figureHtml('mma-wave', svg, `WaveDrom picture of the in-process simulator's VCD (${VCD_NAME} in this folder); lane 0 is thread 0.`),
    ].join('\n');
    return {
      numbers: shown.values,
      html,
      files: new Map<string, string | Uint8Array>([
        [`waves/${VCD_NAME}`, readFileSync(vcd)],
        ['mma/A.npy', encodeNpy('float16', [32, 64], A.bits)],
        ['mma/B.npy', encodeNpy('float16', [64, 1], B.bits)],
        ['mma/C.npy', encodeNpy('float32', [32, 1], new Float32Array(C.bits.buffer, C.bits.byteOffset, C.bits.length))],
        ['figures/mma-wave.svg', svg],
      ]),
      headline: `one Coruscant MMA (${nonzeros} nonzeros of A), D written back ${latency} cycles after start, ${mismatches} mismatches vs golden`,
      ...(mismatches > 0 ? { failed: `the MmaUnit's D differs from the golden MMA in ${mismatches} outputs` } : {}),
    };
  },
};
