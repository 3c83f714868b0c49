import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expectCleanFailure, runGen } from '../support/cli.ts';
import { CORE_IMPORT, designFolder } from './support/designFolder.ts';
import { KEYWORD_DESIGN, KEYWORD_VECTORS, expectEnginesAgree } from './support/keywordDesign.ts';
import { hasTool } from '../../tools/toolchain.ts';
import { checkWithYosys, lintWithVerilator } from '../../tools/lint.ts';
import { withWorkspace } from '../../tools/runTool.ts';
import { writeFilesStaged } from '../../hw/verilog/writeDesign.ts';
import { InvalidParameterError, defineModule } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { MutantEngine } from '../../verif/regress/mutation/mutantEngine.ts';

/*
 * Module and port names from a user's design become file names and Verilog identifiers. Before:
 * a module named `../../escaped` wrote `escaped.v` two folders above `--out` (and above the build
 * cache's entry), exit 0; ports `input` and `input_v` both became `input_v` (invalid Verilog, exit
 * 0); a module `begin` was emitted as `module begin`.
 */

const BAD_MODULE_NAMES = ['../../escaped', 'a/b', 'two words', '', '9lives', 'x\ny'];

const PATH_NAMED_DESIGN = `import { defineModule, input, output } from ${CORE_IMPORT};
export const Escaping = defineModule({
  name: '../../escaped',
  defaults: {},
  ports: () => ({ a: input(1), y: output(1) }),
  build: (_m, io) => io.y.set(io.a),
});
`;

const TOP_DESIGN = `import { defineModule, input, output } from ${CORE_IMPORT};
export const Top = defineModule({
  name: 'TOP',
  defaults: {},
  ports: () => ({ a: input(8), y: output(8) }),
  build: (_m, io) => io.y.set(io.a.add(1)),
});
`;

const folder = designFolder({
  'top.ts': TOP_DESIGN,
  'top.jsonl': '{"in": {"a": 41}, "expect": {"y": 42}}\n',
  'escaping.ts': PATH_NAMED_DESIGN,
  'keywords.ts': KEYWORD_DESIGN,
  'vectors.jsonl': KEYWORD_VECTORS,
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
  it('gen verilog and gen sim --engine icarus: refused in one line at its source line; no file written anywhere', async () => {
    const before = filesUnder(folder.root);
    for (const args of [
      ['verilog', '--design', '../../escaping.ts', '--top', '../../escaped', '--out', 'out'],
      ...(hasTool('iverilog')
        ? [
            [
              'sim',
              '--design',
              '../../escaping.ts',
              '--top',
              '../../escaped',
              '--engine',
              'icarus',
              '--vectors',
              '../../vectors.jsonl',
            ],
          ]
        : []),
    ]) {
      const run = await runGen(args, { cwd: here });
      expect(expectCleanFailure(run)).toMatch(
        /^gen: \S*escaping\.ts: cannot load: \S*escaping\.ts:2: module name '\.\.\/\.\.\/escaped' is not a valid name \(letters, digits, _; not starting with a digit\)$/,
      );
      expect(run.exitCode).toBe(2);
    }
    expect(filesUnder(folder.root)).toEqual(before);
  }, 60_000);

  it.each(BAD_MODULE_NAMES.map((name) => [JSON.stringify(name), name]))(
    '%s: refused by defineModule, and by elaborate when a definition is copied under that name',
    (_shown, name) => {
      const message = /module name '.*' is not a valid name \(letters, digits, _; not starting with a digit\)$/;
      expect(() => defineModule({ ...Counter, name })).toThrow(InvalidParameterError);
      expect(() => defineModule({ ...Counter, name })).toThrow(message);
      expect(() => elaborate({ ...Counter, name })).toThrow(message);
    },
  );

  it('file names formed by a caller cannot leave the work or output folder', async () => {
    for (const name of ['../escaped.v', '/tmp/escaped.v', '', 'a/../../escaped.v'])
      await expect(withWorkspace('names', { [name]: 'module m; endmodule\n' }, async () => 0)).rejects.toThrow(
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
      ['KwTop.end.clk', 'clk'],
      ['KwTop.end.reset', 'reset'],
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

  it('gen sim --vcd: the ts and Icarus traces name the signals by their DSL names and agree (Verilator: the soak)', async () => {
    await expectEnginesAgree(folder.root, ['ts', ...(hasTool('iverilog') ? ['icarus'] : [])]);
  }, 120_000);

  it.skipIf(!hasTool('iverilog'))(
    "a module named TOP, the harnesses' own top, runs on Icarus as TOP_v (was: iverilog exit 2)",
    async () => {
      const run = await runGen(
        ['sim', '--design', 'top.ts', '--top', 'TOP', '--vectors', 'top.jsonl', '--engine', 'icarus'],
        {
          cwd: folder.root,
        },
      );
      expect(run.stderr).toBe('');
      expect(run.exitCode).toBe(0);
    },
    60_000,
  );

  it.skipIf(!hasTool('iverilog'))(
    'the mutation engine finds the registers of a top named after a keyword (was: begin_v_v)',
    async () => {
      const { Begin } = (await import(join(folder.root, 'keywords.ts'))) as Record<
        string,
        Parameters<typeof elaborate>[0]
      >;
      const design = elaborate(Begin!);
      expect(design.top).toBe('begin_v');
      const engine = new MutantEngine([...emitVerilog(design).values()].join('\n'));
      const run = await engine.run(design, [
        { reset: 1n, input: 0n, input_v: 0n },
        { reset: 0n, input: 3n, input_v: 5n },
        { reset: 0n, input: 0n, input_v: 0n },
      ]);
      expect(run.outputs.map((outputs) => outputs['y'])).toEqual([0n, 0n, 6n]);
    },
    60_000,
  );
});
