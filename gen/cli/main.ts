import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { UserError } from '../../common/errors.ts';
import { commands } from './commands/index.ts';

/**
 * The `gen` command line. User mistakes (UserError, bad options) print one line and exit 1;
 * only real bugs show a stack trace.
 */
export async function runCli(argv: string[]): Promise<number> {
  let failed = false;
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
      failed = true;
      if (error && !(error instanceof UserError)) throw error;
      process.stderr.write(`gen: ${error?.message ?? message}\n`);
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
  return failed ? 1 : 0;
}

process.exitCode = await runCli(hideBin(process.argv));
