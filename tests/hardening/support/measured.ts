import { execa } from 'execa';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GEN = new URL('../../../bin/gen.js', import.meta.url).pathname;
const PEAK = new URL('./peakMemory.mjs', import.meta.url).href;

/** Runs `gen …` as a user would and measures it: wall time (ms) and peak resident memory (MiB). */
export async function measuredGen(args: readonly string[], nodeOptions: readonly string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'measured-gen-'));
  const file = join(dir, 'peak');
  const started = Date.now();
  try {
    const run = await execa('node', [...nodeOptions, '--import', PEAK, GEN, ...args], {
      reject: false,
      env: { CI: '1', PEAK_RSS_FILE: file },
    });
    const milliseconds = Date.now() - started;
    let peakMiB = Number.NaN;
    try {
      peakMiB = Number(readFileSync(file, 'utf8')) / 1024;
    } catch {
      // Killed before exit handlers ran: no figure.
    }
    return { ...run, milliseconds, peakMiB };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
