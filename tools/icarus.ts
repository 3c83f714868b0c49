import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { BUILD_ROOT, cachedBuild, contentHash } from './buildCache.ts';
import { runTool, toolVersion } from './runTool.ts';
import { VCD_ROOT } from '../hw/verilog/manifest.ts';

const COMPILE_TIMEOUT_MS = 5 * 60_000;
const RUN_TIMEOUT_MS = 30 * 60_000;

export interface IcarusBuild {
  readonly program: string;
  readonly built: boolean;
}

let versionPromise: Promise<string> | undefined;

/** Compiles design files plus a testbench with `iverilog -g2005`, cached by content like Verilator builds. */
export async function buildIcarus(
  files: ReadonlyMap<string, string>,
  testbench: string,
  options: { cacheRoot?: string } = {},
): Promise<IcarusBuild> {
  versionPromise ??= toolVersion('vvp', '-V');
  const version = await versionPromise;
  const names = [...files.keys()].sort();
  const key = contentHash([version, testbench, ...names.flatMap((name) => [name, files.get(name)!])]);
  const { dir, built } = await cachedBuild(options.cacheRoot ?? join(BUILD_ROOT, 'icarus'), key, async (work) => {
    for (const name of names) writeFileSync(join(work, name), files.get(name)!);
    writeFileSync(join(work, 'testbench.v'), testbench);
    await runTool('iverilog', ['-g2005', '-s', VCD_ROOT, '-o', 'design.vvp', 'testbench.v', ...names], {
      cwd: work,
      timeout: COMPILE_TIMEOUT_MS,
    });
  });
  return { program: join(dir, 'design.vvp'), built };
}

/** Runs a compiled testbench on stimulus text (see stimulus.ts) and returns its results text. */
export async function runIcarus(build: IcarusBuild, stimulus: string, options: { vcd?: string } = {}): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'icarus-run-'));
  try {
    const input = join(work, 'stimulus.txt');
    const output = join(work, 'results.txt');
    writeFileSync(input, stimulus);
    const plusargs = [`+stimulus=${input}`, `+results=${output}`, ...(options.vcd ? [`+vcd=${options.vcd}`] : [])];
    // -n: a $stop would otherwise drop into the interactive prompt and hang.
    await runTool('vvp', ['-n', build.program, ...plusargs], { cwd: work, timeout: RUN_TIMEOUT_MS });
    return readFileSync(output, 'utf8');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
