import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refuseFolderOverInputs, refuseOutputsOverInputs } from '../../common/outputClash.ts';

const dir = mkdtempSync(join(tmpdir(), 'output-clash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string): string => join(dir, name);
writeFileSync(file('in.txt'), 'x');
symlinkSync('in.txt', file('link.txt'));
mkdirSync(file('sub'));
writeFileSync(file('sub/in.npy'), 'x');

describe('outputs naming inputs', () => {
  it('refuses an output that is an input (directly, through a link, through ..) or another output', () => {
    expect(() => refuseOutputsOverInputs({ '--vectors': file('in.txt') }, { '--out': file('link.txt') })).toThrow(
      `--out names the same file as --vectors (${file('link.txt')}); write the output elsewhere`,
    );
    expect(() => refuseOutputsOverInputs({ a: file('sub/../in.txt') }, { '--svg': file('in.txt') })).toThrow(
      /--svg names the same file as a/,
    );
    expect(() => refuseOutputsOverInputs({}, { '--out': file('new.txt'), '--vcd': file('sub/../new.txt') })).toThrow(
      /--vcd names the same file as --out/,
    );
  });

  it('lets distinct files, absent options and devices named twice through', () => {
    refuseOutputsOverInputs({ '--vectors': file('in.txt'), '--c': undefined }, { '--out': file('out.txt') });
    refuseOutputsOverInputs({ '--vectors': '/dev/null' }, { '--out': '/dev/null', '--vcd': '/dev/null' });
  });

  it('refuses a folder replaced whole that holds an input', () => {
    expect(() => refuseFolderOverInputs({ '--a': file('sub/in.npy') }, { name: '--out', path: file('sub') })).toThrow(
      /--out .*sub holds --a .*replaced as a whole/,
    );
    refuseFolderOverInputs({ '--a': file('in.txt') }, { name: '--out', path: file('sub') });
    refuseFolderOverInputs({ '--a': file('sub/in.npy') }, { name: '--out', path: file('absent') });
  });
});
