import { createHash } from 'node:crypto';
import { REGRESS_SUITES } from '../../../support/regressSuites.ts';
import { drawCase } from '../../../../verif/regress/runCases.ts';
import { TsEngine } from '../../../../engines/ts/tsEngine.ts';
import { elaborate } from '../../../../hw/ir/elaborate.ts';
import { MmaUnit } from '../../../../coruscant/designs/tensor/mmaUnit.ts';
import { BitmapDecoder } from '../../../../coruscant/designs/decoder/bitmapDecoder.ts';
import { sparseWorkloadVectors } from '../../../../coruscant/workloads/sparseWorkload.ts';
import type { IrDesign } from '../../../../hw/ir/ir.ts';
import type { PortValues } from '../../../../hw/contract/engine.ts';

/**
 * Cycle-for-cycle fingerprints of the Coruscant blocks whose handshakes are stream interfaces:
 * every output port in every cycle, on fixed-seed stimulus (the regression suites' own cases and
 * the synthesis workload), folded into one SHA-256 per run. The digests checked in beside this
 * file were taken on the blocks before their handshakes became Flow interfaces, so an equal
 * digest means the same ports with the same values in every cycle.
 */
export const DIGEST_SUITES: Readonly<Record<string, number>> = {
  LaneDetector: 4,
  RegisterIndexEmitter: 4,
  AdderChain: 4,
  DensePointerIncrementer: 4,
  BitmapDecoder: 3,
  MmaUnit: 3,
};

const SEED = 22;

function fold(outputs: readonly PortValues[]): string {
  const hash = createHash('sha256');
  outputs.forEach((ports, cycle) => {
    const names = Object.keys(ports).sort();
    hash.update(`${cycle}:${names.map((name) => `${name}=${ports[name]!.toString(16)}`).join(',')}\n`);
  });
  return hash.digest('hex');
}

async function digestRun(design: IrDesign, stimulus: readonly PortValues[]): Promise<string> {
  const run = await new TsEngine().run(design, stimulus, { checks: 'count' });
  return `${run.outputs.length}:${fold(run.outputs)}`;
}

/** Per run name (`<suite>#<k>`, `<top>.workload`), its cycle count and output digest. */
export async function cycleDigests(): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  for (const [name, cases] of Object.entries(DIGEST_SUITES)) {
    const suite = REGRESS_SUITES.find((candidate) => candidate.name === name);
    if (!suite) throw new Error(`no suite ${name}`);
    for (let k = 0; k < cases; k++) {
      const value = drawCase(suite, SEED * 1000 + k);
      digests[`${name}#${k}`] = await digestRun(suite.design(value), suite.vectors(value).stimulus);
    }
  }
  const tops: readonly [string, () => IrDesign][] = [
    ['BitmapDecoder', () => elaborate(BitmapDecoder)],
    ['MmaUnit', () => elaborate(MmaUnit)],
  ];
  for (const [top, design] of tops) {
    const stimulus = sparseWorkloadVectors(top, {}, { sparsity: 0.5, seed: SEED, cycles: 120 });
    digests[`${top}.workload`] = await digestRun(design(), stimulus);
  }
  return digests;
}

// `npx tsx tests/hw/designs/streams/cycleDigest.ts` prints the digests as JSON.
if (process.argv[1]?.endsWith('cycleDigest.ts')) console.log(JSON.stringify(await cycleDigests(), null, 2));
