import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The `gen` command line of this checkout (run it with `node`). */
export const GEN = new URL('../../bin/gen.js', import.meta.url).pathname;

/** A regression as the farm, shard and soak tests run it, locally or spread over machines. */
export interface RegressRun {
  readonly suites: readonly string[];
  readonly engine?: string;
  readonly runs: number;
  readonly seed: number;
  /** Suite files to load besides the built-in suites. */
  readonly load?: readonly string[];
  /** Output folder; with it come `--junit OUT/junit.xml` and `--coverage OUT/coverage.json`. */
  readonly out?: string;
  /** Options added as they are (e.g. `--max-saved 1`). */
  readonly extra?: readonly string[];
}

/** The arguments of `gen regress` for a run (`node GEN …args`). */
export function regressArgs(run: RegressRun): string[] {
  return [
    'regress',
    ...(run.load ?? []).flatMap((file) => ['--load', file]),
    '--suite',
    run.suites.join(','),
    '--engine',
    run.engine ?? 'ts',
    '--runs',
    String(run.runs),
    '--seed',
    String(run.seed),
    ...(run.out === undefined
      ? []
      : ['--out', run.out, '--junit', join(run.out, 'junit.xml'), '--coverage', join(run.out, 'coverage.json')]),
    ...(run.extra ?? []),
  ];
}

/** A run's JUnit file without what differs between any two runs: times, the start, and its output folder's path. */
export function comparableJunit(file: string, out: string): string {
  return readFileSync(file, 'utf8')
    .replace(/ time="[\d.]+"/g, '')
    .replace(/ timestamp="[^"]*"/g, '')
    .replaceAll(out, 'OUT');
}

/** The peak resident set of a live process in bytes, from the kernel's VmHWM (0 once it has ended). */
export function peakResidentBytes(pid: number): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
