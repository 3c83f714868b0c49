/**
 * The contract between `gen report` and its sections (a plugin adds its own, see GenPlugin). A section computes its figures and
 * returns them as data (numbers for summary.json, HTML for the page, files for the report folder);
 * the builder alone writes anything, so a failed run leaves no half report.
 */
import type { RegressSuite } from '../../verif/regress/suite.ts';

/** What every section is given. */
export interface SectionContext {
  /** `--quick`: smaller designs and fewer cases, for a run well under two minutes. */
  readonly quick: boolean;
  /** A scratch folder for tools that need real files (VCDs); removed after the run. */
  readonly scratch: string;
  /** The report folder as the user named it, for reproduce commands that read files from it. */
  readonly out: string;
  /** The project's regression suites, as `gen regress --suite all` runs them (the config's, then its plugins'). */
  readonly suites: readonly RegressSuite[];
}

/** A finished section. */
export interface SectionResult {
  /** Every number shown on the page, by flat dotted key (the same keys in summary.json). */
  readonly numbers: Readonly<Record<string, number>>;
  /** Named results that are not numbers (e.g. what bounds each SpMM run), by flat dotted key, for summary.json's `strings`. */
  readonly strings?: Readonly<Record<string, string>>;
  /** Body HTML; numbers in it are rendered with `numberHtml` so the page can be checked against summary.json. */
  readonly html: string;
  /** One line for the terminal summary. */
  readonly headline: string;
  /**
   * What the section found, for the page's opening summary (HTML; numbers rendered with
   * `ShownNumbers` so they carry their keys). Without it the summary derives a line from the
   * section's numbers, or shows the headline.
   */
  readonly findings?: readonly string[];
  /** Extra files for the report folder, by relative path. */
  readonly files?: ReadonlyMap<string, string | Uint8Array>;
  /** Something the reader must know: a failed regression makes `gen report` exit 1 after writing the report. */
  readonly failed?: string;
}

/** A section that could not run here (a part not built yet, a tool not installed). */
export interface SkippedSection {
  readonly skipped: string;
}

/** One part of the report. */
export interface ReportSection {
  /** Short id: the HTML anchor and the prefix of its keys in summary.json. */
  readonly id: string;
  readonly title: string;
  /** The exact command(s) that reproduce the section on their own. */
  reproduce(context: SectionContext): readonly string[];
  run(context: SectionContext): Promise<SectionResult | SkippedSection>;
}
