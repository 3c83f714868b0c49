import { beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectCleanFailure, runGen } from '../support/cli.ts';

/**
 * Multi-file outputs switch from the old set to the new one in one step, whatever signal ends the
 * writer: each writer is killed at several moments of its write and swap. `make test` kills at a
 * few moments (tests/hardening/outputs.test.ts), `make soak` at many (tests/soak/killedOutputs.soak.test.ts).
 */
export interface KillMoments {
  /** Delays (ms) after a 2000-file writer starts its staging folder. */
  readonly manyFiles: readonly number[];
  /** Delays (ms) after `gen verilog --all` starts its staging folder. */
  readonly verilogAll: readonly number[];
}

const GEN = new URL('../../bin/gen.js', import.meta.url).pathname;
const WRITER_SOURCE = new URL('./support/writeManyFiles.ts', import.meta.url).pathname;

/**
 * The writer bundled into one JavaScript file in `folder`: run under tsx, its loader took about as
 * much CPU as the write itself (1.1 against 0.6 s a run), in each of the dozens of writers.
 */
async function bundleWriter(folder: string): Promise<string> {
  const outfile = join(folder, 'writeManyFiles.mjs');
  await build({
    entryPoints: [WRITER_SOURCE],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  return outfile;
}

/** Every file under `folder` (relative path → content). */
function snapshot(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.pop()!;
    for (const entry of readdirSync(join(folder, relative), { withFileTypes: true })) {
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) pending.push(name);
      else files.set(name, readFileSync(join(folder, name), 'utf8'));
    }
  }
  return files;
}

/** Polls until `found()` (or the time is up). */
async function waitFor(found: () => boolean, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  while (!found() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 1));
}

const stagingsBeside = (target: string): string[] =>
  readdirSync(join(target, '..')).filter((name) => name.includes('.staging-'));
/** True once a staging folder that was not there `before` appears: the writer has started. */
const newStaging = (target: string, before: readonly string[]) => (): boolean =>
  stagingsBeside(target).some((name) => !before.includes(name));

/** The kill tests, in `scratch`, at the given moments. */
export function describeKilledOutputs(scratch: string, moments: KillMoments): void {
  describe('multi-file outputs switch in one step', () => {
    let writer = '';
    beforeAll(async () => {
      writer = await bundleWriter(scratch);
    });

    it('gen verilog refuses, in one line, an --out folder holding files it did not write (it replaces the folder whole)', async () => {
      const out = join(scratch, 'foreign');
      mkdirSync(out);
      writeFileSync(join(out, 'notes.txt'), 'mine\n');
      const run = await runGen(['verilog', '--top', 'Counter', '--out', out]);
      expect(expectCleanFailure(run)).toMatch(/holds a file not written by a Verilog export \(notes\.txt\)/);
      expect(readdirSync(out)).toEqual(['notes.txt']);
    }, 60_000);

    for (const signal of ['SIGINT', 'SIGKILL'] as const) {
      it(`a 2000-file set killed by ${signal} at ${moments.manyFiles.length} moments of its write and swap: always all old or all new`, async () => {
        const target = join(scratch, `many-${signal}`, 'out');
        await execa('node', [writer, target, '2000', 'old']);
        const old = snapshot(target);
        expect(old.size).toBe(2010);
        const outcomes: string[] = [];
        const broken: string[] = [];
        for (const delay of moments.manyFiles) {
          const before = stagingsBeside(target);
          const child = execa('node', [writer, target, '2000', `new-${delay}`], { reject: false });
          await waitFor(newStaging(target, before), 20_000);
          await new Promise((resolve) => setTimeout(resolve, delay));
          child.kill(signal);
          await child;
          const now = existsSync(target) ? snapshot(target) : new Map<string, string>();
          const marks = new Set(
            [...now.values()].map((text) => /"mark":"([^"]+)"|\/\/ (\S+)/.exec(text)?.slice(1).find(Boolean)),
          );
          outcomes.push(`+${delay}ms:${[...marks].join('+')}`);
          if (now.size !== 2010 || marks.size !== 1)
            broken.push(`+${delay} ms: ${now.size} files, sets ${[...marks].join(' and ')}`);
          // The next writer restores the old set if the kill fell between the two renames, then
          // removes the dead writer's staging and previous folders.
          await execa('node', [writer, target, '2000', 'old']);
          const leftovers = readdirSync(join(target, '..')).filter((name) => name !== 'out');
          if (leftovers.length > 0) broken.push(`+${delay} ms: left ${leftovers.join(', ')}`);
        }
        expect(broken, `after ${signal}: ${outcomes.join(' ')}`).toEqual([]);
        console.log(`${signal}: ${outcomes.join(' ')}`);
      }, 300_000);

      it(`gen verilog --all killed by ${signal} while writing leaves the complete old or the complete new set`, async () => {
        const out = join(scratch, `all-${signal}`, 'verilog');
        const first = await runGen(['verilog', '--all', '--out', out]);
        expect(first.exitCode, first.stderr).toBe(0);
        const fresh = snapshot(out);
        // Mark the old set so that old and new files can be told apart.
        for (const [name, text] of fresh)
          writeFileSync(join(out, name), name.endsWith('.v') ? `// old\n${text}` : text.replace('{', '{"old":true,'));
        const old = snapshot(out);
        for (const delay of moments.verilogAll) {
          const before = stagingsBeside(out);
          const child = execa('node', [GEN, 'verilog', '--all', '--out', out], { reject: false, env: { CI: '1' } });
          await waitFor(newStaging(out, before), 60_000);
          await new Promise((resolve) => setTimeout(resolve, delay));
          child.kill(signal);
          await child;
          const now = existsSync(out) ? snapshot(out) : new Map<string, string>();
          const isOld = [...now].every(([name, text]) => old.get(name) === text) && now.size === old.size;
          const isNew = [...now].every(([name, text]) => fresh.get(name) === text) && now.size === fresh.size;
          expect(
            isOld || isNew,
            `after ${signal} at +${delay} ms: ${now.size} files, neither the old nor the new set`,
          ).toBe(true);
          if (isNew) for (const [name, text] of old) writeFileSync(join(out, name), text);
        }
      }, 300_000);
    }
  });
}
