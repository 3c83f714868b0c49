import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The testbench library's own folder: its frames are never the fork site a user wants to see. */
const VERIF_FOLDER = fileURLToPath(new URL('..', import.meta.url));

const FRAME = /\(?((?:file:\/\/)?[^\s()]+):(\d+):\d+\)?$/;

/**
 * Where the user's code called `fork` (file:line, relative to the working directory): the first
 * stack frame outside the testbench library, node's internals and node_modules. A process without
 * a name is known by this site in every message.
 */
export function forkSite(): string | undefined {
  for (const line of (new Error().stack ?? '').split('\n').slice(1)) {
    const match = FRAME.exec(line.trim());
    if (!match) continue;
    const raw = match[1]!.replace(/\?[^/]*$/, '');
    const file = raw.startsWith('file://') ? fileURLToPath(raw) : raw;
    if (file.startsWith(VERIF_FOLDER) || file.startsWith('node:') || file.includes(`${sep}node_modules${sep}`))
      continue;
    return `${relative(process.cwd(), file)}:${match[2]}`;
  }
  return undefined;
}
