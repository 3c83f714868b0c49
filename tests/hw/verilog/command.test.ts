import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { expectCleanFailure, runGen } from '../../support/cli.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { findTop } from '../../support/registry.ts';

describe('gen verilog', () => {
  it('writes one file per module and a manifest, identical to the emitter', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gen-verilog-')), 'rtl');
    const run = await runGen(['verilog', '--top', 'Counter', '--param', 'width=16', '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['Counter_width_16.v', 'manifest.json']);
    const expected = emitVerilog(elaborate(findTop('Counter').definition, { width: 16 }));
    expect(readFileSync(join(out, 'Counter_width_16.v'), 'utf8')).toBe(expected.get('Counter_width_16.v'));
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      top: string;
      modules: { parameters: unknown }[];
    };
    expect(manifest.top).toBe('Counter_width_16');
    expect(manifest.modules[0]!.parameters).toEqual({ width: 16 });
  });

  it('misuse (unknown top, bad or rejected parameter, unwritable directory): one line, non-zero exit, no files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gen-verilog-'));
    writeFileSync(join(dir, 'plain'), 'not a directory');
    const cases: [string[], RegExp][] = [
      [['--top', 'NoSuchTop', '--out', join(dir, 'rtl')], /unknown top 'NoSuchTop' \(known: .*Counter/],
      [['--top', 'Counter', '--param', 'width=wide', '--out', join(dir, 'rtl')], /--param width needs a whole number/],
      [['--top', 'Counter', '--param', 'width=0', '--out', join(dir, 'rtl')], /counter\.ts:\d+: width 0 is not/],
      [
        ['--top', 'Counter', '--out', join(dir, 'plain', 'rtl')],
        /cannot write .*plain\/rtl: a part of the path is not a folder \(ENOTDIR\)/,
      ],
      [['--top', 'Counter', '--out', join(dir, 'a'), '--out', join(dir, 'b')], /give --out once/],
    ];
    // Concurrent: each CLI start costs seconds of TypeScript transpiling.
    const runs = await Promise.all(cases.map(([args]) => runGen(['verilog', ...args])));
    runs.forEach((run, index) => expect(expectCleanFailure(run)).toMatch(cases[index]![1]));
    expect(readdirSync(dir)).toEqual(['plain']);
  });
});
