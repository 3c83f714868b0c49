/** `gen regress --shard-from-env` as a Slurm array task runs it: task 2 of 3 runs cases 1, 4, 7. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { expectCleanFailure } from '../support/cli.ts';

const gen = new URL('../../bin/gen.js', import.meta.url).pathname;

describe('gen regress --shard-from-env', () => {
  it("runs the Slurm array task's shard, and refuses --shard beside it in one line", async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'gen-regress-env-'));
    try {
      const junit = join(scratch, 'junit.xml');
      const args = [
        'regress',
        '--suite',
        'LaneDetector',
        '--engine',
        'ts',
        '--runs',
        '9',
        '--seed',
        '3',
        '--out',
        scratch,
      ];
      const slurm = { CI: '1', SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_COUNT: '3' };
      const [run, both] = await Promise.all([
        execa('node', [gen, ...args, '--shard-from-env', '--junit', junit], { reject: false, env: slurm }),
        execa('node', [gen, ...args, '--shard-from-env', '--shard', '1/2'], { reject: false, env: slurm }),
      ]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toContain("shard 2/3 from Slurm's array task");
      expect([...readFileSync(junit, 'utf8').matchAll(/name="case (\d+) /g)].map((match) => Number(match[1]))).toEqual([
        1, 4, 7,
      ]);
      expect(expectCleanFailure(both)).toMatch(/give --shard or --shard-from-env, not both/);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);
});
