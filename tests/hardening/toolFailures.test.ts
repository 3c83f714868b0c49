import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { ToolError } from '../../common/errors.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { compareEngines } from '../../verif/fuzz/differential.ts';
import { expectCleanFailure } from '../support/cli.ts';
import type { PortValues } from '../../hw/contract/engine.ts';

/*
 * External tools missing or crashing: `gen` names the tool and the next step in one line. The
 * PATH of these runs holds only `node` and `g++` (the build cache key reads its version first), and,
 * for the crash, a fake `verilator` that kills itself.
 */

const scratch = mkdtempSync(join(tmpdir(), 'hardening-tools-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const GEN = new URL('../../bin/gen.js', import.meta.url).pathname;

/** A PATH directory with `node`, the named real programs, and fake ones (name → shell script body). */
function pathWith(name: string, real: readonly string[] = [], fakes: Record<string, string> = {}): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  symlinkSync(process.execPath, join(dir, 'node'));
  for (const program of real) symlinkSync(join('/usr/bin', program), join(dir, program));
  for (const [program, body] of Object.entries(fakes)) {
    writeFileSync(join(dir, program), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, program), 0o755);
  }
  return dir;
}

const vectors = join(scratch, 'counter.jsonl');
writeFileSync(vectors, '{"in": {"reset": "1", "enable": 1}}\n{"in": {"reset": "0"}}\n{"in": {}}\n');

function genSim(engine: string, path: string) {
  // Outside any project: the design comes from its module file.
  const counter = new URL('../../hw/examples/counter.ts', import.meta.url).pathname;
  const args = ['sim', '--top', 'Counter', '--design', counter, '--vectors', vectors, '--engine', engine];
  return execa(process.execPath, [GEN, ...args], {
    reject: false,
    env: { CI: '1', PATH: path, BUILD_DIR: join(scratch, 'build') },
    cwd: scratch,
  });
}

describe('gen with simulators missing or crashing', () => {
  it('names the missing simulator and the package to install, one line each', async () => {
    const path = pathWith('bare', ['g++']);
    const [verilator, icarus] = await Promise.all([genSim('verilator', path), genSim('icarus', path)]);
    expect(expectCleanFailure(verilator)).toMatch(/^gen: verilator: not installed \(apt-get install verilator\)$/);
    expect(expectCleanFailure(icarus)).toMatch(/^gen: (iverilog|vvp): not installed \(apt-get install iverilog\)$/);
  }, 120_000);

  it('reports a simulator that crashes, naming it and the signal', async () => {
    const run = await genSim('verilator', pathWith('crashing', ['g++'], { verilator: 'kill -SEGV $$' }));
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/^gen: verilator: was killed by SIGSEGV/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});

describe('a multi-engine comparison with one engine missing', () => {
  const path = process.env['PATH'];
  afterEach(() => {
    process.env['PATH'] = path;
  });

  it('fails with the missing tool named (the comparison needs every engine, so it stops)', async () => {
    process.env['PATH'] = pathWith('compare', ['g++']);
    const design = elaborate(Counter);
    const stimulus: PortValues[] = [{ reset: 1n, enable: 1n }, { reset: 0n }, {}];
    const comparison = compareEngines(design, stimulus, [
      new TsEngine(),
      new VerilatorEngine({ cacheRoot: join(scratch, 'cache') }),
    ]);
    await expect(comparison).rejects.toThrow(ToolError);
    await expect(comparison).rejects.toThrow(/^verilator: not installed/);
  }, 60_000);
});
