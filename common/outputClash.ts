import { realpathSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { resolveOutput } from './atomicWrite.ts';
import { UserError } from './errors.ts';

/*
 * An output that names an input would destroy what it is computed from (`gen sim --out` over its
 * own `--vectors`, `wave show --svg` over the trace it draws), and two outputs naming one file
 * would keep only one. Files are compared by device and inode after following symlinks, as
 * `test -ef` does, so a link or a `../` path to the same file is caught too.
 */

/** A command's files by how the user named them (`--vectors`, or a positional's name `b`); undefined when not given. */
export type NamedFiles = Readonly<Record<string, string | undefined>>;

/** A regular file's identity (device and inode), or where a new one would be created; undefined for devices and FIFOs. */
function identity(path: string, output: boolean): string | undefined {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    // Not there yet: only an output can name it, and two outputs naming it clash.
    if (!output) return undefined;
    const target = resolveOutput(path);
    return target.special ? undefined : `path ${target.path}`;
  }
  return stats.isFile() ? `inode ${stats.dev}:${stats.ino}` : undefined;
}

/**
 * Refuses, in one line, a file output (`outputs`, name → path) that is the same regular file as
 * an input or as an earlier output. Devices and FIFOs (`/dev/null`, `/dev/stdout`) may be named
 * twice. Call it before any work, with every file the command reads and writes.
 */
export function refuseOutputsOverInputs(inputs: NamedFiles, outputs: NamedFiles): void {
  const seen = new Map<string, string>();
  for (const [name, path] of Object.entries(inputs)) {
    const key = path === undefined ? undefined : identity(path, false);
    if (key !== undefined && !seen.has(key)) seen.set(key, name);
  }
  for (const [name, path] of Object.entries(outputs)) {
    const key = path === undefined ? undefined : identity(path, true);
    if (key === undefined) continue;
    const clash = seen.get(key);
    if (clash !== undefined)
      throw new UserError(`${name} names the same file as ${clash} (${path}); write the output elsewhere`);
    seen.set(key, name);
  }
}

/**
 * Refuses an output folder that is replaced as a whole (`gen formats encode --out`) when it holds
 * one of the inputs, or is one: the input would go with the old folder.
 */
export function refuseFolderOverInputs(inputs: NamedFiles, folder: { name: string; path: string }): void {
  let root: string;
  try {
    root = realpathSync(folder.path);
  } catch {
    return;
  }
  for (const [name, path] of Object.entries(inputs)) {
    if (path === undefined) continue;
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      continue;
    }
    if (real === root || real.startsWith(root.endsWith(sep) ? root : root + sep))
      throw new UserError(
        `${folder.name} ${folder.path} holds ${name} (${path}), and is replaced as a whole; write the output elsewhere`,
      );
  }
}
