import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expectCleanFailure, runGen } from '../support/cli.ts';
import { CORE_IMPORT, designFolder } from './support/designFolder.ts';
import { readVcdFile } from '../../waves/vcdReader.ts';
import { hasTool } from '../../tools/toolchain.ts';
import { checkWithYosys, lintWithVerilator } from '../../tools/lint.ts';
import { withWorkspace } from '../../tools/runTool.ts';
import { writeFilesStaged } from '../../hw/verilog/writeDesign.ts';

/*
 * Module and port names from a user's design become file names and Verilog identifiers. Before:
 * a module named `../../escaped` wrote `escaped.v` two folders above `--out` (and above the build
 * cache's entry), exit 0; ports `input` and `input_v` both became `input_v` (invalid Verilog, exit
 * 0); a module `begin` was emitted as `module begin`.
 */

const BAD_MODULE_NAMES = ['../../escaped', 'a/b', 'two words', '', '9lives', 'x\ny'];

const badDesign = (name: string): string => `import { defineModule, input, output } from ${CORE_IMPORT};
export const Bad = defineModule({
  name: ${JSON.stringify(name)},
  defaults: {},
  ports: () => ({ a: input(1), y: output(1) }),
  build: (_m, io) => io.y.set(io.a),
});
`;

const KEYWORD_DESIGN = `import { defineModule, input, output } from ${CORE_IMPORT};
/** A module named after a Verilog keyword, whose ports clash once keywords are escaped. */
export const Begin = defineModule({
  name: 'begin',
  defaults: {},
  ports: () => ({ input: input(4), input_v: input(4), y: output(4) }),
  build: (m, io) => {
    const reg = m.reg('reg', 4, { reset: 0 });
    reg.set(io.input.xor(io.input_v));
    io.y.set(reg);
  },
});
export const KwTop = defineModule({
  name: 'KwTop',
  defaults: {},
  ports: () => ({ a: input(4), b: input(4), y: output(4) }),
  build: (m, io) => {
    const end = m.instance(Begin, { name: 'end' });
    end.input.set(io.a);
    end.input_v.set(io.b);
    io.y.set(end.y);
  },
});
`;

const VECTORS = [
  { reset: 1, a: 0, b: 0 },
  { reset: 0, a: 3, b: 5 },
  { reset: 0, a: 15, b: 1 },
  { reset: 0, a: 7, b: 7 },
  { reset: 0, a: 9, b: 0 },
]
  .map((inputs) => JSON.stringify({ in: inputs }))
  .join('\n');

const folder = designFolder({
  ...Object.fromEntries(BAD_MODULE_NAMES.map((name, index) => [`bad${index}.ts`, badDesign(name)])),
  'keywords.ts': KEYWORD_DESIGN,
  'vectors.jsonl': `${VECTORS}\n`,
});
afterAll(folder.remove);
const here = join(folder.root, 'deep', 'er');
mkdirSync(here, { recursive: true });

