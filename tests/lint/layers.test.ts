/**
 * The layer rules of `make lint` (.dependency-cruiser.cjs, docs/architecture.md) catch what they
 * claim to: an upward import and an import cycle fail, a downward import passes. Each case runs the
 * real depcruise command with the real configuration on a small copy in a temporary folder (the
 * work tree is never touched), so the check is shown to fail for the right rule, not just to run.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');

/** One line of depcruise's error report: the rule broken, the importing file, the imported one. */
interface Violation {
  rule: string;
  from: string;
  to: string;
}

interface Cruise {
  exitCode: number;
  violations: Violation[];
}

/** `error <rule>: <from> → <to>`; a cycle prints its next module on the following line. */
const VIOLATION = /^\s*error ([\w-]+): (\S+) →\s*(\S+)/gm;

/**
 * Runs depcruise on `folders` of `cwd` with the project's configuration and the default error
 * report, the command `make lint` runs (its exit status is what fails the lint).
 */
function cruise(cwd: string, folders: readonly string[]): Promise<Cruise> {
  const args = [...folders, '--config', '.dependency-cruiser.cjs'];
  return new Promise((resolvePromise, reject) => {
    execFile(DEPCRUISE, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!/dependency violations|no dependency violations/.test(stdout)) {
        reject(new Error(`depcruise did not report (${String(error)}): ${stdout}${stderr}`));
        return;
      }
      const violations = [...stdout.matchAll(VIOLATION)].map(([, rule, from, to]) => ({
        rule: rule!,
        from: from!,
        to: to!,
      }));
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolvePromise({ exitCode, violations });
    });
  });
}

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A temporary tree holding the project's configuration files and `files` (path → source). */
function plantTree(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'layers-'));
  folders.push(folder);
  for (const config of ['.dependency-cruiser.cjs', 'tsconfig.json'])
    copyFileSync(join(ROOT, config), join(folder, config));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), source);
  }
  return folder;
}

const VALUE = 'export const width = 8;\n';
const REGISTRY = "import { width } from '../hw/core/value.ts';\nexport const tops = [width];\n";

