// Preloaded with `node --import` into a child under test: on exit it writes the process's peak
// resident memory (KiB, from getrusage) to $PEAK_RSS_FILE, so a test can state a memory bound.
import { writeFileSync } from 'node:fs';
import process from 'node:process';

process.on('exit', () => {
  const file = process.env.PEAK_RSS_FILE;
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS));
});
