import { describe, expect, it } from 'vitest';
import { topLevelHelp } from '../../gen/cli/topHelp.ts';

const load = async (): Promise<never> => {
  throw new Error('help never loads a command');
};

describe('gen --help from the command table', () => {
  it('lists each command with its line, wrapped under its column to the width, and the help option at the right edge', () => {
    const help = topLevelHelp(
      [
        { name: 'sim', describe: 'Simulate a top', load },
        { name: 'regress', describe: 'one two three four five six seven eight nine ten', load },
      ],
      40,
    );
    expect(help.split('\n')).toEqual([
      'gen <command>',
      '',
      'Commands:',
      '  gen sim      Simulate a top',
      '  gen regress  one two three four five',
      '               six seven eight nine ten',
      '',
      'Options:',
      '  -h, --help  Show help        [boolean]',
      '',
    ]);
  });
});
