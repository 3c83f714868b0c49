import { elaborate, topModule } from '../../../api/ir.ts';
import { loadProject, type RegisteredTop } from '../../../api/plugin.ts';
import { verilogOutputs } from '../../../api/verilog.ts';
import { escapeHtml, ShownNumbers, tableHtml } from '../html.ts';
import type { ReportSection, SectionResult } from '../../../api/plugin.ts';

/** Ports listed in a row before the rest are summarized (the decoder has hundreds). */
const PORTS_LISTED = 12;

const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** One top's row: generated files and figures. */
function describeTop(top: RegisteredTop, shown: ShownNumbers, files: Map<string, string>): string[] {
  const design = elaborate(top.definition);
  const outputs = verilogOutputs(design);
  const verilog = [...outputs].filter(([name]) => name.endsWith('.v'));
  for (const [name, text] of outputs) files.set(`verilog/${top.name}/${name}`, text);
  const ports = topModule(design).ports;
  const inputs = ports.filter((port) => port.direction === 'input');
  const outputsOnly = ports.filter((port) => port.direction === 'output');
  const key = top.name;
  const portText = ports.slice(0, PORTS_LISTED).map((port) => `${port.direction === 'input' ? 'in' : 'out'} ${port.name}[${port.width}]`).join(', ');
  const more = ports.length > PORTS_LISTED ? `, … ${ports.length - PORTS_LISTED} more (see manifest.json)` : '';
  const parameters = Object.entries(top.definition.defaults).map(([name, value]) => `${name}=${String(value)}`).join(' ');
  return [
    `<b>${escapeHtml(top.name)}</b><br><small>${escapeHtml(top.description)}</small>`,
    top.kind,
    escapeHtml(parameters || '—'),
    `${shown.show(`${key}.inputs`, inputs.length, 'integer')} in (${shown.show(`${key}.inputBits`, inputs.reduce((sum, port) => sum + port.width, 0), 'integer')} bits), ` +
      `${shown.show(`${key}.outputs`, outputsOnly.length, 'integer')} out (${shown.show(`${key}.outputBits`, outputsOnly.reduce((sum, port) => sum + port.width, 0), 'integer')} bits)` +
      `<br><small class="ports">${escapeHtml(portText + more)}</small>`,
    shown.show(`${key}.modules`, design.modules.length, 'integer'),
    shown.show(`${key}.verilogLines`, verilog.reduce((sum, [, text]) => sum + lineCount(text), 0), 'integer'),
    [...outputs.keys()].map((name) => `<a href="verilog/${escapeHtml(top.name)}/${escapeHtml(name)}">${escapeHtml(name)}</a>`).join('<br>'),
  ];
}

/** Every top of the project at its default parameters: ports, parameters, and its generated Verilog. */
export const inventorySection: ReportSection = {
  id: 'inventory',
  title: 'Appendix: design inventory',
  reproduce: () => ['npx gen list', 'npx gen verilog --all --out out/verilog'],
  run: async (): Promise<SectionResult> => {
    const shown = new ShownNumbers('inventory');
    const files = new Map<string, string>();
    const { tops } = await loadProject();
    const rows = tops.map((top) => describeTop(top, shown, files));
    const moduleFiles = [...files.keys()].filter((name) => name.endsWith('.v')).length;
    const lines = [...files].filter(([name]) => name.endsWith('.v')).reduce((sum, [, text]) => sum + lineCount(text), 0);
    const html = [
      `<p>${shown.show('tops', tops.length, 'integer')} registered tops (examples, then the Coruscant blocks), each elaborated at its defaults and written as Verilog-2005: ` +
        `${shown.show('verilogFiles', moduleFiles, 'integer')} module files, ${shown.show('verilogLines', lines, 'integer')} lines, one folder per top with its <code>manifest.json</code> ` +
        '(ports, parameters, the source map from DSL names to Verilog and VCD names). Every top also passes <code>verilator --lint-only -Wall</code> and Yosys <code>check -assert</code> in the test suite.</p>',
      tableHtml(['top', 'kind', 'parameters', 'ports', 'modules', 'Verilog lines', 'generated files'], rows, 'inventory'),
    ].join('\n');
    return { numbers: shown.values, html, files, headline: `${tops.length} tops, ${moduleFiles} Verilog files, ${lines} lines` };
  },
};
