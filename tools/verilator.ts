import { copyFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../common/errors.ts';
import { BUILD_ROOT, cachedBuild, contentHash, intactEntry } from './buildCache.ts';
import { runTool, toolVersion } from './runTool.ts';
import { makeWithPch } from './verilatorPch.ts';
import { pathInside } from '../common/pathInside.ts';

/**
 * Build flags: Verilator's usual optimized build (its -O3; the C++ at verilated.mk's -Os), used
 * for tests and benchmarks alike so both share one cached build. `--x-initial 0` and
 * `--x-assign 0` make every register and memory start at 0, as the step contract says (the TS
 * simulator and the Icarus testbench do the same; `fast` would break that); -Wno-fatal because
 * lint is a separate, stricter step (lintWithVerilator) and must not block a simulation.
 * `--output-split-cfuncs`: Verilator inlines the whole MmaUnit into eval functions of 11–15 k
 * lines, on which g++ is superlinear; ~1 000-statement functions cut the MmaBench's compile from
 * 114 to 79 s of CPU with identical outputs and no slower cycles (-O1 would save 9 s more,
 * -O0 15 s more but doubles the run time: not worth a second build flavour).
 * `-fno-const-bit-op-tree`: that optimization folds `(x ^ ~x) ^ (x << x)` to `x << x` in
 * Debian's Verilator 5.006 (tests/verif/fuzz/knownEngineBugs.test.ts; verilator/verilator#4709
 * and #5186 are later fixes to the same pass), a wrong result no simulation may depend on.
 */
const BUILD_FLAGS = [
  '--cc',
  '--exe',
  '-O3',
  '-fno-const-bit-op-tree',
  '--output-split-cfuncs',
  '1000',
  '--x-assign',
  '0',
  '--x-initial',
  '0',
  '-Wno-fatal',
  '-Wno-lint',
  '-Wno-style',
];

/** A Verilator build takes seconds to a few minutes; a stuck compiler is killed after this. */
const BUILD_TIMEOUT_MS = 15 * 60_000;

/** Set to a whole number of ms, replaces the 15-minute bound of each step of a Verilator build. */
export const BUILD_TIMEOUT_ENV = 'GEN_BUILD_TIMEOUT_MS';

/** The bound of each build step (verilate, compile): GEN_BUILD_TIMEOUT_MS when set, else 15 minutes. */
export function buildTimeout(): number {
  const fixed = process.env[BUILD_TIMEOUT_ENV];
  if (fixed === undefined || fixed === '') return BUILD_TIMEOUT_MS;
  const ms = Number(fixed);
  if (!/^\d+$/.test(fixed) || !Number.isSafeInteger(ms) || ms <= 0)
    throw new UserError(
      `${BUILD_TIMEOUT_ENV} must be a whole number of milliseconds above 0, got '${fixed.slice(0, 40)}'`,
    );
  return ms;
}

export interface VerilatorBuildOptions {
  /** Build with VCD tracing (`--trace`); a separate cache entry from the untraced build. */
  readonly trace?: boolean;
  /**
   * An untraced build is served by the traced build of the same design when the cache already has
   * it (tracing is a run-time choice of the harness), so a test run that traces a design and runs
   * it untraced compiles it once. Benchmarks leave it off: the untraced build is the fast one.
   */
  readonly reuseTraced?: boolean;
  /** Where cached builds live; `build/verilator` in the project by default. */
  readonly cacheRoot?: string;
}

/** The C++ main Verilator links with the model (engines/verilator/verilatorHarness.ts gives it), and the top it drives. */
export interface VerilatorHarness {
  readonly top: string;
  /** C++ source, compiled as harness.cpp. */
  readonly source: string;
  /** Files it includes (name → text), written beside it: the design's port table. */
  readonly includes?: Readonly<Record<string, string>>;
}

export interface VerilatorBuild {
  readonly binary: string;
  /** False when the cache already had this exact build. */
  readonly built: boolean;
}

let versionsPromise: Promise<string> | undefined;

/** Verilator's and the C++ compiler's versions: a change in either invalidates cached builds. */
function toolchainVersions(): Promise<string> {
  versionsPromise ??= Promise.all([toolVersion('verilator'), toolVersion('g++')]).then((versions) =>
    versions.join('; '),
  );
  return versionsPromise;
}

/**
 * Verilates `files` (name → Verilog text) with a harness, once per distinct content: the cache
 * key covers the Verilog, the harness, the flags and the toolchain's versions.
 */
export async function buildVerilator(
  files: ReadonlyMap<string, string>,
  { top, source: harness, includes = {} }: VerilatorHarness,
  options: VerilatorBuildOptions = {},
): Promise<VerilatorBuild> {
  const version = await toolchainVersions();
  const timeout = buildTimeout();
  // `--trace-underscore`: the emitter's internal nets (`_n27`) are traced too, for `gen sim --internal`
  // (engines/harness/engineTrace.ts leaves them out of the waveform unless asked for).
  const flagsOf = (trace: boolean): string[] => [...BUILD_FLAGS, ...(trace ? ['--trace', '--trace-underscore'] : [])];
  const runtimeFlags = flagsOf(options.trace === true);
  const flags = [...runtimeFlags, '--top-module', top];
  const names = [...files.keys()].sort();
  const included = Object.keys(includes).sort();
  const sources = [
    harness,
    ...included.flatMap((name) => [name, includes[name]!]),
    ...names.flatMap((name) => [name, files.get(name)!]),
  ];
  const key = contentHash([version, flags.join(' '), ...sources]);
  const root = options.cacheRoot ?? join(BUILD_ROOT, 'verilator');
  if (options.reuseTraced && !options.trace) {
    const traced = intactEntry(
      root,
      contentHash([version, [...flagsOf(true), '--top-module', top].join(' '), ...sources]),
    );
    if (traced !== undefined) return { binary: join(traced, 'simulate'), built: false };
  }
  const { dir, built } = await cachedBuild(root, key, async (work, tmpdir) => {
    for (const name of names) writeFileSync(pathInside(work, name), files.get(name)!);
    writeFileSync(join(work, 'harness.cpp'), harness);
    for (const name of included) writeFileSync(pathInside(work, name), includes[name]!);
    await runTool('verilator', [...flags, '-Mdir', 'obj', '-o', 'simulate', 'harness.cpp', ...names], {
      cwd: work,
      timeout,
      tmpdir,
    });
    await compileWithRuntimeCache(join(work, 'obj'), top, contentHash([version, runtimeFlags.join(' ')]), options, {
      timeout,
      tmpdir,
    });
    // Keep the sources and the binary; the object files are big and never reused.
    copyFileSync(join(work, 'obj', 'simulate'), join(work, 'simulate'));
    rmSync(join(work, 'obj'), { recursive: true, force: true });
  });
  return { binary: join(dir, 'simulate'), built };
}

/** Verilator's own runtime objects: the same for every design built with the same flags. */
const RUNTIME_OBJECT = /^verilated.*\.o$/;

/**
 * Compiles the Verilated C++ in `obj`. Half of a small build is Verilator's runtime library
 * (verilated.cpp and friends), identical for every design with the same flags, so its objects are
 * cached too: copied in fresh (newer than their sources, so make skips them) before compiling.
 * Most of the rest is parsing Verilator's headers, which the model's files and the harness load
 * precompiled (verilatorPch.ts) from the second build of these flags in the cache on.
 */
async function compileWithRuntimeCache(
  obj: string,
  top: string,
  runtimeKey: string,
  options: VerilatorBuildOptions,
  limits: { readonly timeout: number; readonly tmpdir: string },
): Promise<void> {
  const cacheRoot = options.cacheRoot ?? join(BUILD_ROOT, 'verilator');
  const root = join(cacheRoot, 'runtime');
  const cached = intactEntry(root, runtimeKey);
  if (cached !== undefined) for (const name of listObjects(cached)) copyFileSync(join(cached, name), join(obj, name));
  // As many compile jobs as the machine has cores (the split eval functions compile in parallel).
  const make = ['-C', obj, '-f', `V${top}.mk`, '-j', String(availableParallelism())];
  // The first build of these flags in a cache compiles no precompiled header: a cache that sees
  // one build (a user's one design, a test's private cache) would pay more for it than it saves.
  if (cached === undefined) await runTool('make', make, limits);
  else await makeWithPch(obj, make, join(cacheRoot, 'pch'), runtimeKey, options.trace === true, limits);
  await cachedBuild(root, runtimeKey, async (dir) => {
    for (const name of listObjects(obj)) copyFileSync(join(obj, name), join(dir, name));
  });
}

function listObjects(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => RUNTIME_OBJECT.test(name))
      .sort();
  } catch {
    return [];
  }
}
