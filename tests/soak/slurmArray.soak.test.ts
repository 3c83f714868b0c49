/**
 * `make soak`: the Slurm array path for real. A private one-node Slurm cluster (its own munge key,
 * ports and state folders) runs the sbatch array script of docs/farm.md, as the document gives it,
 * with `gen regress --shard-from-env` in each task; `gen regress merge` joins the shards, and the
 * merged JUnit and coverage equal a local run's with the same seed. Skipped without root or the
 * Slurm packages (`make soak` installs them: SETUP_SOAK=1 scripts/setup.sh).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { SOAK } from '../hardening/fuzzHarness.ts';
import { comparableJunit, GEN, regressArgs } from '../support/regressRun.ts';
import { CAN_RUN_SLURM, startSlurmCluster, type SlurmCluster } from '../support/slurmCluster.ts';

const repo = new URL('../..', import.meta.url).pathname;
const TASKS = 3;
const RUNS = 900;
const SEED = 7;
const SUITES = ['LaneDetector', 'RegisterIndexEmitter'];

/** The sbatch script of docs/farm.md's Slurm section: the first shell block under its heading. */
function documentedSbatchScript(): string {
  const doc = readFileSync(join(repo, 'docs', 'farm.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Slurm'));
  const script = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!script?.startsWith('#!/bin/bash')) throw new Error("docs/farm.md: no sbatch script under '### Slurm'");
  return script;
}

describe.skipIf(!SOAK || !CAN_RUN_SLURM)('Slurm array job (one-node cluster)', () => {
  // Made in beforeAll: a skipped describe still runs its body, and would leave the folder behind.
  let scratch = '';
  let cluster: SlurmCluster | undefined;
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'soak-slurm-'));
    cluster = await startSlurmCluster(join(scratch, 'cluster'), cpus().length);
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  it("docs/farm.md's sbatch array, merged, equals a local run with the same seed", async () => {
    const script = join(scratch, 'regress.sbatch');
    writeFileSync(script, documentedSbatchScript());
    const results = join(scratch, 'farm');
    // The document's directives stand but for what a one-node test cluster cannot give: 16 tasks of
    // 4 CPUs and logs in the checkout.
    const submit = await execa(
      'sbatch',
      [
        '--wait',
        `--array=1-${TASKS}`,
        '--cpus-per-task=1',
        `--output=${join(scratch, 'regress-%A_%a.log')}`,
        `--export=ALL,SEED=${SEED},RUNS=${RUNS},RESULTS=${results},CI=1`,
        script,
        '--suite',
        SUITES.join(','),
        '--engine',
        'ts',
      ],
      { cwd: repo, env: cluster!.env, reject: false, timeout: 600_000 },
    );
    const logs = readdirSync(scratch)
      .filter((name) => name.endsWith('.log'))
      .map((name) => readFileSync(join(scratch, name), 'utf8'))
      .join('\n');
    expect(submit.exitCode, `${submit.stderr}\n${logs}\n${cluster!.logs()}`).toBe(0);
    expect(logs).toMatch(new RegExp(`shard 2/${TASKS} from Slurm`));
    const shards = readdirSync(results).map((name) => join(results, name));
    expect(shards).toHaveLength(TASKS);

    const merged = join(results, 'merged');
    const merge = await execa('node', [GEN, 'regress', 'merge', ...shards, '--out', merged], {
      reject: false,
      env: { CI: '1' },
    });
    expect(merge.exitCode, merge.stderr).toBe(0);
    expect(merge.stdout).not.toMatch(/in no shard/);

    const local = join(scratch, 'local');
    const run = await execa('node', [GEN, ...regressArgs({ suites: SUITES, runs: RUNS, seed: SEED, out: local })], {
      reject: false,
      env: { CI: '1' },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const mergedJunit = comparableJunit(join(merged, 'junit.xml'), merged);
    expect(mergedJunit).toMatch(new RegExp(`tests="${RUNS * SUITES.length}" failures="0"`));
    expect(mergedJunit).toBe(comparableJunit(join(local, 'junit.xml'), local));
    // The merged coverage lists the shards it joined (a local run's lists 1/1); all else is equal.
    const coverage = (out: string): Record<string, unknown> =>
      JSON.parse(readFileSync(join(out, 'coverage.json'), 'utf8')) as Record<string, unknown>;
    const { shards: joined, ...mergedCoverage } = coverage(merged);
    const { shards: whole, ...localCoverage } = coverage(local);
    expect(joined).toEqual(Array.from({ length: TASKS }, (_, task) => `${task + 1}/${TASKS}`));
    expect(whole).toEqual(['1/1']);
    expect(mergedCoverage).toEqual(localCoverage);
  }, 900_000);
});
