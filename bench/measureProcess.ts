import { execa } from 'execa';

/** Wall time and peak resident memory of one child process (peak from the kernel's rusage). */
export interface ProcessMeasure {
  readonly seconds: number;
  readonly peakMegabytes: number;
  readonly stdout: string;
}

// Python's resource module reads the children's ru_maxrss, which Node does not expose for a child.
const RUSAGE_WRAPPER =
  'import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(r.returncode)';

/** Runs `program args…`, timing it and reading its peak memory. */
export async function measureProcess(
  program: string,
  args: readonly string[],
  options: { cwd?: string } = {},
): Promise<ProcessMeasure> {
  const started = performance.now();
  const run = await execa('python3', ['-c', RUSAGE_WRAPPER, program, ...args], { ...options, maxBuffer: 1 << 30 });
  const seconds = (performance.now() - started) / 1000;
  const peakKilobytes = Number(run.stderr.trim().split('\n').pop());
  return { seconds, peakMegabytes: peakKilobytes / 1024, stdout: run.stdout };
}
