import type { CommandModule } from 'yargs';
import { loadProject, projectSuites, UserError, type Project, type ReportSection } from '../../api/plugin.ts';
import { buildReport, type ReportSummary, type SectionEvent } from '../report/buildReport.ts';

interface ReportArgs {
  out: string;
  quick: boolean;
}

/** One line per section on a terminal; nothing in CI or when stderr is piped. */
function progressPrinter(): (event: SectionEvent) => void {
  if (process.stderr.isTTY !== true || process.env['CI']) return () => {};
  return (event) => {
    const step = `[${event.index + 1}/${event.total}] ${event.section.title}`;
    if (event.kind === 'start') process.stderr.write(`${step} …\n`);
    else process.stderr.write(`${step}: ${event.outcome.status} in ${event.outcome.seconds.toFixed(1)} s\n`);
  };
}

/** Where the report is and one line per section: what a user reads after `make demo`. */
function textSummary(out: string, summary: ReportSummary): string {
  const width = Math.max(...summary.sections.map((section) => section.title.length));
  const lines = summary.sections.map(
    (section) =>
      `  ${section.title.padEnd(width)}  ${section.status === 'ok' ? '' : `[${section.status}] `}${section.headline}`,
  );
  return [`report: ${out}/index.html (and summary.json), made in ${summary.seconds.toFixed(1)} s`, ...lines, ''].join(
    '\n',
  );
}

/** The sections of every plugin the project enables, in the order the config lists the plugins. */
async function projectSections({ plugins }: Project): Promise<ReportSection[]> {
  return (await Promise.all(plugins.map(async (plugin) => (await plugin.reportSections?.()) ?? []))).flat();
}

/** `gen report`: the whole flow on the default configuration, as one self-contained HTML page. */
export const reportCommand: CommandModule<object, ReportArgs> = {
  command: 'report',
  builder: (yargs) =>
    yargs
      .option('out', {
        type: 'string',
        default: 'report',
        describe:
          'report folder (index.html, summary.json, Verilog, VCD, SVG figures); replaced only when the run succeeds',
      })
      .option('quick', {
        type: 'boolean',
        default: false,
        describe: 'reduced sizes (4-thread decoder, fewer cases) for a run well under two minutes',
      })
      .check((args) => {
        if (Array.isArray(args['out'])) throw new UserError('give --out once');
        return true;
      }),
  handler: async (args) => {
    const project = await loadProject();
    const command = `npx gen report --out ${args.out}${args.quick ? ' --quick' : ''}`;
    const summary = await buildReport({
      out: args.out,
      quick: args.quick,
      command,
      sections: await projectSections(project),
      suites: (await projectSuites(project, [])).suites,
      onSection: progressPrinter(),
    });
    process.stdout.write(textSummary(args.out, summary));
    const failed = summary.sections.filter((section) => section.status === 'failed');
    if (failed.length > 0)
      throw new UserError(
        `${failed.length} section(s) failed (${failed.map((section) => section.id).join(', ')}); the report shows where`,
      );
  },
};
