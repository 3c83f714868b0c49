import cliProgress from 'cli-progress';

/** A progress bar on a terminal; silent under CI or when output is piped, so logs stay clean. */
export interface Progress {
  tick(amount?: number): void;
  stop(): void;
}

export function startProgress(label: string, total: number): Progress {
  const interactive = process.stderr.isTTY === true && !process.env['CI'];
  if (!interactive) return { tick: () => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {value}/{total} {percentage}% eta {eta_formatted}`,
      stream: process.stderr,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { tick: (amount = 1) => bar.increment(amount), stop: () => bar.stop() };
}
