import { computeSizeReport, renderSizeChart } from '../../golden/formats/sizeReport.ts';
import { SIZE_FORMATS } from '../../golden/formats/sizes.ts';
import { escapeHtml, figureHtml, ShownNumbers, tableHtml } from '../html.ts';
import type { ReportSection, SectionResult } from '../../../api/plugin.ts';

/** The paper's Fig. 3 setting. */
const SIDE = 9216;
const SPARSITIES = [0.3, 0.4, 0.5, 0.6, 0.7];

/** Summary key of a format name ('Tiled-CSL' → 'TiledCSL', '2:4' → '2of4'). */
const formatKey = (format: string): string => format.replace('-', '').replace('2:4', '2of4');

/** `gen formats`: sizes of a 9216×9216 FP16 matrix per format and sparsity, paper accounting (Fig. 3). */
export const formatsSection: ReportSection = {
  id: 'formats',
  title: 'Sparse formats (paper Fig. 3)',
  reproduce: () => [`npx gen formats --shape ${SIDE}x${SIDE} --accounting paper --sparsity ${SPARSITIES.join(',')} --svg out/fig3.svg`],
  run: async (): Promise<SectionResult> => {
    const report = computeSizeReport({ source: { kind: 'random', rows: SIDE, cols: SIDE, seed: 1 }, sparsities: SPARSITIES, accountings: ['paper'] });
    const shown = new ShownNumbers('formats');
    const percent = (format: string, sparsity: number): number | null =>
      report.entries.find((entry) => entry.format === format && entry.sparsity === sparsity)?.percentOfDense ?? null;
    const rows = SIZE_FORMATS.map((format) => [
      escapeHtml(format),
      ...SPARSITIES.map((sparsity) => {
        const value = percent(format, sparsity);
        return value === null ? 'n/a' : shown.show(`${formatKey(format)}.s${Math.round(sparsity * 100)}`, value);
      }),
    ]);
    const coruscant50 = percent('Coruscant', 0.5) ?? NaN;
    const coruscant70 = percent('Coruscant', 0.7) ?? NaN;
    const html = [
      `<p>Size of a ${SIDE}×${SIDE} FP16 matrix (dense: ${shown.show('denseBytes', report.denseBytes, 'integer')} bytes) in each format, as % of dense, ` +
        'paper accounting (16-bit indices and pointers, no padding). Coruscant is the 64-bit bitmap plus the nonzeros: exactly 56.25 % at 50 % sparsity and 36.25 % at 70 %. ' +
        '2:4 does not apply to an unstructured random mask. <code>gen formats --accounting exact</code> counts the real encoders\' bytes, padding and offsets included.</p>',
      figureHtml('formats', renderSizeChart(report), 'Storage vs sparsity, one line per format; the dashed line is the dense matrix.'),
      tableHtml(['format', ...SPARSITIES.map((sparsity) => `${Math.round(sparsity * 100)} % sparse`)], rows, 'numeric'),
    ].join('\n');
    return {
      numbers: shown.values,
      html,
      files: new Map([['figures/formats.svg', renderSizeChart(report)]]),
      headline: `Coruscant ${coruscant50.toFixed(2)} % of dense at 50 % sparsity, ${coruscant70.toFixed(2)} % at 70 %`,
    };
  },
};