describe('layer rules (.dependency-cruiser.cjs)', () => {
  it('pass on a downward import: gen may import hw/core', async () => {
    const tree = plantTree({ 'hw/core/value.ts': VALUE, 'gen/registry.ts': REGISTRY });
    const result = await cruise(tree, ['hw', 'gen']);
    expect(result.violations).toEqual([]);
    expect(result.exitCode).toBe(0);
  });

  it('fail on an upward import: hw/core importing gen/', async () => {
    const tree = plantTree({
      'hw/core/value.ts': VALUE,
      'hw/core/signal.ts': "import { tops } from '../../gen/registry.ts';\nexport const count = tops.length;\n",
      'gen/registry.ts': REGISTRY,
    });
    const result = await cruise(tree, ['hw', 'gen']);
    expect(result.exitCode).not.toBe(0);
    expect(result.violations).toEqual([
      expect.objectContaining({ rule: 'layer-hw-core', from: 'hw/core/signal.ts', to: 'gen/registry.ts' }),
    ]);
  });

  it('fail on a sideways import between folders of one level: hw/sim importing hw/verilog', async () => {
    const tree = plantTree({
      'hw/verilog/emit.ts': 'export const emit = (): string => "";\n',
      'hw/sim/compile.ts': "import { emit } from '../verilog/emit.ts';\nexport const compile = emit;\n",
    });
    const result = await cruise(tree, ['hw']);
    expect(result.exitCode).not.toBe(0);
    expect(result.violations.map((violation) => violation.rule)).toEqual(['layer-hw-sim']);
  });

  it('place the engine contract below the simulator and the engines: hw/contract importing engines/ fails', async () => {
    const tree = plantTree({
      'hw/contract/engine.ts': "export type EngineName = 'ts';\n",
      'hw/sim/simulator.ts':
        "import type { EngineName } from '../contract/engine.ts';\nexport const name: EngineName = 'ts';\n",
      'engines/batchEngine.ts': "import { name } from '../hw/sim/simulator.ts';\nexport const engine = name;\n",
      'hw/contract/phases.ts': "import { engine } from '../../engines/batchEngine.ts';\nexport const phase = engine;\n",
    });
    const result = await cruise(tree, ['hw', 'engines']);
    expect(result.exitCode).not.toBe(0);
    expect(result.violations).toEqual([
      expect.objectContaining({
        rule: 'layer-hw-contract',
        from: 'hw/contract/phases.ts',
        to: 'engines/batchEngine.ts',
      }),
    ]);
  });

  it('pass when a plugin imports the framework through its public entry points: coruscant importing api/', async () => {
    const tree = plantTree({
      'hw/core/value.ts': VALUE,
      'api/index.ts': "export { width } from '../hw/core/value.ts';\n",
      'coruscant/plugin.ts': "import { width } from '../api/index.ts';\nexport const lanes = width;\n",
    });
    const result = await cruise(tree, ['hw', 'api', 'coruscant']);
    expect(result.violations).toEqual([]);
    expect(result.exitCode).toBe(0);
  });

  it('fail when a plugin reaches past the public entry points: coruscant importing hw/core', async () => {
    const tree = plantTree({
      'hw/core/value.ts': VALUE,
      'coruscant/plugin.ts': "import { width } from '../hw/core/value.ts';\nexport const lanes = width;\n",
    });
    const result = await cruise(tree, ['hw', 'coruscant']);
    expect(result.exitCode).not.toBe(0);
    expect(result.violations).toEqual([
      expect.objectContaining({ rule: 'layer-coruscant', from: 'coruscant/plugin.ts', to: 'hw/core/value.ts' }),
    ]);
  });

  it("fail when the framework imports the showcase's models: synth importing coruscant/golden/", async () => {
    const tree = plantTree({
      'coruscant/golden/numerics/fp16.ts': 'export const FP16_BITS = 16;\n',
      'synth/power.ts':
        "import { FP16_BITS } from '../coruscant/golden/numerics/fp16.ts';\nexport const bits = FP16_BITS;\n",
    });
    const result = await cruise(tree, ['coruscant', 'synth']);
    expect(result.exitCode).not.toBe(0);
    expect(result.violations).toEqual([
      expect.objectContaining({ rule: 'layer-synth', from: 'synth/power.ts', to: 'coruscant/golden/numerics/fp16.ts' }),
    ]);
  });

  it('fail on an import cycle inside one folder', async () => {
    const tree = plantTree({
      'hw/ir/passes/index.ts':
        "import { check } from './check.ts';\nexport const passes = [check];\nexport type Pass = () => void;\n",
      'hw/ir/passes/check.ts': "import type { Pass } from './index.ts';\nexport const check: Pass = () => {};\n",
    });
    const result = await cruise(tree, ['hw']);
    expect(result.exitCode).not.toBe(0);
    // depcruise names each cycle once, from the module where it finds it.
    expect(result.violations).toEqual([
      { rule: 'no-circular', from: 'hw/ir/passes/check.ts', to: 'hw/ir/passes/index.ts' },
    ]);
  });

  it('fail when library code imports a test helper', async () => {
    const tree = plantTree({
      'tests/support/seed.ts': 'export const seed = 1;\n',
      'common/random.ts': "import { seed } from '../tests/support/seed.ts';\nexport const first = seed;\n",
    });
    const result = await cruise(tree, ['common', 'tests']);
    expect(result.exitCode).not.toBe(0);
    expect(result.violations.map((violation) => violation.rule)).toContain('no-import-of-tests-or-benchmarks');
  });

  it('pass on the real tree, over the folders `make lint` names', async () => {
    const lintLine = readFileSync(join(ROOT, 'Makefile'), 'utf8')
      .split('\n')
      .find((line) => line.trim().startsWith('npx depcruise '));
    expect(lintLine).toBeDefined();
    const named = lintLine!.trim().split(/\s+/).slice(2);
    const result = await cruise(ROOT, named.slice(0, named.indexOf('--config')));
    expect(result.violations.map((violation) => `${violation.rule}: ${violation.from} → ${violation.to}`)).toEqual([]);
    expect(result.exitCode).toBe(0);
  });
});
