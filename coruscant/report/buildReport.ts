import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../../api/plugin.ts';
import { ToolError } from '../../api/plugin.ts';
import { createStagingFolder, swapFolderIn } from '../../api/plugin.ts';
import { sweepWorkspaces } from '../../api/plugin.ts';
import { findingsHtml } from './findings.ts';
import { reportPage, type PageSection } from './page.ts';
import { REPORT_SECTIONS } from './sections/index.ts';
import { CORUSCANT_SUITES } from '../suites/index.ts';
import type { RegressSuite } from '../../api/regress.ts';
import type { ReportSection, SectionContext, SectionResult, SkippedSection } from '../../api/plugin.ts';
import { pathInside } from '../../api/plugin.ts';

export interface ReportOptions {
  /** The report folder; replaced as a whole at the end of a successful run. */
  readonly out: string;
  readonly quick: boolean;
  /** The command line shown on the page. */
  readonly command: string;
  /** Sections to run (default: all of them, in page order). */
  readonly sections?: readonly ReportSection[];
  /** The project's regression suites, for the sections that run them (default: the showcase's). */
  readonly suites?: readonly RegressSuite[];
  /** Called as each section starts and ends (the CLI prints progress lines). */
  readonly onSection?: (event: SectionEvent) => void;
}

export type SectionEvent =
  | { readonly kind: 'start'; readonly index: number; readonly total: number; readonly section: ReportSection }
  | { readonly kind: 'end'; readonly index: number; readonly total: number; readonly section: ReportSection; readonly outcome: SectionOutcome };

/** How one section ended, as summary.json records it. */
export interface SectionOutcome {
  readonly id: string;
  readonly title: string;
  readonly status: 'ok' | 'failed' | 'skipped';
  /** The one-line result, or why it was skipped or what failed. */
  readonly headline: string;
  readonly seconds: number;
  readonly reproduce: readonly string[];
}

/** summary.json: every number on the page by key, and each section's outcome. */
export interface ReportSummary {
  readonly command: string;
  readonly quick: boolean;
  readonly generatedAt: string;
  readonly seconds: number;
  readonly sections: readonly SectionOutcome[];
  readonly numbers: Readonly<Record<string, number>>;
  /** The sections' named results that are not numbers (SectionResult.strings), by key. */
  readonly strings: Readonly<Record<string, string>>;
}

/** A tool that is missing or fails (e.g. no Verilator here) skips its section rather than losing the whole report. */
async function runSection(section: ReportSection, context: SectionContext): Promise<SectionResult | SkippedSection> {
  try {
    return await section.run(context);
  } catch (error) {
    if (error instanceof ToolError) return { skipped: `could not run here: ${error.message.split('\n')[0]}` };
    throw error;
  }
}

/**
 * Swaps the finished staging folder in for the previous report in one step (common/folderSwap.ts):
 * a kill, even SIGKILL, leaves the old report or the new one, never a mix.
 */
function publish(staging: string, target: string, shownPath: string): void {
  swapFolderIn(staging, target, shownPath);
}

/**
 * Runs every section and writes `out/index.html`, `out/summary.json` and the sections' files.
 * Everything goes to a staging folder beside `out` first, so a failed run leaves no half report
 * (and the previous one untouched).
 */
export async function buildReport(options: ReportOptions): Promise<ReportSummary> {
  const started = performance.now();
  const target = resolve(options.out);
  const staging = createStagingFolder(target, options.out);
  // Named like the tool workspaces (gen-<prefix>-<pid>-…), so one a killed run leaves behind is
  // removed by the next run's sweep instead of staying in the temp folder.
  sweepWorkspaces();
  const scratch = mkdtempSync(join(tmpdir(), `gen-report-${process.pid}-`));
  try {
    const context: SectionContext = { quick: options.quick, scratch, out: options.out, suites: options.suites ?? CORUSCANT_SUITES };
    const sections = options.sections ?? REPORT_SECTIONS;
    const outcomes: SectionOutcome[] = [];
    const pageSections: PageSection[] = [];
    const numbers: Record<string, number> = {};
    const strings: Record<string, string> = {};
    const findings: Record<string, readonly string[]> = {};
    for (const [index, section] of sections.entries()) {
      options.onSection?.({ kind: 'start', index, total: sections.length, section });
      const sectionStarted = performance.now();
      const result = await runSection(section, context);
      const reproduce = section.reproduce(context);
      const seconds = (performance.now() - sectionStarted) / 1000;
      let outcome: SectionOutcome;
      if ('skipped' in result) {
        outcome = { id: section.id, title: section.title, status: 'skipped', headline: result.skipped, seconds, reproduce };
        pageSections.push({ id: section.id, title: section.title, reproduce, body: { note: result.skipped } });
      } else {
        outcome = { id: section.id, title: section.title, status: result.failed ? 'failed' : 'ok', headline: result.failed ?? result.headline, seconds, reproduce };
        pageSections.push({ id: section.id, title: section.title, reproduce, body: { html: result.html } });
        Object.assign(numbers, result.numbers);
        Object.assign(strings, result.strings ?? {});
        if (result.findings) findings[section.id] = result.findings;
        for (const [name, data] of result.files ?? []) writeFileAtomic(pathInside(staging, name), data);
      }
      outcomes.push(outcome);
      options.onSection?.({ kind: 'end', index, total: sections.length, section, outcome });
    }
    const generatedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    writeFileAtomic(join(staging, 'index.html'), reportPage({ command: options.command, quick: options.quick, generatedAt }, pageSections, findingsHtml(outcomes, numbers, findings)));
    const summary: ReportSummary = { command: options.command, quick: options.quick, generatedAt, seconds: (performance.now() - started) / 1000, sections: outcomes, numbers, strings };
    writeFileAtomic(join(staging, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    publish(staging, target, options.out);
    return summary;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}
