/**
 * `coruscant-hdl/plugin`: what a plugin needs to add commands, report sections, designs, suites
 * and synthesis workloads to a project (docs/plugins.md), and the helpers the framework's own
 * commands use, so a plugin's command behaves like theirs (one-line errors, atomic outputs).
 */
export {
  /** Declares a plugin: `export const mine = definePlugin({ name, commands, reportSections, … })`. */
  definePlugin,
  /** A plugin: its name and what it adds (commands, designs, suites, synthesis workloads, report sections). */
  type GenPlugin,
  /** A `gen` sub-command: name, one-line description, and a loader for its CommandModule. */
  type CommandEntry,
  /** What a command does, as yargs takes it: `command`, `describe`, `builder` (its options), `handler`. */
  type CommandModule,
} from '../gen/project/plugin.ts';
export {
  /** One section of `gen report`: id, title, the commands that reproduce it, and `run`. */
  type ReportSection,
  /** What every section is given: quick mode, a scratch folder, the report folder. */
  type SectionContext,
  /** A finished section: numbers, HTML, headline, findings, files, a failure to report. */
  type SectionResult,
  /** A section that could not run here, and why. */
  type SkippedSection,
} from '../gen/project/reportSection.ts';
export {
  /** Loads the project found from the working directory: its tops, plugins, workloads and defaults. */
  loadProject,
  /** Everything a command knows of the project (see loadProject). */
  type Project,
  /** A top of the project: name, definition, description, group and file. */
  type RegisteredTop,
  /** The top of that name among a project's tops, or a UserError listing the known ones. */
  findTop,
  /** The project's regression suites (the config's, then its plugins') and those of suite files named besides. */
  projectSuites,
} from '../gen/project/project.ts';
export {
  /** A mistake of the user's: `gen` prints its message on one line and exits 1 (or its `exitCode`). */
  UserError,
  /** An external tool that failed or is missing, as a UserError. */
  ToolError,
  /** A user's file that is not in its format: names the file and, when known, the line or byte offset. */
  FileFormatError,
} from '../common/errors.ts';
export {
  /** A user's input file whole, refused in one line when unreadable, not a regular file, or over a size limit. */
  readUserFile,
  /** The refusal of readUserFile: `cannot read PATH: REASON`. */
  UnreadableFileError,
} from '../common/userFiles.ts';
export {
  /** A failed write as one line naming the path: `cannot write out/run.vcd: no space left on the device (ENOSPC)`. */
  writeError,
} from '../common/fileErrors.ts';
export {
  /** A line chart as standalone SVG (axes, ticks, legend), for a report section's figures. */
  lineChartSvg,
  /** What lineChartSvg draws: series of points, axis titles, reference lines. */
  type LineChartOptions,
} from '../common/charts.ts';
export {
  /** Writes a file whole or not at all (a temporary file renamed into place). */
  writeFileAtomic,
} from '../common/atomicWrite.ts';
export {
  /** An output folder built aside (`createStagingFolder`) and swapped in whole when done (`swapFolderIn`). */
  createStagingFolder,
  /** Replaces the target folder with the finished staging folder in one step. */
  swapFolderIn,
} from '../common/folderSwap.ts';
export {
  /** Checks an option's value is a whole number in range, else a UserError naming the option. */
  integerOption,
  /** A value as an error message quotes it (shortened when long). */
  quoteValue,
  /** Keeps a renamed option's old name for a release: moves its value to the new name, with a warning. */
  takeRenamedOption,
} from '../common/optionValues.ts';
export {
  /** Refuses, in one line, outputs that name an input (same file after links) or each other. */
  refuseOutputsOverInputs,
  /** Refuses, in one line, an output folder that is or holds an input. */
  refuseFolderOverInputs,
} from '../common/outputClash.ts';
export {
  /** The path of a file inside a folder, refused in one line when its name would leave the folder. */
  pathInside,
} from '../common/pathInside.ts';
export {
  /** A progress bar on a terminal (nothing in CI or when stderr is piped). */
  startProgress,
  /** A running progress bar: `tick`, `stop`. */
  type Progress,
} from '../common/progress.ts';
export {
  /** Removes tool workspaces left behind by killed processes; returns their names. */
  sweepWorkspaces,
} from '../tools/runTool.ts';
export {
  /** Text safe inside HTML elements and double-quoted attributes. */
  escapeHtml,
  /** An HTML table of HTML cells. */
  tableHtml,
  /** The stylesheet of the framework's HTML pages (report, coverage). */
  PAGE_STYLE,
} from '../common/htmlPage.ts';
