/**
 * A plugin of a `gen` project: commands, report sections, designs, suites and synthesis workloads
 * that a project enables by listing it in `gen.config.ts` (`plugins: [myPlugin]`). The Coruscant
 * showcase is one (coruscant/plugin.ts); a user writes hers the same way, importing the framework
 * through `coruscant-hdl/plugin` and its other public entry points.
 */
import type { DesignEntry, SuiteEntry, SynthesisWorkload } from './entries.ts';
import type { ReportSection } from './reportSection.ts';

/**
 * What a command does, in the shape yargs takes (https://yargs.js.org/docs/#api-reference-commandmodule):
 * `builder` declares its options on the yargs instance it is given, `handler` runs it with the
 * parsed arguments. Typed here, not through yargs' own types, so a plugin needs no yargs types.
 */
export interface CommandModule {
  readonly command?: string | readonly string[];
  readonly describe?: string | false;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the yargs instance and options differ per command
  readonly builder?: ((yargs: any) => any) | { [option: string]: any };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command's arguments are its own
  readonly handler: (args: any) => void | Promise<void>;
}

/**
 * A `gen` sub-command: the name and one line `gen --help` shows, and how to load it when it is the
 * one run. Loading lazily keeps `gen` quick to start: only the command being run is imported.
 */
export interface CommandEntry {
  readonly name: string;
  readonly describe: string;
  readonly load: () => Promise<CommandModule>;
}

/** A plugin: a name (for messages) and what it adds to the project; every part is optional. */
export interface GenPlugin {
  /** Names the plugin in errors, e.g. a command that clashes with another. */
  readonly name: string;
  /** Commands `gen` offers in this project, after the framework's own. */
  readonly commands?: readonly CommandEntry[];
  /** Tops by group, as in the config's `designs` (paths relative to the config file). */
  readonly designs?: Readonly<Record<string, readonly DesignEntry[]>>;
  /** Regression suites `gen regress` runs besides the config's own. */
  readonly suites?: readonly SuiteEntry[];
  /** Synthesis workloads by top name (see SynthesisWorkload). */
  readonly synthesis?: { readonly workloads?: Readonly<Record<string, SynthesisWorkload>> };
  /** Sections of `gen report`'s page, loaded only when a report is built. */
  readonly reportSections?: () => Promise<readonly ReportSection[]>;
}

/** Declares a plugin (the identity: it gives the object its types). */
export function definePlugin(plugin: GenPlugin): GenPlugin {
  return plugin;
}
