import { UserError } from '../../common/errors.ts';
import { COMMANDS } from './commands/index.ts';
import { joinNegativeValues } from '../../common/optionValues.ts';
import { projectPlugins } from '../project/project.ts';
import { cliMessage } from './optionFlags.ts';
import type { CommandEntry } from '../project/plugin.ts';
import { topLevelHelp } from './topHelp.ts';

/** How `gen` is asked for its list of commands, and nothing else. */
const HELP_ALONE = new Set(['--help', '-h']);
/** Help text is wrapped to the terminal, at most this wide. */
const HELP_WIDTH = 110;

/**
 * The framework's commands, then those of the plugins the project's gen.config.ts enables. The
 * config is read only when the command asked for is none of the framework's (help, a plugin's
 * command, a typo to suggest a name for), and never with `--no-config`. A plugin command may not
 * take a name already taken: which one `gen NAME` runs must not depend on the order of a list.
 */
async function availableCommands(argv: readonly string[], requested: string | undefined): Promise<CommandEntry[]> {
  const commands = [...COMMANDS];
  const framework = commands.some((entry) => entry.name === requested);
  const plugins = framework || argv.includes('--no-config') ? [] : await projectPlugins();
  for (const plugin of plugins)
    for (const entry of plugin.commands ?? []) {
      if (commands.some((known) => known.name === entry.name))
        throw new UserError(`plugin '${plugin.name}': command '${entry.name}' is already a gen command`);
      commands.push(entry);
    }
  return commands;
}

/**
 * The `gen` command line. User mistakes (UserError, bad options) print one line and exit 1 (2 for
 * a design, suite or config file that cannot be loaded); only real bugs show a stack trace.
 */
export async function runCli(argv: string[]): Promise<number> {
  const width = Math.min(HELP_WIDTH, process.stdout.columns ?? HELP_WIDTH);
  if (argv.length === 1 && HELP_ALONE.has(argv[0]!)) {
    try {
      process.stdout.write(topLevelHelp(await availableCommands(argv, undefined), width));
      return 0;
    } catch (error) {
      return reportUserError(error);
    }
  }
  // yargs is loaded only for a command line it must parse (its own modules cost start-up time).
  const { default: yargs } = await import('yargs');
  const parser = yargs(argv)
    .scriptName('gen')
    .strict()
    .demandCommand(1, 'name a command; `gen --help` lists them')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(false)
    .wrap(width)
    .fail((message, error) => {
      // Thrown, not printed: otherwise yargs goes on to run the handler after a failed option
      // check, and an error thrown by a handler would be printed twice.
      throw error ?? new UserError(message.replace(/\s*\n\s*/g, ' '));
    });
  try {
    // Only the command being run is loaded; the others are listed by name for help and suggestions.
    const requested = argv.find((arg) => !arg.startsWith('-'));
    for (const entry of await availableCommands(argv, requested)) {
      if (entry.name === requested) parser.command({ ...(await entry.load()), describe: entry.describe });
      else parser.command({ command: entry.name, describe: entry.describe, handler: () => {} });
    }
    skipHelpRendering(parser, argv);
    await parser.parseAsync();
  } catch (error) {
    return reportUserError(error);
  }
  return 0;
}

/**
 * A user's mistake as one line on stderr and its exit status; anything else is a bug, rethrown.
 * yargs reports an option's failed `coerce` check as a YError: a usage mistake like any other.
 */
function reportUserError(error: unknown): number {
  if (error instanceof UserError || (error instanceof Error && error.name === 'YError')) {
    process.stderr.write(`gen: ${cliMessage(error).split('\n')[0]}\n`);
    // A design, suite or config file that cannot be used exits 2; a failed check or bad option 1.
    return (error as { exitCode?: number }).exitCode ?? 1;
  }
  throw error;
}

/**
 * yargs renders a command's whole help before running its handler, to show it should the command
 * fail later; gen never shows it (a failure is one line), and rendering it costs a third of a
 * second of CPU. Unless help was asked for, that rendering is skipped (yargs 18's usage instance,
 * shared by the parser and its commands).
 */
function skipHelpRendering(parser: object, argv: readonly string[]): void {
  if (argv.some((arg) => HELP_ALONE.has(arg))) return;
  const internals = (parser as { getInternalMethods?: () => { getUsageInstance(): { cacheHelpMessage?: unknown } } })
    .getInternalMethods?.()
    .getUsageInstance();
  if (internals !== undefined && typeof internals.cacheHelpMessage === 'function')
    internals.cacheHelpMessage = () => {};
}

// `gen list | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

// As yargs' hideBin: the arguments after node and the script.
process.exitCode = await runCli(joinNegativeValues(process.argv.slice(2)));
