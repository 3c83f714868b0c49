import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BitmapDecoder } from '../../designs/decoder/index.ts';
import { elaborate } from '../../../api/ir.ts';
import type { PortValues } from '../../../api/engines.ts';
import { createEngine } from '../../../api/engines.ts';
import { decoderTimeline, type DecoderShape } from '../../golden/models/decoder.ts';
import { readVcdFile } from '../../../api/waves.ts';
import { renderWaveDromSvg, traceToWaveDrom } from '../../../api/waves.ts';
import { escapeHtml, figureHtml, ShownNumbers, waveSvgWithNameRoom } from '../html.ts';
import type { ReportSection, SectionResult } from '../../../api/plugin.ts';

/** One thread is enough to show the decode; the other 31 slices are copies of it. */
const SHAPE: DecoderShape = { threads: 1, tileLength: 64, slots: 4 };
/** A 50 %-dense bitmap with runs, gaps and isolated bits, so every rank pattern shows up. */
const BITMAP = 0x9b3e_5c71_0fa2_d486n;
/** Cycle 0 resets, cycle 1 starts, cycles 2–17 decode, then idle. */
const CYCLES = 20;
const VCD_NAME = 'decoder.vcd';
const VECTORS_NAME = 'decoder.jsonl';
const SIGNALS = ['*.start', '*.bitmap_0', '*.valid', '*.first', '*.last', '*.pointer', '*.thread_0.lanes_valid', '*.thread_0.chain_base', '*.thread_0.chain_index_?'];

const popcount = (value: bigint): number => value.toString(2).replace(/0/g, '').length;

/** The stimulus: reset, one start with the bitmap, then idle cycles. */
function stimulus(): PortValues[] {
  return Array.from({ length: CYCLES }, (_, cycle): PortValues => (cycle === 0 ? { reset: 1n } : cycle === 1 ? { reset: 0n, start: 1n, bitmap_0: BITMAP } : { start: 0n }));
}

/** The stimulus as a `gen sim` vector file (JSON Lines, hex strings). */
function vectorFile(inputs: readonly PortValues[]): string {
  return inputs.map((ports) => `${JSON.stringify({ in: Object.fromEntries(Object.entries(ports).map(([name, value]) => [name, `0x${value.toString(16)}`])) })}\n`).join('');
}

/**
 * One BitmapDecoder decode on the in-process simulator, traced to VCD and drawn: a 64-bit bitmap
 * in, per cycle the lane-detector bits, the running count and the four value indices out, over the
 * MMA's 16 cycles. The outputs are checked against the golden decoder before they are drawn.
 */
export const decoderWaveSection: ReportSection = {
  id: 'decoderWave',
  title: 'Waveform: one bitmap decode',
  reproduce: (context) => [
    `npx gen sim --top BitmapDecoder --param threads=1 --vectors ${context.out}/waves/${VECTORS_NAME} --vcd /tmp/decode.vcd`,
    `npx gen wave show --vcd /tmp/decode.vcd --signals '${SIGNALS.join(',')}' --from 0 --to ${CYCLES - 1} --svg /tmp/decode.svg`,
  ],
  run: async (context): Promise<SectionResult> => {
    const vcd = join(context.scratch, VCD_NAME);
    const inputs = stimulus();
    const { outputs } = await (await createEngine('ts')).run(elaborate(BitmapDecoder, SHAPE), inputs, { vcd });
    const golden = decoderTimeline(inputs.map((ports) => ({ reset: ports['reset'] === 1n, start: ports['start'] === 1n, bitmaps: [BITMAP] })), SHAPE);
    const mismatches = golden.filter((cycle, index) => {
      const got = outputs[index];
      return got?.['valid'] !== BigInt(cycle.valid) || got['pointer'] !== BigInt(cycle.pointer) || cycle.slots[0]!.some((slot, j) => got[`operand_0_${j}_zero`] !== BigInt(slot.zero) || got[`operand_0_${j}_register`] !== BigInt(slot.register));
    }).length;
    const trace = readVcdFile(vcd);
    const source = traceToWaveDrom(trace, { patterns: SIGNALS, fromCycle: 0, toCycle: CYCLES - 1 });
    // The 64-bit bitmap label spans the whole lane, so one slot per cycle is wide enough (the default widens every slot for it).
    const svg = waveSvgWithNameRoom(renderWaveDromSvg({ ...source, head: { text: `BitmapDecoder (threads=1): bitmap 0x${BITMAP.toString(16)} decoded in 16 cycles (values in hex)`, tock: 0 }, config: { hscale: 1 } }));
    const shown = new ShownNumbers('decoderWave');
    const activeCycles = outputs.filter((ports) => ports['valid'] === 1n).length;
    const html = [
      `<p>A 64-bit bitmap <code>0x${BITMAP.toString(16)}</code> (${shown.show('nonzeros', popcount(BITMAP), 'integer')} nonzeros) enters with <code>start</code>; ` +
        `for the next ${shown.show('mmaCycles', activeCycles, 'integer')} cycles the lane detector takes its lowest four bits (<code>lanes_valid</code>), the adder chain keeps the running count ` +
        '(<code>chain_base</code>) and gives each valid slot its value index (<code>chain_index_j</code> = base + rank), while the dense pointer walks 0, 4, … 60. ' +
        `Outputs compared with the golden decoder over ${shown.show('cyclesChecked', golden.length, 'integer')} cycles: ` +
        `<span class="${mismatches === 0 ? 'pass' : 'fail'}">${shown.show('mismatches', mismatches, 'integer')} mismatching cycles</span>.</p>`,
      figureHtml('decoder-wave', svg, `WaveDrom picture of the in-process simulator's VCD (${escapeHtml(VCD_NAME)} in this folder; open it in GTKWave or Surfer).`),
    ].join('\n');
    return {
      numbers: shown.values,
      html,
      files: new Map<string, string>([[`waves/${VCD_NAME}`, readFileSync(vcd, 'utf8')], [`waves/${VECTORS_NAME}`, vectorFile(inputs)], ['figures/decoder-wave.svg', svg]]),
      headline: `decode of a ${popcount(BITMAP)}-nonzero bitmap in ${activeCycles} cycles, ${mismatches} mismatches vs golden`,
      ...(mismatches > 0 ? { failed: `the traced decode differs from the golden decoder in ${mismatches} cycles` } : {}),
    };
  },
};
