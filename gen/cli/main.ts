import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { UserError } from '../../common/errors.ts';
import { commands } from './commands/index.ts';

/**
 * The `gen` command line. User mistakes (UserError, bad options) print one line and exit 1;
 * only real bugs show a stack trace.
 */
export async function runCli(argv: string[]): Promise<number> {
  const parser = yargs(argv)
    .scriptName('gen')
    .strict()
    .demandCommand(1, 'name a command; `gen --help` lists them')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(false)
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((message, error) => {
      // Thrown, not printed: otherwise yargs goes on to run the handler after a failed option
      // check, and an error thrown by a handler would be printed twice.
      throw error ?? new UserError(message.replace(/\s*\n\s*/g, ' '));
    });
  for (const command of commands) parser.command(command);
  try {
    await parser.parseAsync();
  } catch (error) {
    if (error instanceof UserError) {
      process.stderr.write(`gen: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  return 0;
}

process.exitCode = await runCli(hideBin(process.argv));
