import type { CommandEntry } from '../project/plugin.ts';

/** Words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/**
 * `gen --help`: the commands by name and one line each, laid out as yargs lays out a command's own
 * help. Written from the command table, not by yargs: rendering help through yargs (its column
 * layout measures every character's width) costs more CPU than the rest of `gen` start-up.
 */
export function topLevelHelp(commands: readonly CommandEntry[], width: number): string {
  const names = commands.map((entry) => `gen ${entry.name}`);
  const nameWidth = Math.max(...names.map((name) => name.length));
  const indent = ' '.repeat(2 + nameWidth + 2);
  const rows = commands.flatMap((entry, index) => {
    const [first = '', ...rest] = wrapWords(entry.describe, Math.max(20, width - indent.length));
    return [`  ${names[index]!.padEnd(nameWidth)}  ${first}`, ...rest.map((line) => indent + line)];
  });
  const helpOption = '  -h, --help  Show help';
  return [
    'gen <command>',
    '',
    'Commands:',
    ...rows,
    '',
    'Options:',
    helpOption + '[boolean]'.padStart(Math.max(width - helpOption.length, 10)),
    '',
  ].join('\n');
}
