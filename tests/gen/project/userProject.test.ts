/**
 * A user's project outside the repository drives every `gen` command with its own designs: through
 * its gen.config.ts (designs, suites, defaults), and with `--design` alone.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { availableEngines } from '../../../engines/index.ts';
import { expectCleanFailure } from '../../support/cli.ts';
import { CONFIG, genIn, makeProject, removeProject, repository } from './fixture.ts';

const bare = makeProject({ config: false });
const configured = makeProject({ config: true });
const moved = mkdtempSync(join(tmpdir(), 'gen-moved-'));
afterAll(() => [bare, configured, moved].forEach(removeProject));

const engines = availableEngines().available;

describe('a user project with gen.config.ts', () => {
  it('knows its designs and suites without --design, and writes under defaults.out', async () => {
    const list = await genIn(configured, ['list']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^Accumulator\s+mine\s+running sum of the input$/m);
    expect(list.stdout).not.toMatch(/Counter|BitmapDecoder/);
    const verilog = await genIn(configured, ['verilog', '--all']);
    expect(verilog.exitCode, verilog.stderr).toBe(0);
    expect(readdirSync(join(configured, 'build-out/verilog')).sort()).toEqual(['Accumulator', 'Adder']);
  });

  it('runs gen from a subfolder of the project, with paths relative to that subfolder', async () => {
    const run = await genIn(join(configured, 'src'), [
      'sim',
      '--top',
      'Accumulator',
      '--vectors',
      '../vectors.jsonl',
      '--vcd',
      'acc.vcd',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(join(configured, 'src/acc.vcd'))).toBe(true);
  });

  it.each(engines)('gen sim --engine %s --vcd, then gen wave show draws it', async (engine) => {
    const sim = await genIn(configured, [
      'sim',
      '--top',
      'Accumulator',
      '--vectors',
      'vectors.jsonl',
      '--engine',
      engine,
      '--vcd',
      `waves/${engine}.vcd`,
    ]);
    expect(sim.exitCode, sim.stderr).toBe(0);
    const wave = await genIn(configured, [
      'wave',
      'show',
      '--vcd',
      `waves/${engine}.vcd`,
      '--svg',
      `waves/${engine}.svg`,
    ]);
    expect(wave.exitCode, wave.stderr).toBe(0);
    expect(readFileSync(join(configured, `waves/${engine}.svg`), 'utf8')).toMatch(/<svg[\s\S]*sum/);
  });

  it('gen wave show --top simulates a top of the project and draws its run', async () => {
    const run = await genIn(configured, [
      'wave',
      'show',
      '--top',
      'Accumulator',
      '--vectors',
      'vectors.jsonl',
      '--svg',
      'direct.svg',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(readFileSync(join(configured, 'direct.svg'), 'utf8')).toMatch(/<svg[\s\S]*sum/);
    const neither = await genIn(configured, ['wave', 'show', '--svg', 'x.svg']);
    expect(expectCleanFailure(neither)).toMatch(/exactly one of --vcd FILE or --top NAME/);
  });

  it.runIf(engines.includes('icarus'))(
    'keeps its build cache in <project>/.gen-cache, or where $GEN_CACHE says',
    async () => {
      // The icarus test above built the Accumulator here, not in the framework's folder.
      expect(readdirSync(join(configured, '.gen-cache', 'icarus')).length).toBeGreaterThan(0);
      const elsewhere = join(moved, 'elsewhere-cache');
      writeFileSync(join(configured, 'adder.jsonl'), '{"in": {"a": 3, "b": 4}, "expect": {"y": "7"}}\n');
      const run = await execa(
        'node',
        [`${repository}/bin/gen.js`, 'sim', '--top', 'Adder', '--vectors', 'adder.jsonl', '--engine', 'icarus'],
        { cwd: configured, reject: false, env: { CI: '1', GEN_CACHE: elsewhere } },
      );
      expect(run.exitCode, run.stderr).toBe(0);
      expect(readdirSync(join(elsewhere, 'icarus')).length).toBeGreaterThan(0);
    },
  );

  it.runIf(engines.includes('icarus'))(
    "defaults.cache moves the build cache, for the regression's worker threads too",
    async () => {
      const root = makeProject({
        config: CONFIG.replace("defaults: { out: 'build-out' }", "defaults: { cache: 'my-cache', engine: 'icarus' }"),
      });
      try {
        const run = await genIn(root, ['regress', '--runs', '6', '--seed', '3', '--jobs', '2']);
        expect(run.exitCode, run.stderr).toBe(0);
        expect(run.stdout).toMatch(/^Accumulator\s+icarus\s+6\s+0\s/m);
        expect(readdirSync(join(root, 'my-cache', 'icarus')).filter((name) => !name.startsWith('.')).length).toBe(1);
        expect(existsSync(join(root, '.gen-cache'))).toBe(false);
      } finally {
        removeProject(root);
      }
    },
  );

  it('regresses its suite from the config', async () => {
    const run = await genIn(configured, ['regress', '--runs', '30', '--seed', '2', '--jobs', '2']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Accumulator\s+ts\s+30\s+0\s/m);
  });

  it('finds a planted bug, saves a folder that replays with one argument and whose stimulus runs with gen sim', async () => {
    const run = await genIn(configured, [
      'regress',
      '--load',
      'verif/buggy.ts',
      '--suite',
      'BuggyAccumulator',
      '--runs',
      '40',
      '--seed',
      '9',
      '--max-saved',
      '1',
      '--shrink-time',
      '5000',
    ]);
    expect(run.exitCode, run.stderr).toBe(1);
    const failing = /^FAIL BuggyAccumulator on ts, case (\d+): (.*)\n {2}replay: (.*)$/m.exec(run.stdout)!;
    expect(failing, run.stdout).not.toBeNull();
    const folder = join('build-out/regress/BuggyAccumulator-ts-9', `case-${failing[1]}`);
    expect(failing[3]).toBe(`npx gen regress --replay ${folder}`);
    const readme = readFileSync(join(configured, folder, 'README.txt'), 'utf8');
    expect(readme).toContain(`replay: npx gen regress --replay ${folder}`);

    const gen = `node ${repository}/bin/gen.js`;
    const replay = await execa('sh', ['-c', failing[3]!.replace('npx gen', gen)], {
      cwd: configured,
      reject: false,
      env: { CI: '1' },
    });
    expect(replay.exitCode, replay.stderr).toBe(1);
    expect(replay.stdout).toContain(`FAIL BuggyAccumulator on ts, case ${failing[1]}: ${failing[2]}`);

    const simulate = /^simulate: (.*)$/m.exec(readme)![1]!;
    expect(simulate).toMatch(
      /^npx gen sim --top BuggyAccumulator --vectors \S+stimulus\.jsonl --design verif\/buggy\.ts$/,
    );
    const sim = await execa('sh', ['-c', simulate.replace('npx gen', gen)], {
      cwd: configured,
      reject: false,
      env: { CI: '1' },
    });
    expect(sim.exitCode).toBe(1);
    expect(expectCleanFailure(sim)).toMatch(/mismatch.*sum expected/);
  }, 120_000);

  it.runIf(engines.includes('icarus'))(
    'scores its suite against Yosys mutants (--mutate)',
    async () => {
      const run = await genIn(configured, ['regress', '--mutate', '--mutants', '4', '--runs', '30', '--seed', '1']);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^Accumulator\s+4\s+[1-4]\s+\d+\s/m);
      expect(existsSync(join(configured, 'build-out/regress/mutation-1-Accumulator.json'))).toBe(true);
    },
    300_000,
  );

  it('synthesizes a top and reports its area', async () => {
    const run = await genIn(configured, ['synth', '--top', 'Adder', '--timing', 'longest-path', '--cycles', '20']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Adder/);
    expect(run.stdout).toMatch(/area/i);
  }, 300_000);
});

describe('a user project with --design', () => {
  it('lists its tops with their parameters, and nothing of the framework', async () => {
    const run = await genIn(bare, ['list', '--design', 'src/acc.ts', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const rows = JSON.parse(run.stdout) as { name: string; kind: string; parameters: { name: string }[] }[];
    expect(rows.map((row) => [row.name, row.kind, row.parameters.map((p) => p.name)])).toEqual([
      ['Accumulator', 'design', ['width']],
      ['Adder', 'design', ['width']],
    ]);
  });

  it('writes Verilog citing its sources relative to the project, the same after the project moves', async () => {
    const run = await genIn(bare, ['verilog', '--design', 'src/acc.ts', '--top', 'Accumulator', '--param', 'width=12']);
    expect(run.exitCode, run.stderr).toBe(0);
    const verilog = readFileSync(join(bare, 'out/verilog/Accumulator_width_12.v'), 'utf8');
    expect(verilog).toMatch(/Generated from Accumulator \(src\/acc\.ts:4\) with width=12/);
    expect(verilog).not.toContain(bare);
    const manifest = readFileSync(join(bare, 'out/verilog/manifest.json'), 'utf8');
    expect(manifest).toContain('"src/acc.ts:');
    expect(manifest).not.toContain(bare);

    cpSync(bare, moved, { recursive: true, verbatimSymlinks: true });
    const again = await genIn(moved, [
      'verilog',
      '--design',
      'src/acc.ts',
      '--top',
      'Accumulator',
      '--param',
      'width=12',
    ]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(readFileSync(join(moved, 'out/verilog/Accumulator_width_12.v'), 'utf8')).toBe(verilog);
    expect(readFileSync(join(moved, 'out/verilog/manifest.json'), 'utf8')).toBe(manifest);
  });

  it('simulates a top on every installed engine with equal outputs, checking expect', async () => {
    // One build cache for both projects ($GEN_CACHE, as a user may share one): the Verilator run
    // here is served by the traced build of the same Accumulator the project above made (the
    // suite's GEN_VERILATOR_REUSE_TRACED), not a second build of the design and of Verilator's runtime.
    const shared = join(configured, '.gen-cache');
    const verilatorBuilds = (): string[] =>
      existsSync(join(shared, 'verilator')) ? readdirSync(join(shared, 'verilator')).sort() : [];
    const builtBefore = verilatorBuilds();
    const outputs: string[] = [];
    for (const engine of engines) {
      const run = await genIn(
        bare,
        ['sim', '--design', 'src/acc.ts', '--top', 'Accumulator', '--vectors', 'vectors.jsonl', '--engine', engine],
        { GEN_CACHE: shared },
      );
      expect(run.exitCode, `${engine}: ${run.stderr}`).toBe(0);
      outputs.push(run.stdout);
    }
    expect(outputs[0]).toContain('"sum":"0xc"');
    for (const output of outputs) expect(output).toBe(outputs[0]);
    if (engines.includes('verilator')) expect(verilatorBuilds()).toEqual(builtBefore);
  });

  it('loads a plain JavaScript design file too', async () => {
    writeFileSync(
      join(bare, 'src/inverter.js'),
      `import { defineModule, input, output } from ${JSON.stringify(`${repository}/hw/core/index.ts`)};
export const Inverter = defineModule({ name: 'Inverter', defaults: {}, ports: () => ({ a: input(4), y: output(4) }), build: (m, io) => io.y.set(io.a.not()) });
`,
    );
    const run = await genIn(bare, ['verilog', '--design', 'src/inverter.js', '--top', 'Inverter', '--out', 'inv']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(readFileSync(join(bare, 'inv/Inverter.v'), 'utf8')).toMatch(
      /Generated from Inverter \(src\/inverter\.js:2\)/,
    );
  });

  it('runs a suite file given with --design or --load', async () => {
    const run = await genIn(bare, ['regress', '--design', 'verif/accSuite.ts', '--runs', '20', '--seed', '4']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Accumulator\s+ts\s+20\s+0\s/m);
  });
});
