import { relative, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { UserError } from '../../../common/errors.ts';
import { preflightFolders } from '../../../common/preflight.ts';
import { mergeShards, MERGED_FILES } from '../../../verif/regress/coverage/mergeShards.ts';
import { coverageSummary } from '../../../verif/regress/coverage/summary.ts';

interface MergeArguments {
  folders: string[];
  out: string;
}

/**
 * `gen regress merge <folders…> --out DIR`: the shards of one run (`--shard i/n` on many machines,
 * each with `--out F --junit F/junit.xml --coverage F/coverage.json`) joined into one result.
 */
export const regressMergeCommand: CommandModule<object, MergeArguments> = {
  command: 'merge <folders..>',
  describe: "Join the JUnit XML, coverage and failure folders of a run's shards into one result (--out DIR)",
  builder: (yargs) =>
    yargs
      .positional('folders', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'shard folders, each holding its *.xml JUnit, coverage.json and failure folders',
      })
      .option('out', { type: 'string', demandOption: true, describe: 'folder of the merged result' }) as never,
  handler: async (args) => {
    const out = resolve(args.out);
    preflightFolders([out]);
    const merged = await mergeShards(
      args.folders.map((folder) => resolve(folder)),
      out,
    );
    const here = (file: string): string => {
      const path = relative(process.cwd(), file);
      return path === '' ? '.' : path.startsWith('..') ? file : path;
    };
    const lines = [
      `merged ${args.folders.length} shard folder(s) into ${here(out)}`,
      ...(merged.junit
        ? [`  ${MERGED_FILES.junit}: ${merged.junit.tests} cases, ${merged.junit.failures} failing`]
        : ['  no JUnit files found']),
      ...(merged.coverage ? [`  ${MERGED_FILES.coverage}: shards ${merged.coverage.shards.join(', ')}`] : []),
      `  failure folders: ${merged.failures.length}`,
      ...(merged.missingCases > 0
        ? [`  ${merged.missingCases} case(s) of the run are in no shard given (a shard missing or unfinished)`]
        : []),
    ];
    process.stdout.write(`${lines.join('\n')}\n${merged.coverage ? `${coverageSummary(merged.coverage)}\n` : ''}`);
    if (merged.junit && merged.junit.failures > 0)
      throw new UserError(`${merged.junit.failures} failing case(s) in the merged run`);
  },
};
