import { ToolError } from '../../../api/plugin.ts';
import type { ModuleDefinition } from '../../../api/index.ts';
import { registerFileBandwidthReport } from '../../designs/decoder/bandwidth.ts';
import { AdderChain, BitmapDecoder, LaneDetector } from '../../designs/decoder/index.ts';
import { elaborate } from '../../../api/ir.ts';
import type { ActivityStimulus } from '../../../api/synth.ts';
import { reportChartSvg } from '../../../api/synth.ts';
import { synthesizeDesign, type ComponentReport, type SynthReport } from '../../../api/synth.ts';
import type { DecoderShape } from '../../golden/models/decoder.ts';
import { findYosys } from '../../../api/synth.ts';
import { verilogOutputs } from '../../../api/verilog.ts';
import { decoderInputVectors, decoderMmaStream } from '../decoderWorkload.ts';
import { escapeHtml, figureHtml, ShownNumbers, tableHtml } from '../html.ts';
import type { ReportSection, SectionContext, SectionResult, SkippedSection } from '../../../api/plugin.ts';

/** One block to synthesize, at the parameters of one mode. */
interface SynthTarget {
  readonly definition: ModuleDefinition;
  readonly params: Readonly<Record<string, number>>;
  /** What is simulated to measure switching activity. */
  readonly stimulus: ActivityStimulus;
}

const WORKLOAD_SEED = 2;

/** The decoder blocks; --quick maps a 4-thread decoder (seconds) instead of the full warp's 32 threads. */
function targets(context: SectionContext): SynthTarget[] {
  const random: ActivityStimulus = { workload: 'random', cycles: context.quick ? 100 : 200, seed: 1 };
  const shape: DecoderShape = { threads: context.quick ? 4 : 32, tileLength: 64, slots: 4 };
  // The decoder's power comes from a realistic sparse workload: back-to-back MMAs over 30–70 % dense bitmaps.
  const mmas: ActivityStimulus = { vectors: decoderInputVectors(decoderMmaStream(shape, context.quick ? 4 : 3, WORKLOAD_SEED), shape) };
  return [
    { definition: LaneDetector, params: {}, stimulus: random },
    { definition: AdderChain, params: {}, stimulus: random },
    { definition: BitmapDecoder, params: context.quick ? { threads: shape.threads } : {}, stimulus: mmas },
  ];
}

/** The system Yosys maps about five times faster than the WebAssembly build; the latter needs nothing installed. */
const yosysEngine = (): ReturnType<typeof findYosys> => findYosys('fastest');

const paramText = (params: Readonly<Record<string, number>>): string =>
  Object.entries(params).map(([name, value]) => ` --param ${name}=${value}`).join('');

/** The rows of one block: its total, then its sub-blocks. */
function componentRows(report: SynthReport, shown: ShownNumbers): string[][] {
  return report.components.map((row: ComponentReport, index) => {
    const key = `${report.top}.${index === 0 ? 'total' : row.module}`;
    const name = `${index === 0 ? `<b>${escapeHtml(report.top)}</b> (total)` : `&nbsp;&nbsp;${escapeHtml(row.displayName)}`}${row.instances > 1 ? ` ×${row.instances}` : ''}`;
    return [
      name,
      shown.show(`${key}.cells`, row.cells, 'integer'),
      shown.show(`${key}.area45`, row.area45, { digits: 1 }),
      shown.show(`${key}.areaTarget`, row.areaTarget, { digits: 2 }),
      shown.show(`${key}.leakage45`, row.power45.leakageUw, { digits: 2 }),
      shown.show(`${key}.dynamic45`, row.power45.dynamicUw, { digits: 1 }),
      shown.show(`${key}.total45`, row.power45.totalUw, { digits: 1 }),
      shown.show(`${key}.totalTarget`, row.totalUwTarget, { digits: 2 }),
      shown.show(`${key}.pathPs45`, row.criticalPathPs45, { digits: 0 }),
    ];
  });
}

/** The paper's register-file bandwidth check, redone from the decoder's ports. */
function bandwidthHtml(shown: ShownNumbers): string {
  const report = registerFileBandwidthReport();
  const within = report.paper.withinBudget && report.design.withinBudget;
  return (
    `<p>Register-file reads per warp per cycle, counted from the paper-size decoder's ports: the paper's accounting gives ` +
    `${shown.show('bandwidth.paperBytes', report.paper.total, { digits: 0 })} B, this design's (FP32 accumulators read once per MMA) ` +
    `${shown.show('bandwidth.designBytes', report.design.total, { digits: 0 })} B, against Volta's budget of ${shown.show('bandwidth.budgetBytes', report.budget, 'integer')} B ` +
    `(<span class="${within ? 'pass' : 'fail'}">${within ? 'within' : 'over'} budget</span>).</p>`
  );
}

