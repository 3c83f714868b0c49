import { execa } from 'execa';

/** Wall time, CPU time and peak resident memory of one child process (from the kernel's rusage). */
export interface ProcessMeasure {
  readonly seconds: number;
  /** User plus system time of the child and its own children: on a shared machine, steadier than wall time. */
  readonly cpuSeconds: number;
  readonly peakMegabytes: number;
  readonly stdout: string;
}

// Python's resource module reads the children's rusage, which Node does not expose for a child.
const RUSAGE_WRAPPER =
  'import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); u = resource.getrusage(resource.RUSAGE_CHILDREN); print(u.ru_maxrss, u.ru_utime + u.ru_stime, file=sys.stderr); sys.exit(r.returncode)';

/** Runs `program args…`, timing it and reading its CPU time and peak memory. */
export async function measureProcess(
  program: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<ProcessMeasure> {
  const started = performance.now();
  const run = await execa('python3', ['-c', RUSAGE_WRAPPER, program, ...args], { ...options, maxBuffer: 1 << 30 });
  const seconds = (performance.now() - started) / 1000;
  const [peakKilobytes, cpuSeconds] = (run.stderr.trim().split('\n').pop() ?? '').split(' ').map(Number);
  return { seconds, cpuSeconds: cpuSeconds ?? NaN, peakMegabytes: (peakKilobytes ?? NaN) / 1024, stdout: run.stdout };
}
