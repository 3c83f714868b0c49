import { join } from 'node:path';
import { UserError } from './errors.ts';
import { quoteValue } from './optionValues.ts';

/**
 * `folder/name`, for a file name a caller formed (often from a module name): refused unless it is
 * a plain relative name (segments of anything but `/` and NUL, none empty, `.` or `..`), so
 * nothing is written outside the work or output folder whatever the name holds. The names are
 * checked where the design is defined; this is the last guard, where the path is formed.
 */
export function pathInside(folder: string, name: string): string {
  const segments = name.split('/');
  if (name.includes('\0') || segments.some((segment) => segment === '' || segment === '.' || segment === '..'))
    throw new UserError(`cannot write ${quoteValue(name)} in ${folder}: not a plain relative file name`);
  return join(folder, name);
}