/**
 * `gen synth` of the decoder blocks: Yosys onto the project's 45 nm library, power from simulated
 * activity, scaled to 7 nm; a table per block and the decoder's area/power chart. A block whose
 * tool run fails (a timeout on a loaded machine) is noted and the others still reported.
 */
export const synthesisSection: ReportSection = {
  id: 'synthesis',
  title: 'Synthesis: area and power (45 nm → 7 nm)',
  reproduce: (context) => [
    ...targets(context).flatMap(({ definition, params }) => [
      `npx gen verilog --top ${definition.name}${paramText(params)} --out out/synth/${definition.name}`,
      `npx gen synth --verilog out/synth/${definition.name}/*.v --top ${elaborate(definition, params).top} --yosys ${yosysEngine()}${context.quick ? ' --timing longest-path --cycles 100' : ''}`,
    ]),
    '# the report measures the BitmapDecoder\'s activity on back-to-back MMAs (30–70 % dense bitmaps); gen synth uses --workload random',
  ],
  run: async (context): Promise<SectionResult | SkippedSection> => {
    const shown = new ShownNumbers('synthesis');
    const reports: SynthReport[] = [];
    const notes: string[] = [];
    for (const { definition, params, stimulus } of targets(context)) {
      const design = elaborate(definition, params);
      const verilog = Object.fromEntries([...verilogOutputs(design)].filter(([name]) => name.endsWith('.v')));
      try {
        reports.push((await synthesizeDesign(verilog, design.top, { stimulus, engine: yosysEngine(), timingEngine: context.quick ? 'longest-path' : 'opensta' })).report);
      } catch (error) {
        if (!(error instanceof ToolError)) throw error;
        notes.push(`${design.top}: ${error.message.split('\n')[0]}`);
      }
    }
    const first = reports[0];
    if (first === undefined) return { skipped: `no block could be synthesized here: ${notes.join('; ')}` };
    const decoder = reports.find((report) => report.top.startsWith('BitmapDecoder'));
    const node = `${first.target.node} nm`;
    const rows = reports.flatMap((report) => componentRows(report, shown));
    const chart = decoder ? reportChartSvg(decoder) : undefined;
    const html = [
      `<p>Each block's Verilog mapped by Yosys (${escapeHtml(first.engine)}) onto the project's 45 nm library (${escapeHtml(first.library)}, NanGate FreePDK45 figures); ` +
        `power at ${shown.show('clockGhz', first.clockGhz, { digits: 1 })} GHz from gate-level simulation (LaneDetector, AdderChain: random inputs; BitmapDecoder: back-to-back MMAs over 30–70 % dense bitmaps); ` +
        `scaled to ${node} (Stillmaker &amp; Baas): area ×${shown.show('areaFactor', first.factors.area, { digits: 4 })}, energy ×${shown.show('energyFactor', first.factors.energy, { digits: 4 })}.` +
        `${context.quick ? ' <em>--quick: the decoder has 4 thread slices instead of 32.</em>' : ''}</p>`,
      ...notes.map((note) => `<p class="note">Not synthesized here: ${escapeHtml(note)}</p>`),
      '<p>The MmaUnit (≈313,000 cells) is not re-synthesized for this page: its run, <code>npx gen synth --top MmaUnit --compose TensorLane --yosys system</code>, ' +
        'takes about ten minutes here (one gate-level lane measured and counted 32 times); docs/synthesis.md has its report and the decoder\'s share of it.</p>',
      tableHtml(['block', 'cells', 'area µm² 45 nm', `area µm² ${node}`, 'leakage µW 45 nm', 'dynamic µW 45 nm', 'total µW 45 nm', `total µW ${node}`, 'path ps 45 nm'], rows, 'numeric'),
      ...(decoder && chart ? [figureHtml('synthesis', chart, `Area and power of ${decoder.top} and its blocks (all instances), at 45 nm and ${node}.`)] : []),
      bandwidthHtml(shown),
    ].join('\n');
    const total = (decoder ?? first).components[0]!;
    return {
      numbers: shown.values,
      html,
      files: new Map(chart ? [['figures/synthesis.svg', chart]] : []),
      headline: `${(decoder ?? first).top}: ${total.area45.toFixed(0)} µm² at 45 nm (${total.areaTarget.toFixed(1)} µm² at ${node}), ${total.power45.totalUw.toFixed(0)} µW at 45 nm${notes.length > 0 ? `; not synthesized: ${notes.length}` : ''}`,
    };
  },
};
