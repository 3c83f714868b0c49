import { describe, expect, it } from 'vitest';
import { measureProcess } from '../../bench/measureProcess.ts';

describe('measureProcess', () => {
  it("reads the child's own CPU time, not Python's start nor a constant offset", async () => {
    // Half a second of the child's own CPU (counted by the child, so a loaded machine only stretches its wall time).
    const busy = await measureProcess(process.execPath, [
      '-e',
      'while (process.cpuUsage().user + process.cpuUsage().system < 500_000); console.log("done")',
    ]);
    expect(busy.stdout).toBe('done');
    expect(busy.cpuSeconds).toBeGreaterThan(0.4);
    expect(busy.seconds).toBeGreaterThan(0.45);
    // A child that does nothing: Node's own start, about 0.1 s (Python's RUSAGE_CHILDREN read 0.36 s).
    const idle = await measureProcess(process.execPath, ['-e', '0']);
    expect(idle.cpuSeconds).toBeLessThan(0.25);
    expect(idle.peakMegabytes).toBeGreaterThan(10);
  });

  it("passes the child's exit status on", async () => {
    await expect(measureProcess(process.execPath, ['-e', 'process.exit(3)'])).rejects.toMatchObject({ exitCode: 3 });
  });
});
