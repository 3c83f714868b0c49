import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStagingFolder, swapFolderIn, withSignalsHeld } from '../../common/folderSwap.ts';

/*
 * The folder swap behind gen verilog, the report and failure folders: what a SIGKILL between its
 * two renames leaves is repaired by the next writer; a symlinked folder keeps its link; a file
 * where the folder should be is refused, never renamed over.
 */

const dir = mkdtempSync(join(tmpdir(), 'hardening-folder-swap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pid that surely does not run: a child that has already exited. */
const deadPid = (): number => spawnSync('true').pid!;

describe('folder swap', () => {
  it('a kill between the two renames (old set aside, no target) is put back by the next writer, then swapped', () => {
    const parent = join(dir, 'killed');
    mkdirSync(parent);
    const pid = deadPid();
    // What a SIGKILL right after "rename TARGET → .TARGET.previous-PID-HEX" leaves:
    mkdirSync(join(parent, `.out.previous-${pid}-0123abcd`));
    writeFileSync(join(parent, `.out.previous-${pid}-0123abcd`, 'a.v'), 'old\n');
    mkdirSync(join(parent, `.out.staging-${pid}-89abcdef`));
    writeFileSync(join(parent, `.out.staging-${pid}-89abcdef`, 'a.v'), 'half\n');
    const target = join(parent, 'out');
    const staging = createStagingFolder(target);
    expect(readFileSync(join(target, 'a.v'), 'utf8')).toBe('old\n');
    expect(readdirSync(parent).sort()).toEqual(['out', staging.split('/').at(-1)].sort());
    writeFileSync(join(staging, 'a.v'), 'new\n');
    swapFolderIn(staging, target);
    expect(readFileSync(join(target, 'a.v'), 'utf8')).toBe('new\n');
    expect(readdirSync(parent)).toEqual(['out']);
  });

  it('a symlink to a folder stays a link; the folder it names is replaced', () => {
    const parent = join(dir, 'linked');
    mkdirSync(join(parent, 'real'), { recursive: true });
    writeFileSync(join(parent, 'real', 'a.v'), 'old\n');
    symlinkSync('real', join(parent, 'link'));
    const staging = createStagingFolder(join(parent, 'link'));
    writeFileSync(join(staging, 'a.v'), 'new\n');
    swapFolderIn(staging, join(parent, 'link'));
    expect(lstatSync(join(parent, 'link')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(parent, 'real', 'a.v'), 'utf8')).toBe('new\n');
    expect(readdirSync(parent).sort()).toEqual(['link', 'real']);
  });

  it('a file where the folder should be is refused in one line and kept', () => {
    const parent = join(dir, 'file');
    mkdirSync(parent);
    writeFileSync(join(parent, 'out'), 'mine\n');
    expect(() => createStagingFolder(join(parent, 'out'))).toThrow(/out exists and is not a folder/);
    expect(readFileSync(join(parent, 'out'), 'utf8')).toBe('mine\n');
  });
});

describe('withSignalsHeld', () => {
  it('installs one handler per signal however many holds one tick opens, and removes it after', async () => {
    const settled = (): Promise<unknown> => new Promise((resolve) => setImmediate(resolve));
    await settled(); // the holds of the swaps above are released
    const before = process.listenerCount('SIGTERM');
    // A loop of swaps in one tick (a regression writing many failure folders) used to add a
    // handler each until Node warned of a listener leak past 10.
    for (let hold = 0; hold < 20; hold++) withSignalsHeld(() => undefined);
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    await settled();
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
