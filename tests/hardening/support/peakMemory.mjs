// Preloaded with `node --import` into a child under test: on exit it writes the process's peak
// resident memory (KiB) to $PEAK_RSS_FILE, so a test can state a memory bound. On Linux the figure
// is /proc/self/status's VmHWM, the high-water mark of this process's own memory: getrusage's
// maxRSS keeps the peak of the image before exec, so a child of a large test worker reported the
// worker's size (tests/hardening/peakMemory.test.ts). Elsewhere maxRSS is all there is.
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';

function peakKiB() {
  try {
    const highWater = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (highWater) return Number(highWater[1]);
  } catch {
    // No procfs: fall back to getrusage below.
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => {
  const file = process.env.PEAK_RSS_FILE;
  if (file) writeFileSync(file, String(peakKiB()));
});
