import { spawnSync } from 'node:child_process';
import { execa, type ResultPromise } from 'execa';
import { freePort } from './freePort.ts';

/** Whether redis-server is installed (scripts/setup.sh installs it); farm tests and benches skip without it. */
export const HAS_REDIS = spawnSync('redis-server', ['--version']).status === 0;

/** A private redis-server: its process and the URL a farm reaches it by. */
export interface PrivateRedis {
  readonly server: ResultPromise;
  readonly url: string;
}

/**
 * Starts a redis-server of the caller's own on a free loopback port, without snapshots or an
 * append-only file (its working folder is `dir`), and waits until it answers. The caller kills it.
 */
export async function startRedis(dir: string): Promise<PrivateRedis> {
  const port = await freePort();
  const server = execa(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { reject: false },
  );
  for (let attempt = 0; attempt < 100; attempt++) {
    const ping = await execa('redis-cli', ['-p', String(port), 'ping'], { reject: false });
    if (ping.stdout.trim() === 'PONG') return { server, url: `redis://127.0.0.1:${port}` };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill('SIGKILL');
  throw new Error(`redis-server did not answer on port ${port}`);
}
