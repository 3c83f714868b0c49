import { describe, expect, it } from 'vitest';
import { findingsHtml, type FindingSource } from '../../../coruscant/report/findings.ts';

const ok = (id: string, headline = `${id} headline`): FindingSource => ({ id, title: `Title ${id}`, status: 'ok', headline });
const plain = (html: string): string[] => [...html.matchAll(/<li[^>]*>(.*?)<\/li>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));

describe('findings', () => {
  const numbers = {
    'regression.cases': 6,
    'regression.failures': 1,
    'regression.A.ts.cases': 3,
    'regression.A.icarus.cases': 3,
    'formats.Coruscant.s50': 56.25,
    'formats.Coruscant.s70': 40,
  };

  it('derives lines from the numbers, marks each number with its key, and links every line to its section', () => {
    const html = findingsHtml([ok('inventory'), ok('regression'), ok('formats'), ok('coverage', '93 % of toggles covered')], numbers);
    expect(plain(html)).toEqual([
      'Regression: 6 cases of 1 suite on 2 engines (ts, icarus), 1 case differs from the golden models. more',
      "Formats: the Coruscant bitmap format stores a 50 % / 70 % sparse FP16 matrix in 56.25 % / 40.00 % of the dense bytes (the paper's Fig. 3: 56.25 % / 36.25 %). more",
      'Title coverage: 93 % of toggles covered. more',
    ]);
    expect(html).toContain('<span class="num" data-key="regression.cases" data-value="6">6</span>');
    for (const id of ['regression', 'formats', 'coverage']) expect(html).toContain(`<a href="#${id}">more</a>`);
    expect(html).not.toContain('#inventory');
  });

  it("uses a section's own findings, and says why a section is missing or failed", () => {
    const html = findingsHtml(
      [ok('spmm'), { ...ok('synthesis', 'Yosys not installed'), status: 'skipped' }, { ...ok('regression', '2 cases differ'), status: 'failed' }],
      numbers,
      { spmm: ['A100: 1.9× (DRAM-bound).'] },
    );
    expect(plain(html)).toEqual([
      'A100: 1.9× (DRAM-bound). more',
      'Title synthesis: not available here (Yosys not installed). more',
      'Title regression: 2 cases differ. more',
    ]);
    expect(html).toContain('<span class="fail">2 cases differ</span>');
  });
});
