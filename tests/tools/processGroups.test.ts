import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { runTool } from '../../tools/runTool.ts';

/*
 * A tool and everything it starts end together: at the tool's timeout, and when this process is
 * killed (even by SIGKILL). Before, a timeout killed only the tool's own process and make, g++ or
 * a simulator's children ran on orphaned; a killed `gen` left them all running.
 */

/** Ids of processes whose command line is exactly `sleep <seconds>` (the marker of one test). */
function sleepers(seconds: string): number[] {
  try {
    return execFileSync('pgrep', ['-x', '-f', `sleep ${seconds}`], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function settled(seconds: string): Promise<number[]> {
  for (let attempt = 0; attempt < 20 && sleepers(seconds).length > 0; attempt++) await pause(100);
  return sleepers(seconds);
}

const markers = ['287.25', '286.25'];
afterAll(() => {
  // Whatever a failing run left behind, by id.
  for (const marker of markers) for (const pid of sleepers(marker)) process.kill(pid, 'SIGKILL');
});

describe('tool process groups', () => {
  it('a timeout ends the tool and the children it started', async () => {
    const started = performance.now();
    await expect(
      runTool('sh', ['-c', `sleep ${markers[0]} & sleep ${markers[0]}; true`], { timeout: 500 }),
    ).rejects.toThrow(/^sh: timed out after 500 ms/);
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(await settled(markers[0]!)).toEqual([]);
  });

  it('a SIGKILL of the process running the tool ends the tool and its children', async () => {
    const script = join(mkdtempSync(join(tmpdir(), 'process-groups-')), 'parent.mts');
    writeFileSync(
      script,
      `import { runTool } from ${JSON.stringify(new URL('../../tools/runTool.ts', import.meta.url).pathname)};
       await runTool('sh', ['-c', 'sleep ${markers[1]} & sleep ${markers[1]}; true']);`,
    );
    const parent = execa(process.execPath, ['--import', 'tsx', script], { reject: false });
    for (let attempt = 0; attempt < 100 && sleepers(markers[1]!).length < 2; attempt++) await pause(100);
    expect(sleepers(markers[1]!)).toHaveLength(2);
    parent.kill('SIGKILL');
    await parent;
    expect(await settled(markers[1]!)).toEqual([]);
  }, 30_000);
});
