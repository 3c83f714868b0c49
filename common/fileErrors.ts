import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from './errors.ts';

/** What a user can act on, for the file-system errors a write meets; the code stays in brackets for searching. */
const WRITE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENOENT: 'no such folder',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'name too long',
  EMFILE: 'too many open files',
  ENXIO: 'no reader on the other end (a socket or FIFO)',
  EFBIG: 'file too large for the file system',
  EIO: 'input/output error',
};

export const errorCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/** `no space left on the device (ENOSPC)`; anything that is not a system error keeps its own message. */
export function describeFileProblem(error: unknown): string {
  const code = errorCode(error);
  if (code === undefined) return error instanceof Error ? error.message : String(error);
  const words = WRITE_PROBLEMS[code];
  return words === undefined ? code : `${words} (${code})`;
}

/** One line naming the path: `cannot write out/run.vcd: no space left on the device (ENOSPC)`. */
export function writeError(path: string, error: unknown): UserError {
  if (error instanceof UserError) return error;
  return new UserError(`cannot write ${path}: ${describeFileProblem(error)}`, { cause: error });
}

/**
 * `mkdir -p`, with the real reason when it fails: Node's recursive mkdir reports ENOENT when a
 * missing folder cannot be made on a read-only file system, so the first missing level is tried
 * on its own to learn why (EROFS, EACCES, ENOTDIR).
 */
export function makeFolder(folder: string, forPath = folder): void {
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    let missing = resolve(folder);
    while (!existsSync(dirname(missing)) && dirname(missing) !== missing) missing = dirname(missing);
    let reason: unknown = error;
    try {
      mkdirSync(missing);
    } catch (direct) {
      reason = direct;
    }
    const target = forPath === folder ? folder : `${folder} for ${forPath}`;
    throw new UserError(`cannot create folder ${target}: ${describeFileProblem(reason)}`, { cause: error });
  }
}
