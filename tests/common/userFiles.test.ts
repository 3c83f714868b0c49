import { afterAll, describe, expect, it } from 'vitest';
import { closeSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileFormatError, UserError } from '../../common/errors.ts';
import {
  openUserFile,
  readUserFile,
  readUserText,
  tooLargeError,
  UnreadableFileError,
} from '../../common/userFiles.ts';

const dir = mkdtempSync(join(tmpdir(), 'user-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('user input files', () => {
  it('opens a regular file with its size, refuses a device or a folder naming what it is', () => {
    writeFileSync(join(dir, 'ten'), '0123456789');
    const { fd, size } = openUserFile(join(dir, 'ten'));
    closeSync(fd);
    expect(size).toBe(10);
    expect(() => openUserFile('/dev/null')).toThrow(
      new UnreadableFileError('/dev/null', 'a character device, not a regular file'),
    );
    expect(() => openUserFile(dir)).toThrow(`cannot read ${dir}: a folder, not a regular file`);
    expect(() => openUserFile(join(dir, 'absent'))).toThrow(/: ENOENT$/);
  });

  it('reads a file whole within its limit, and refuses a larger one with the message or error given', () => {
    writeFileSync(join(dir, 'text'), 'héllo\n');
    expect(readUserText(join(dir, 'text'))).toBe('héllo\n');
    expect(readUserFile(join(dir, 'text'), { maxBytes: 7, tooLarge: () => 'no' }).length).toBe(7);
    expect(() => readUserFile(join(dir, 'text'), { maxBytes: 6, tooLarge: (size) => `${size} > 6` })).toThrow(
      new UserError('7 > 6'),
    );
    expect(() => readUserText(join(dir, 'text'), 3)).toThrow(/7 bytes, more than the 3 bytes/);
    const own = new FileFormatError('x', 'too big');
    expect(tooLargeError({ maxBytes: 1, tooLarge: () => own }, 2)).toBe(own);
  });
});
