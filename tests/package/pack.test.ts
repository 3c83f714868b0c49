import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableEngines } from '../../engines/index.ts';

/**
 * The framework as a user gets it: `npm pack`, the tarball installed into a fresh project made by
 * `gen init` in a temporary folder outside the repository, and every `gen` command run there
 * through `npx gen` on the project's own design.
 */
const repo = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'gen-package-'));
const project = join(work, 'project');
const engines = availableEngines().available;
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

// What the repository's own test run puts in the environment (vitest's and npm's variables, a
// cache folder) must not leak into the user's project.
const cleanEnvironment = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !/^(npm_|VITEST|NODE_ENV$|NODE_OPTIONS$|GEN_|INIT_CWD$|TEST$)/.test(name),
  ),
);

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  timeoutSeconds = 240,
  environment: Record<string, string> = {},
): Run {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...cleanEnvironment, CI: '1', NO_COLOR: '1', ...environment },
    timeout: timeoutSeconds * 1000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? String(result.error ?? '') };
}

/** Runs a command and expects exit 0, showing its output when it fails. */
function ok(
  command: string,
  args: readonly string[],
  cwd = project,
  timeoutSeconds?: number,
  environment?: Record<string, string>,
): Run {
  const result = run(command, args, cwd, timeoutSeconds, environment);
  expect(result.status, `${command} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
}

const gen = (...args: string[]): Run => run('npx', ['--no-install', 'gen', ...args], project);
const genOk = (...args: string[]): Run => ok('npx', ['--no-install', 'gen', ...args]);

const DESIGN = join(project, 'src', 'accumulator.ts');
/** The injected bug: a value above 200 is added one too high. */
const BUG = [
  'sum.set(sum.add(io.value))',
  'sum.set(sum.add(mux(io.value.gt(200), io.value.add(1), io.value)))',
] as const;

let tarball = '';

beforeAll(() => {
  // The package's build without its type check (scripts/buildPackage.mjs): `make test` type-checks
  // the same tree, and the declarations it emits are checked below, by tsc in the user's project.
  ok('npm', ['pack', repo, '--pack-destination', work, '--silent'], work, 280, { BUILD_NO_TYPECHECK: '1' });
  tarball = join(
    work,
    readdirSync(work).find((name) => name.endsWith('.tgz'))!,
  );
  ok(process.execPath, [join(repo, 'bin', 'gen.js'), 'init', project, `--framework=file:${tarball}`], work);
  ok('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], project, 280);
}, 600_000);

// Each step runs real tools on two shared cores: allow minutes, not the default two.
describe('the packed framework in a user project', { timeout: 300_000 }, () => {
  it('is a fresh project outside the repository, with the compiled package and no sources', () => {
    expect(relative(repo, project).startsWith('..')).toBe(true);
    const installed = join(project, 'node_modules', 'coruscant-hdl');
    expect(existsSync(join(installed, 'dist', 'api', 'index.js'))).toBe(true);
    expect(existsSync(join(installed, 'dist', 'api', 'index.d.ts'))).toBe(true);
    expect(existsSync(join(installed, 'hw'))).toBe(false);
    expect(existsSync(join(installed, 'tests'))).toBe(false);
    // The declarations point at .js files, so a user's compiler resolves them without special flags.
    const declaration = readFileSync(join(installed, 'dist', 'hw', 'core', 'index.d.ts'), 'utf8');
    expect(declaration).toMatch(/from '\.\/value\.js'/);
    const declarations = readdirSync(join(installed, 'dist'), { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.d.ts'),
    );
    expect(declarations.length).toBeGreaterThan(100);
    const tsSpecifiers = declarations.filter((file) =>
      /(from|import)\s*\(?\s*['"]\.\.?\/[^'"]*\.ts['"]/.test(readFileSync(join(installed, 'dist', file), 'utf8')),
    );
    expect(tsSpecifiers).toEqual([]);
  });

  it("passes gen init's own tests at once, on every installed engine", () => {
    const result = ok('npm', ['test', '--', '--reporter=verbose'], project, 280);
    for (const engine of engines) {
      expect(result.stdout).toContain(`Accumulator on ${engine}`);
      expect(result.stdout).toContain(`StreamFifo on ${engine}`);
    }
    // Two accumulator tests and the valid/ready agent's queue test, per engine.
    expect(result.stdout).toMatch(new RegExp(`Tests\\s+${3 * engines.length} passed`));
  });

  it('type-checks with the tsconfig gen init wrote (no special flags), and with Bundler resolution', () => {
    const tsconfig = readFileSync(join(project, 'tsconfig.json'), 'utf8');
    expect(tsconfig).not.toMatch(/allowImportingTsExtensions|skipLibCheck/);
    ok('npx', ['--no-install', 'tsc', '--noEmit']);
    // A bundler-style project resolves the package's exports just as well.
    const bundler = {
      extends: './tsconfig.json',
      compilerOptions: { module: 'preserve', moduleResolution: 'bundler' },
    };
    writeFileSync(join(project, 'tsconfig.bundler.json'), JSON.stringify(bundler));
    ok('npx', ['--no-install', 'tsc', '--noEmit', '-p', 'tsconfig.bundler.json']);
  });

  it('gen init of the installed package writes the same project', () => {
    const second = join(work, 'second');
    ok('npx', ['--no-install', 'gen', 'init', second, `--framework=file:${tarball}`]);
    for (const file of [
      'src/accumulator.ts',
      'tests/accumulator.test.ts',
      'gen.config.ts',
      'tsconfig.json',
      '.gitignore',
    ])
      expect(readFileSync(join(second, file), 'utf8')).toBe(readFileSync(join(project, file), 'utf8'));
    const refused = run('npx', ['--no-install', 'gen', 'init', second], project);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr.trim()).toMatch(/^gen: .*second is not empty/);
  });

  it('a broken design file is one line naming the file, exit 2', () => {
    writeFileSync(join(project, 'broken.ts'), 'export const = ;\n');
    const result = gen('list', '--design', 'broken.ts');
    expect(result.status).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/broken\.ts/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('gen list shows the project design from gen.config.ts', () => {
    const rows = JSON.parse(genOk('list', '--json').stdout) as { name: string }[];
    expect(rows.map((row) => row.name)).toContain('Accumulator');
  });

  it('gen verilog writes Verilog that is lint-clean in Verilator -Wall and Yosys', () => {
    genOk('verilog', '--top', 'Accumulator', '--param', 'width=12', '--out', 'out/verilog');
    const folder = join(project, 'out', 'verilog');
    const files = readdirSync(folder).filter((name) => name.endsWith('.v'));
    expect(files).toEqual(['Accumulator_width_12.v']);
    const verilog = readFileSync(join(folder, files[0]!), 'utf8');
    expect(verilog).toMatch(/module Accumulator_width_12/);
    // Source locations are relative to the project, so the output does not change when it moves.
    expect(verilog).toContain('src/accumulator.ts:');
    expect(verilog).not.toContain(project);
    expect(readFileSync(join(folder, 'manifest.json'), 'utf8')).not.toContain(project);
    if (engines.includes('verilator')) {
      const lint = ok('verilator', ['--lint-only', '-Wall', ...files], folder);
      expect(lint.stderr).not.toMatch(/%Warning|%Error/);
    }
    // The bundled Yosys through the package's API, from plain Node (no tsx: the compiled code alone)…
    const script = [
      "import { readFileSync } from 'node:fs';",
      "import { checkWithYosys } from 'coruscant-hdl/verilog';",
      `const files = new Map(${JSON.stringify(files)}.map((name) => [name, readFileSync('out/verilog/' + name, 'utf8')]));`,
      "console.log(JSON.stringify(await checkWithYosys(files, 'Accumulator_width_12')));",
    ].join('\n');
    const bundled = ok(process.execPath, ['--input-type=module', '-e', script]);
    expect(JSON.parse(bundled.stdout)).toEqual([]);
    // …and the system Yosys when it is installed.
    if (run('yosys', ['-V'], folder).status === 0)
      ok(
        'yosys',
        [
          '-q',
          '-p',
          `read_verilog ${files.join(' ')}; hierarchy -check -top Accumulator_width_12; proc; check -assert`,
        ],
        folder,
      );
  });

  it('gen sim gives the same outputs on every engine, and gen wave show draws the trace', () => {
    const vectors = [
      { in: { reset: 1 } },
      { in: { reset: 0, enable: 1, value: 200 } },
      { in: { value: 100 } },
      { in: { value: 7 }, expect: { sum: '0x2c' } },
      { in: { enable: 0 }, expect: { sum: '0x33' } },
      { in: {}, expect: { sum: '0x33' } },
    ];
    writeFileSync(join(project, 'vectors.jsonl'), vectors.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const outputs = engines.map((engine) => {
      const vcd = `out/sim-${engine}.vcd`;
      const result = genOk(
        'sim',
        '--top',
        'Accumulator',
        '--vectors',
        'vectors.jsonl',
        '--engine',
        engine,
        '--vcd',
        vcd,
      );
      expect(existsSync(join(project, vcd))).toBe(true);
      return result.stdout;
    });
    expect(outputs[0]).toContain('"sum":"0x33"');
    for (const output of outputs) expect(output).toBe(outputs[0]);
    const last = engines[engines.length - 1]!;
    genOk('wave', 'show', '--vcd', `out/sim-${last}.vcd`, '--svg', 'out/sim.svg');
    expect(readFileSync(join(project, 'out', 'sim.svg'), 'utf8')).toMatch(/^<svg[\s\S]*sum[\s\S]*<\/svg>\s*$/);
  });

  it('gen regress passes, then finds, shrinks and replays an injected bug', () => {
    const regressEngines = engines.filter((engine) => engine !== 'icarus').join(',');
    const passing = genOk(
      'regress',
      '--suite',
      'Accumulator',
      '--engine',
      regressEngines,
      '--runs',
      '30',
      '--seed',
      '7',
    );
    expect(passing.stdout).toMatch(/Accumulator/);

    const original = readFileSync(DESIGN, 'utf8');
    let stimulus = '';
    expect(original).toContain(BUG[0]);
    writeFileSync(
      DESIGN,
      original
        .replace(BUG[0], BUG[1])
        .replace(
          "import { defineModule, input, output } from 'coruscant-hdl';",
          "import { defineModule, input, mux, output } from 'coruscant-hdl';",
        ),
    );
    try {
      const failing = gen(
        'regress',
        '--suite',
        'Accumulator',
        '--engine',
        'ts',
        '--runs',
        '30',
        '--seed',
        '7',
        '--out',
        'out/regress',
      );
      expect(failing.status, failing.stderr).toBe(1);
      expect(failing.stdout).toMatch(/FAIL Accumulator on ts, case \d+/);
      const replay = /replay: (.*)/.exec(failing.stdout)?.[1];
      const saved = /saved: (.*)/.exec(failing.stdout)?.[1];
      expect(replay).toMatch(/^npx gen regress /);
      expect(saved).toBeDefined();
      const folder = join(project, saved!.trim());
      stimulus = relative(project, join(folder, 'stimulus.jsonl'));
      // Shrunk: the saved case is a short stream in which a value above 200 is added.
      const savedCase = JSON.parse(readFileSync(join(folder, 'case.json'), 'utf8')) as { case: unknown[] };
      expect(savedCase.case.length).toBeLessThanOrEqual(4);

      const replayed = run('sh', ['-c', replay!], project);
      expect(replayed.status, replayed.stdout + replayed.stderr).toBe(1);
      expect(replayed.stdout).toMatch(/FAIL Accumulator on ts/);

      const short = gen('regress', '--replay', saved!.trim());
      expect(short.status, short.stdout + short.stderr).toBe(1);
      expect(short.stdout).toMatch(/FAIL Accumulator on ts/);

      // The saved stimulus runs with gen sim: its golden expectations catch the same wrong sum.
      const simulated = gen('sim', '--top', 'Accumulator', '--vectors', stimulus);
      expect(simulated.status, simulated.stdout + simulated.stderr).toBe(1);
      expect(simulated.stderr).toMatch(/^gen: .*stimulus\.jsonl:\d+\): sum expected 0x[0-9a-f]+, got 0x[0-9a-f]+\n$/);
    } finally {
      writeFileSync(DESIGN, original);
    }
    genOk('regress', '--suite', 'Accumulator', '--engine', 'ts', '--runs', '30', '--seed', '7');
    genOk('sim', '--top', 'Accumulator', '--vectors', stimulus);
  });

  it("runs the README's “Your own project” commands as written", () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Your own project'),
      readme.indexOf('\n## ', readme.indexOf('## Your own project') + 3),
    );
    const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
      .flatMap((block) => block[1]!.split('\n'))
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line.startsWith('npx gen '));
    expect(commands.length).toBeGreaterThanOrEqual(6);
    const outputs = new Map<string, string>();
    for (const command of commands) {
      const result = run('sh', ['-c', command], project);
      expect(result.status, `${command}\n${result.stdout}\n${result.stderr}`).toBe(0);
      outputs.set(command.split(' ')[2]!, result.stdout);
    }
    expect(readFileSync(join(project, 'out', 'accumulator.svg'), 'utf8')).toContain('<svg');
    // gen synth reports the design's area (and power and timing), the whole design first.
    const synth = outputs.get('synth') ?? '';
    expect(synth).toMatch(/area µm² 45 nm/);
    const area = /^Accumulator \(total\)\s+\d+\s+(\d+\.\d+)/m.exec(synth)?.[1];
    expect(Number(area), synth).toBeGreaterThan(10);
  });

  it('gen --help lists the framework commands only; a plugin of the project adds its own', () => {
    const showcase = ['mma', 'spmm', 'formats', 'memsim', 'report'];
    const commandsOf = (help: string): string[] => [...help.matchAll(/^ {2}gen ([\w-]+)/gm)].map((match) => match[1]!);
    const plain = commandsOf(genOk('--help').stdout);
    expect(plain).toEqual(expect.arrayContaining(['init', 'list', 'verilog', 'sim', 'regress', 'synth']));
    for (const name of showcase) expect(plain).not.toContain(name);

    const config = join(project, 'gen.config.ts');
    const original = readFileSync(config, 'utf8');
    writeFileSync(
      join(project, 'src', 'countPlugin.ts'),
      [
        "import { definePlugin, loadProject } from 'coruscant-hdl/plugin';",
        '',
        'export const countPlugin = definePlugin({',
        "  name: 'count',",
        '  commands: [',
        '    {',
        "      name: 'count-tops',",
        "      describe: 'Print how many tops the project has',",
        '      load: async () => ({',
        "        command: 'count-tops',",
        '        handler: async () => {',
        '          console.log(`tops: ${(await loadProject()).tops.length}`);',
        '        },',
        '      }),',
        '    },',
        '  ],',
        '});',
        '',
      ].join('\n'),
    );
    try {
      writeFileSync(
        config,
        original
          .replace(
            "from 'coruscant-hdl/config';",
            "from 'coruscant-hdl/config';\nimport { countPlugin } from './src/countPlugin.js';",
          )
          .replace('defineConfig({', 'defineConfig({\n  plugins: [countPlugin],'),
      );
      const help = genOk('--help').stdout;
      expect(commandsOf(help)).toContain('count-tops');
      expect(help).toContain('Print how many tops the project has');
      expect(genOk('count-tops').stdout.trim()).toBe('tops: 1');
      // The framework's commands still run beside it.
      expect(genOk('list').stdout).toContain('Accumulator');
    } finally {
      writeFileSync(config, original);
    }
  });
});
