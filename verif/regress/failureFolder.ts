import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createStagingFolder, swapFolderIn } from '../../common/folderSwap.ts';
import { writeFileAtomic } from '../../common/atomicWrite.ts';
import { renderWaveDromSvg } from '../../waves/wavedrom.ts';
import type { Engine } from '../../hw/contract/engine.ts';
import { formatVectorValue } from '../../engines/vectors.ts';
import { describeMismatch, firstFailure, type Mismatch } from './compare.ts';
import { mismatchPicture } from './divergencePicture.ts';
import type { RegressSuite } from './suite.ts';
import { topModule } from '../../hw/ir/ir.ts';
import type { Params } from '../../hw/core/index.ts';

/** Where a failing case came from and how to get it back. */
export interface FailureIdentity {
  readonly suite: string;
  readonly engine: string;
  readonly runSeed: number;
  readonly caseIndex: number;
  readonly caseSeed: number;
  /** fast-check path of the shrunk case from `caseSeed`. */
  readonly path: string;
  readonly shrinks: number;
  readonly interrupted: boolean;
  /** Suite files the run loaded besides the project config (relative to the project root); `--replay` loads them again. */
  readonly suiteFiles?: readonly string[];
}

/** How to get a failing case back, for the folder's README.txt. */
export interface ReplayCommands {
  /** Reruns the case (e.g. `npx gen regress --replay <folder>`). */
  readonly replay: string;
  /** The same with every option spelled out, when it differs. */
  readonly longReplay?: string;
  /** Runs stimulus.jsonl on the failing top with `gen sim` (its definition name and parameters). */
  readonly sim?: (top: string, params: Params, vectors: string) => string;
}

const hexPorts = (ports: Readonly<Record<string, bigint>>): Record<string, string> =>
  Object.fromEntries(Object.entries(ports).map(([name, value]) => [name, formatVectorValue(value)]));

/** JSON with bigints as `0x…` strings (cases of the decoder suites hold 64-bit bitmaps). */
export const caseJson = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? formatVectorValue(item) : item), 2);

/** The files of a failure folder, by name. */
export const FAILURE_FILES = {
  case: 'case.json',
  vectors: 'stimulus.jsonl',
  readme: 'README.txt',
  vcd: 'wave.vcd',
  picture: 'divergence.svg',
} as const;

/**
 * Writes what one failing case needs to be understood and replayed: the case and its identity
 * (case.json), its stimulus with the golden outputs in `gen sim` vector form (stimulus.jsonl), the
 * replay command (README.txt), the VCD of the failing run on its engine (wave.vcd) and a WaveDrom
 * picture of golden against actual around the first mismatch (divergence.svg). Returns the mismatch
 * of the rerun (undefined if the case no longer fails, which the README then says).
 */
export async function saveFailureFolder(
  directory: string,
  suite: RegressSuite,
  engine: Engine,
  identity: FailureIdentity,
  value: unknown,
  commands: ReplayCommands | string,
): Promise<Mismatch | undefined> {
  const { replay, longReplay, sim } =
    typeof commands === 'string' ? ({ replay: commands } as ReplayCommands) : commands;
  const design = suite.design(value);
  const top = topModule(design);
  const { stimulus, expected } = suite.vectors(value);
  const vectorLines = stimulus.map((inputs, cycle) =>
    JSON.stringify({ in: hexPorts(inputs), expect: hexPorts(expected[cycle] ?? {}) }),
  );
  // Built whole in a staging folder and swapped in (common/folderSwap.ts): a kill or a failed
  // rerun leaves the previous folder or the new one, never a README of one run beside the VCD of another.
  const staging = createStagingFolder(directory);
  try {
    const mismatch = await writeFailureFiles(staging);
    swapFolderIn(staging, directory);
    return mismatch;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }

  async function writeFailureFiles(folder: string): Promise<Mismatch | undefined> {
    writeFileAtomic(join(folder, FAILURE_FILES.vectors), `${vectorLines.join('\n')}\n`);
    const run = await engine.run(design, stimulus, { vcd: join(folder, FAILURE_FILES.vcd), checks: 'count' });
    const mismatch = firstFailure(run, expected);
    writeFileAtomic(
      join(folder, FAILURE_FILES.case),
      `${caseJson({ ...identity, design: design.top, mismatch: mismatch ?? null, case: value })}\n`,
    );
    if (mismatch)
      writeFileAtomic(
        join(folder, FAILURE_FILES.picture),
        renderWaveDromSvg(mismatchPicture(design, stimulus, expected, run.outputs, mismatch)),
      );
    const readme = [
      `${suite.name} on ${engine.name}: case ${identity.caseIndex} of seed ${identity.runSeed} (case seed ${identity.caseSeed}, fast-check path ${identity.path}, ${identity.shrinks} shrinks${identity.interrupted ? ', shrinking stopped at its time limit' : ''})`,
      mismatch
        ? `first mismatch: ${describeMismatch(mismatch)}`
        : 'the shrunk case passed when rerun (a flaky engine?)',
      `replay: ${replay}`,
      ...(longReplay !== undefined && longReplay !== replay ? [`same as: ${longReplay}`] : []),
      ...(sim
        ? [`simulate: ${sim(top.definition, top.parameters as Params, join(directory, FAILURE_FILES.vectors))}`]
        : []),
      `files: ${Object.values(FAILURE_FILES).join(', ')} (stimulus.jsonl is a \`gen sim --vectors\` file for ${design.top})`,
    ];
    writeFileAtomic(join(folder, FAILURE_FILES.readme), `${readme.join('\n')}\n`);
    return mismatch;
  }
}
