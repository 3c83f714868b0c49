/**
 * A warp's round trip by the loads it keeps out, 1 to 16 (gpu/probes/README.md, "Twenty-fifth
 * batch"): `l2Partitions smdepth` on SM 0 of an H100, whose loop issues a step's loads before it
 * uses any, as the model's warps do. The SM is the H200's (GH100), so the rows hold the `h200`
 * profile's growth with loads out, each row's round trip over the same warps' one-out round trip,
 * not its rates: the H100's HBM3 is not the H200's memory. Below one SM's ceiling the model's
 * growth is silicon's within 10 %; at the ceiling silicon reads far more than the model lets one
 * SM, and those rows are held as misses that must still miss.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { runLoop, type LoopOptions } from '../../../gpu/memory/warpLoop.ts';
import { PROBE_RESULTS } from '../system/support.ts';

const RESULTS = join(PROBE_RESULTS, '2026-12-05i');
const MiB = 2 ** 20;
const GiB = 2 ** 30;
const WARP_LOAD_BYTES = 512;
/** The bytes a lone SM's warps ask at once below which neither the model's miss queue nor its line rate binds. */
const BELOW_CEILING_BYTES = 32 * 1024;

interface DepthRow {
  readonly level: 'DRAM' | 'L2';
  readonly warps: number;
  readonly inFlight: number;
  readonly gbps: number;
}

/** The `smdepth` rows of smDepth.jsonl (the `smstream` rows beside them and refusals are skipped). */
function depthRows(): DepthRow[] {
  return readFileSync(join(RESULTS, 'smDepth.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, number | string>)
    .filter((row) => row.probe === 'smdepth')
    .map((row) => ({
      level: Number(row.footprintBytes) >= GiB ? 'DRAM' : 'L2',
      warps: (Number(row.blocksPerSm) * Number(row.threads)) / 32,
      inFlight: Number(row.inFlight),
      gbps: Number(row.GBps),
    }));
}

const h200 = memoryProfile('h200');
/** The probe's run on the model: 64 MiB of a 1 GiB footprint from DRAM, or three passes over 24 MiB after a warm one from the L2. */
function modelRun(row: Pick<DepthRow, 'level' | 'warps' | 'inFlight'>): LoopOptions {
  const common = { pattern: 'stream', sms: [0], warpsPerSm: row.warps, inFlight: row.inFlight } as const;
  return row.level === 'DRAM'
    ? { ...common, bytes: GiB, totalBytes: 64 * MiB }
    : { ...common, bytes: 24 * MiB, warm: true, totalBytes: 3 * 24 * MiB, mapping: 'fixed' };
}

/** Little's law: the bytes a lone SM's warps keep out over the rate, ns. */
const roundTripNs = (row: Pick<DepthRow, 'warps' | 'inFlight'>, gbps: number) =>
  (row.warps * row.inFlight * WARP_LOAD_BYTES) / gbps;
const asked = (row: DepthRow) => row.warps * row.inFlight * WARP_LOAD_BYTES;

const rows = depthRows();
const oneOut = (row: DepthRow) =>
  rows.find((other) => other.level === row.level && other.warps === row.warps && other.inFlight === 1)!;
const modelRates = new Map<DepthRow, number>();
/** The model's rate for a row, run once per row (a DRAM row is a second or two of CPU). */
function modelGbps(row: DepthRow): number {
  let gbps = modelRates.get(row);
  if (gbps === undefined) modelRates.set(row, (gbps = runLoop(h200, modelRun(row)).GBps));
  return gbps;
}
/** A row's round trip over its warps' one-out round trip: [silicon, model]. */
function growth(row: DepthRow): [number, number] {
  const base = oneOut(row);
  return [
    roundTripNs(row, row.gbps) / roundTripNs(base, base.gbps),
    roundTripNs(row, modelGbps(row)) / roundTripNs(base, modelGbps(base)),
  ];
}
const label = (row: DepthRow) => `from ${row.level}, ${row.warps} warps × ${row.inFlight} out`;

describe('a warp round trip by its loads out (smdepth, an H100 SM)', () => {
  it('the probe loops keep every load of a step out (loadWindow.py on their SASS)', () => {
    const windows = readFileSync(join(RESULTS, 'loadWindow.txt'), 'utf8');
    for (const n of [1, 2, 4, 8, 12, 16]) expect(windows).toMatch(new RegExp(`streamDeepILi${n}E\\S*\\s+${n} out`));
    expect(rows.filter((row) => row.inFlight === 12).length).toBeGreaterThanOrEqual(4);
  });

  const below = rows.filter((row) => row.inFlight > 1 && asked(row) <= BELOW_CEILING_BYTES);
  it.each(below.map((row) => ({ ...row, name: label(row) })))(
    'below the ceiling, $name: the round trip grows as silicon within 10 %',
    (row) => {
      const [silicon, model] = growth(row);
      expect(Math.abs(model / silicon - 1), `silicon ×${silicon.toFixed(2)}, model ×${model.toFixed(2)}`).toBeLessThan(
        0.1,
      );
    },
    120_000,
  );

  // One SM's ceiling: the model's miss queue (1,424 sectors, read off loops that keep two and four out)
  // and its line rate from the L2 stop one SM at ≈ 137 and ≈ 189 GB/s; warps with 8 or more out
  // read 212–246 (docs/system-model.md, "A warp's loads out").
  const ceiling = rows.filter((row) => (row.level === 'DRAM' ? row.warps >= 32 : row.warps >= 16) && row.inFlight >= 8);
  it.each(ceiling.map((row) => ({ ...row, name: label(row) })))(
    'known miss, one SM ceiling, $name: silicon reads at least 15 % more than the model',
    (row) => {
      const model = modelGbps(row);
      expect(row.gbps / model - 1, `silicon ${row.gbps} GB/s, model ${model.toFixed(1)}`).toBeGreaterThan(0.15);
    },
    120_000,
  );
});
