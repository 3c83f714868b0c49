import type { CommandModule } from 'yargs';
import { scaffoldProject } from '../../init/scaffold.ts';

interface InitArguments {
  dir: string;
  framework?: string;
}

/** `gen init [dir]`: a new project with one design, its golden model, a test, a regression and a config. */
export const initCommand: CommandModule<object, InitArguments> = {
  command: 'init [dir]',
  builder: (yargs) =>
    yargs
      .positional('dir', { type: 'string', default: '.', describe: 'folder of the new project (new or empty)' })
      .option('framework', {
        type: 'string',
        describe:
          'what package.json depends on for the framework: a version, or file:<tarball> (relative to the new folder; default: this version)',
      }),
  handler: (args) => {
    const files = scaffoldProject(args.dir, args.framework === undefined ? {} : { framework: args.framework });
    process.stdout.write(
      `gen init: wrote ${files.length} files to ${args.dir}\n${files.map((file) => `  ${file}\n`).join('')}`,
    );
    process.stdout.write(`next: cd ${args.dir} && npm install && npm test\n`);
  },
};
