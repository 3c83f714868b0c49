/**
 * `gen regress --jobs J` runs cases on this thread and J − 1 worker threads together
 * (verif/regress/workerPool.ts `runOnWorkers`): the same outcomes as one thread, in case order,
 * each thread running some of the chunks, and a failing worker failing the run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../engines/index.ts';
import { runCases } from '../../../verif/regress/runCases.ts';
import { loadSuites } from '../../../verif/regress/suiteSources.ts';
import { CASES_PER_CHUNK, runOnWorkers, type WorkerTask } from '../../../verif/regress/workerPool.ts';

const fixture = fileURLToPath(new URL('./fixtures/plantedBug.ts', import.meta.url));
const SEED = 3;
const task: WorkerTask = { suite: 'PlantedBug', engine: 'ts', seed: SEED, sources: { files: [fixture] } };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function plantedBug() {
  const suite = (await loadSuites(task.sources)).find((candidate) => candidate.name === 'PlantedBug')!;
  return { suite, engine: await createEngine('ts') };
}

describe('runOnWorkers', () => {
  it('gives one thread’s outcomes, failing cases included, with the chunks shared between this thread and a worker', async () => {
    const { suite, engine } = await plantedBug();
    const indices = Array.from({ length: 20 * CASES_PER_CHUNK }, (_, index) => index);
    const alone = await runCases(suite, engine, SEED, indices);
    expect(alone.filter((outcome) => outcome.mismatch).length).toBeGreaterThan(0);
    let here = 0;
    let progress = 0;
    const together = await runOnWorkers(
      task,
      indices,
      2,
      async (chunk) => {
        here += chunk.length;
        // This thread alone would take 10 s: the worker, started in a few, takes the rest.
        await pause(500);
        return runCases(suite, engine, SEED, chunk, (count) => (progress += count));
      },
      (count) => (progress += count),
    );
    expect(together).toEqual(alone);
    expect(progress).toBe(indices.length);
    expect(here).toBeGreaterThan(0);
    expect(here).toBeLessThan(indices.length);
  }, 60_000);

  it('runs every chunk on this thread when one job is asked for', async () => {
    const { suite, engine } = await plantedBug();
    const indices = Array.from({ length: 3 * CASES_PER_CHUNK + 7 }, (_, index) => index);
    const chunks: number[] = [];
    const outcomes = await runOnWorkers(
      task,
      indices,
      1,
      (chunk) => {
        chunks.push(chunk.length);
        return runCases(suite, engine, SEED, chunk);
      },
      () => {},
    );
    expect(chunks).toEqual([CASES_PER_CHUNK, CASES_PER_CHUNK, CASES_PER_CHUNK, 7]);
    expect(outcomes.map((outcome) => outcome.index)).toEqual(indices);
  });

  it('fails the run with the worker’s error', async () => {
    const { suite, engine } = await plantedBug();
    const indices = Array.from({ length: 40 * CASES_PER_CHUNK }, (_, index) => index);
    await expect(
      runOnWorkers(
        { ...task, suite: 'NoSuchSuite' },
        indices,
        2,
        async (chunk) => {
          await pause(500);
          return runCases(suite, engine, SEED, chunk);
        },
        () => {},
      ),
    ).rejects.toThrow('worker: no suite NoSuchSuite');
  }, 60_000);
});

describe('runOnWorkers, compiled', () => {
  it('starts the compiled worker.js from plain Node; it loads the TypeScript suite file and runs chunks', async () => {
    const pool = join(process.env['GEN_COMPILED_CHECKOUT']!, 'dist', 'verif', 'regress', 'workerPool.js');
    // This thread's first chunk waits for the worker's first cases, so the worker surely runs some.
    const script = `
      const { runOnWorkers } = await import(${JSON.stringify(pathToFileURL(pool).href)});
      let here = 0, there = 0, started;
      const gate = new Promise((resolve) => (started = resolve));
      const indices = Array.from({ length: ${4 * CASES_PER_CHUNK} }, (_, index) => index);
      await runOnWorkers(${JSON.stringify(task)}, indices, 2,
        async (chunk) => { await gate; here += chunk.length; return []; },
        (count) => { there += count; started(); });
      console.log(JSON.stringify({ here, there }));`;
    const scratch = mkdtempSync(join(tmpdir(), 'worker-pool-'));
    const file = join(scratch, 'probe.mjs');
    writeFileSync(file, script);
    const repository = fileURLToPath(new URL('../../../', import.meta.url));
    const run = await execa('node', [file], { reject: false, env: { GEN_FRAMEWORK_SOURCES: repository } });
    rmSync(scratch, { recursive: true, force: true });
    expect(run.exitCode, run.stderr).toBe(0);
    const { here, there } = JSON.parse(run.stdout) as { here: number; there: number };
    expect(here).toBeGreaterThan(0);
    expect(there).toBeGreaterThan(0);
    expect(here + there).toBe(4 * CASES_PER_CHUNK);
  }, 120_000);
});
