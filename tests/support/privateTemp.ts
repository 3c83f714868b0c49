import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global set-up: the whole run gets its own temporary folder (TMPDIR, which the test
 * processes and every program they start inherit), removed when the run ends. Whatever a test, a
 * killed child or a tool leaves in its temporary folder goes with it, so a run leaves nothing in
 * /tmp. tsx's transform cache stays shared (a link to the system's), so the run starts warm.
 */
export default function privateTemporaryFolder(): () => void {
  const system = tmpdir();
  const folder = mkdtempSync(join(system, 'gen-tests-'));
  const tsxCache = `tsx-${userInfo().uid}`;
  if (existsSync(join(system, tsxCache))) symlinkSync(join(system, tsxCache), join(folder, tsxCache));
  process.env['TMPDIR'] = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}