/** Every file under the folder, relative to it (the design files and what gen wrote). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

describe('a module name that is not an identifier', () => {
  it.each(BAD_MODULE_NAMES.map((name, index) => [JSON.stringify(name), index] as const))(
    '%s: refused in one line at its source line; no file written anywhere',
    async (_shown, index) => {
      const before = filesUnder(folder.root);
      const design = join(folder.root, `bad${index}.ts`);
      const name = BAD_MODULE_NAMES[index]!;
      for (const args of [
        ['verilog', '--design', design, '--top', name, '--out', 'out'],
        ...(hasTool('iverilog')
          ? [['sim', '--design', design, '--top', name, '--engine', 'icarus', '--vectors', '../../vectors.jsonl']]
          : []),
      ]) {
        const run = await runGen(args, { cwd: here });
        expect(expectCleanFailure(run)).toMatch(
          new RegExp(`bad${index}\\.ts:3: module name '.*' is not a valid name \\(letters, digits, _`),
        );
        expect(run.exitCode).toBe(2);
      }
      expect(filesUnder(folder.root)).toEqual(before);
    },
    60_000,
  );

  it('file names formed by a caller cannot leave the work or output folder', async () => {
    for (const name of ['../escaped.v', '/tmp/escaped.v', '', 'a/../../escaped.v'])
      await expect(withWorkspace('names', { [name]: 'module m; endmodule\n' }, () => 0)).rejects.toThrow(
        /not a plain relative file name/,
      );
    for (const name of ['../escaped.v', 'top/../../escaped.v'])
      expect(() => writeFilesStaged(join(here, 'staged'), new Map([[name, '']]))).toThrow(
        /not a plain relative file name/,
      );
    expect(existsSync(join(here, 'staged'))).toBe(false);
    expect(existsSync(join(folder.root, 'deep', 'escaped.v'))).toBe(false);
  });
});

describe('keywords and the names their escapes take', () => {
  it('gen verilog: module begin and ports input / input_v stay distinct; Verilator -Wall and Yosys accept it', async () => {
    const out = join(here, 'kw');
    const run = await runGen(['verilog', '--design', '../../keywords.ts', '--top', 'KwTop', '--out', out], {
      cwd: here,
    });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['KwTop.v', 'begin_v.v', 'manifest.json']);
    const files = new Map(['KwTop.v', 'begin_v.v'].map((name) => [name, readFileSync(join(out, name), 'utf8')]));
    expect(files.get('begin_v.v')).toMatch(/^module begin_v \(/m);
    expect(files.get('begin_v.v')).toMatch(/input {2}wire \[3:0\] input_v,/);
    expect(files.get('begin_v.v')).toMatch(/input {2}wire \[3:0\] input_v_v,/);
    expect(files.get('KwTop.v')).toMatch(/begin_v end_v \(/);

    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      modules: { name: string; definition: string; file: string }[];
      sourceMap: { path: string; module: string; verilog: string; vcd: string }[];
    };
    expect(manifest.modules.map(({ name, definition, file }) => [name, definition, file])).toEqual([
      ['begin_v', 'begin', 'begin_v.v'],
      ['KwTop', 'KwTop', 'KwTop.v'],
    ]);
    const inBegin = manifest.sourceMap.filter((entry) => entry.module === 'begin_v');
    expect(inBegin.map(({ path, verilog }) => [path, verilog])).toEqual([
      ['KwTop.end.input', 'input_v'],
      ['KwTop.end.input_v', 'input_v_v'],
      ['KwTop.end.y', 'y'],
      ['KwTop.end.reg', 'reg_v'],
    ]);
    for (const module of ['begin_v', 'KwTop']) {
      const names = manifest.sourceMap.filter((entry) => entry.module === module).map((entry) => entry.verilog);
      expect(new Set(names).size).toBe(names.length);
    }

    if (hasTool('verilator')) expect(await lintWithVerilator(files, 'KwTop')).toEqual([]);
    expect(await checkWithYosys(files, 'KwTop')).toEqual([]);
  }, 120_000);

  it('gen sim --vcd: the ts, Icarus and Verilator traces name the signals by their DSL names and agree', async () => {
    const engines = ['ts', ...(hasTool('iverilog') ? ['icarus'] : []), ...(hasTool('verilator') ? ['verilator'] : [])];
    const traces: string[] = [];
    for (const engine of engines) {
      const vcd = join(here, `${engine}.vcd`);
      const run = await runGen(
        ['sim', '--design', '../../keywords.ts', '--top', 'KwTop', '--vectors', '../../vectors.jsonl'].concat(
          ['--engine', engine, '--vcd', vcd],
        ),
        { cwd: here },
      );
      expect(run.stderr).toBe('');
      traces.push(vcd);
    }
    const names = readVcdFile(traces[0]!).signals.map((signal) => signal.fullName);
    expect(names).toEqual(
      expect.arrayContaining(['KwTop.end.input', 'KwTop.end.input_v', 'KwTop.end.reg', 'KwTop.end.y']),
    );
    for (const trace of traces.slice(1)) {
      expect(readVcdFile(trace).signals.map((signal) => signal.fullName)).toEqual(names);
      const diff = await runGen(['wave', 'diff', traces[0]!, trace]);
      expect(diff.stdout).toMatch(/^identical/);
      expect(diff.exitCode).toBe(0);
    }
  }, 240_000);
});
