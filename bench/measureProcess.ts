import { execa } from 'execa';

/** Wall time, CPU time and peak resident memory of one child process (from the kernel's rusage). */
export interface ProcessMeasure {
  readonly seconds: number;
  /** User plus system time of the child and its own children: on a shared machine, steadier than wall time. */
  readonly cpuSeconds: number;
  readonly peakMegabytes: number;
  readonly stdout: string;
}

// Node does not expose a child's rusage; Python's os.wait4 returns the one process's own (and
// that of the children it waited for). RUSAGE_CHILDREN is not used: here it read about 0.26 s
// more than /usr/bin/time, even for `node -e 0`. Wall time is taken around the child alone, so
// neither Python's start nor execa's is counted.
const RUSAGE_WRAPPER = [
  'import os, subprocess, sys, time',
  'started = time.monotonic()',
  'child = subprocess.Popen(sys.argv[1:])',
  '_, status, usage = os.wait4(child.pid, 0)',
  'seconds = time.monotonic() - started',
  'print(usage.ru_maxrss, usage.ru_utime + usage.ru_stime, seconds, file=sys.stderr)',
  'code = os.waitstatus_to_exitcode(status)',
  'sys.exit(code if code >= 0 else 128 - code)',
].join('\n');

/** Runs `program args…`, timing it and reading its CPU time and peak memory. */
export async function measureProcess(
  program: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<ProcessMeasure> {
  const run = await execa('python3', ['-c', RUSAGE_WRAPPER, program, ...args], { ...options, maxBuffer: 1 << 30 });
  const [peakKilobytes, cpuSeconds, seconds] = (run.stderr.trim().split('\n').pop() ?? '').split(' ').map(Number);
  return {
    seconds: seconds ?? NaN,
    cpuSeconds: cpuSeconds ?? NaN,
    peakMegabytes: (peakKilobytes ?? NaN) / 1024,
    stdout: run.stdout,
  };
}
