import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_ROOT, cachedBuild, contentHash } from './buildCache.ts';
import { readOutputs, runTool, toolVersion, withWorkspace } from './runTool.ts';
import { pathInside } from '../common/pathInside.ts';

const COMPILE_TIMEOUT_MS = 5 * 60_000;
const RUN_TIMEOUT_MS = 30 * 60_000;

/**
 * The language Icarus compiles: SystemVerilog 2012's keyword set is a superset that the emitted
 * Verilog avoids (hw/ir/identifiers.ts escapes it) and that user RTL and Yosys netlists may
 * need; one setting for engines and gate-level simulation alike.
 */
const GENERATION = '-g2012';

export interface IcarusBuildOptions {
  /** The root module to elaborate (`iverilog -s`): the testbench. */
  readonly root: string;
  /** Where compiled designs are cached; `build/icarus` in the project by default. */
  readonly cacheRoot?: string;
  /** Limit for the compile, ms (default 5 min). */
  readonly timeout?: number;
}

export interface IcarusBuild {
  readonly program: string;
  readonly built: boolean;
}

export interface IcarusRunOptions {
  /** `+name=value` arguments for the testbench's $value$plusargs. */
  readonly plusargs?: readonly string[];
  /** Files the run reads (stimulus, $readmemh data), written into its private working folder. */
  readonly files?: Readonly<Record<string, string>>;
  /** Files the run writes that the caller wants back; one not written is undefined. */
  readonly outputs?: readonly string[];
  /** Limit for the run, ms (default 30 min). */
  readonly timeout?: number;
}

export interface IcarusRun {
  readonly stdout: string;
  readonly files: Readonly<Record<string, string | undefined>>;
}

let versionPromise: Promise<string> | undefined;

/**
 * The one Icarus runner, step one: compiles Verilog files (name → text, the testbench among them)
 * with `iverilog`, cached by content like Verilator builds (the key covers the files, the root,
 * the flags and the Icarus version).
 */
export async function buildIcarus(
  files: ReadonlyMap<string, string>,
  options: IcarusBuildOptions,
): Promise<IcarusBuild> {
  versionPromise ??= toolVersion('vvp', '-V');
  const version = await versionPromise;
  const names = [...files.keys()].sort();
  const flags = [GENERATION, '-s', options.root];
  const key = contentHash([version, flags.join(' '), ...names.flatMap((name) => [name, files.get(name)!])]);
  const root = options.cacheRoot ?? join(BUILD_ROOT, 'icarus');
  const { dir, built } = await cachedBuild(root, key, async (work, tmpdir) => {
    for (const name of names) writeFileSync(pathInside(work, name), files.get(name)!);
    // A `.vh` file is included by another (a testbench's port table), not compiled on its own.
    await runTool('iverilog', [...flags, '-o', 'design.vvp', ...names.filter((name) => !name.endsWith('.vh'))], {
      cwd: work,
      tmpdir,
      timeout: options.timeout ?? COMPILE_TIMEOUT_MS,
    });
  });
  return { program: join(dir, 'design.vvp'), built };
}

/**
 * Step two: runs a compiled design with `vvp` in a private working folder (removed afterwards)
 * holding `files`, and returns what it printed and the `outputs` it wrote.
 */
export function runIcarus(build: IcarusBuild, options: IcarusRunOptions = {}): Promise<IcarusRun> {
  return withWorkspace('icarus-run', options.files ?? {}, async (work) => {
    // -n: a $stop would otherwise drop into the interactive prompt and hang.
    const { stdout } = await runTool('vvp', ['-n', build.program, ...(options.plusargs ?? [])], {
      cwd: work,
      timeout: options.timeout ?? RUN_TIMEOUT_MS,
    });
    return { stdout, files: readOutputs(work, options.outputs ?? []) };
  });
}
