import { beforeAll, describe, expect, it } from 'vitest';
import { findTop } from '../support/registry.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { measureActivity, type Activity } from '../../synth/activity.ts';
import { areaOf } from '../../synth/area.ts';
import { gateLevelEquivalence } from '../../synth/equivalence.ts';
import { nangate45 } from '../../synth/library/nangate45.ts';
import { mapToCells, type MappedDesign } from '../../synth/mapToCells.ts';
import { moduleOf } from '../../synth/netlist.ts';
import { powerFromActivity } from '../../synth/power.ts';
import { synthesizeDesign } from '../../synth/synthesizeDesign.ts';
import { sparseWorkloadVectors } from '../../coruscant/workloads/sparseWorkload.ts';

/*
 * The Coruscant decoder through the whole flow with the embedded (WebAssembly) Yosys. A
 * two-thread BitmapDecoder holds every decoder block (DensePointerIncrementer, BitmapThreadSlice,
 * LaneDetector, AdderChain, RegisterIndexEmitter) as its hierarchy, so one mapping covers them all.
 */
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(
  `synth decoder blocks: stimulus seed ${seed} (replay: FC_SEED=${seed} npx vitest run tests/synth/coruscantBlocks.test.ts)`,
);

const params = { threads: 2 };
const design = elaborate(findTop('BitmapDecoder').definition, params);
const verilog = Object.fromEntries(emitVerilog(design));
const libraryArea = new Map(nangate45.cells.map((cell) => [cell.name, cell.area]));
const totalToggles = (activity: Activity): number =>
  [...activity.netToggles.values()].reduce((sum, count) => sum + count, 0);
const sparse = (sparsity: number) => ({
  vectors: sparseWorkloadVectors('BitmapDecoder', params, { sparsity, seed, cycles: 120 }),
});

let mapped: MappedDesign;
beforeAll(async () => {
  mapped = await mapToCells(verilog, design.top);
}, 120_000);

describe('BitmapDecoder (2 threads) through embedded Yosys', () => {
  it('reports every decoder block, with area = Σ library areas of the cells Yosys reports', async () => {
    expect(mapped.engine).toBe('yowasp');
    const { report } = await synthesizeDesign(verilog, design.top, {
      mapped,
      stimulus: sparse(0.5),
      timingEngine: 'longest-path',
    });
    const rows = new Map(report.components.map((row) => [row.displayName.split(' ')[0]!.replace(/_.*$/, ''), row]));
    for (const block of [
      'BitmapDecoder',
      'DensePointerIncrementer',
      'BitmapThreadSlice',
      'LaneDetector',
      'AdderChain',
      'RegisterIndexEmitter',
    ]) {
      expect(rows.get(block)?.cells, block).toBeGreaterThan(0);
    }
    expect(rows.get('BitmapThreadSlice')?.instances).toBe(2);
    const cells = Object.values(moduleOf(mapped.flat, mapped.gateTop).cells);
    const sum = cells.reduce((total, cell) => total + (libraryArea.get(cell.type) ?? Number.NaN), 0);
    expect(report.components[0]!.area45).toBeCloseTo(sum, 6);
    expect(report.components[0]!.area45).toBeCloseTo(mapped.yosysChipArea, 3);
    // Each block row is the Σ of the library areas of its own cells.
    const slice = rows.get('BitmapThreadSlice')!;
    expect(slice.area45).toBeCloseTo(
      slice.byType.reduce((total, entry) => total + entry.count * libraryArea.get(entry.type)!, 0),
      6,
    );
    expect(slice.byType.find((entry) => entry.type.startsWith('DFF'))?.count).toBeGreaterThanOrEqual(2 * 64);
    expect(areaOf(moduleOf(mapped.flat, mapped.gateTop), nangate45).cells).toBe(cells.length);
  });

  it('is equal to its RTL on random stimulus, cycle by cycle', async () => {
    const result = await gateLevelEquivalence(verilog, design.top, { cycles: 150, seed, mapped });
    expect(result.firstMismatches).toEqual([]);
    expect(result).toMatchObject({ equal: true, mismatches: 0 });
  });

  it('draws only leakage + clock on an all-zero workload, and more on pruned matrices', async () => {
    const zero = powerFromActivity(mapped, await measureActivity(mapped, { workload: 'zero', cycles: 60 }));
    const pruned = powerFromActivity(mapped, await measureActivity(mapped, sparse(0.5)));
    expect(zero.internalUw).toBe(0);
    expect(zero.switchingUw).toBe(0);
    expect(zero.clockUw).toBeGreaterThan(0);
    expect(zero.totalUw).toBeCloseTo(zero.leakageUw + zero.clockUw, 9);
    expect(pruned.leakageUw).toBeCloseTo(zero.leakageUw, 9);
    expect(pruned.clockUw).toBeCloseTo(zero.clockUw, 9);
    expect(pruned.internalUw).toBeGreaterThan(0);
    expect(pruned.totalUw).toBeGreaterThan(zero.totalUw * 1.1);
  });

  it('toggles more at 30 % than at 70 % sparsity: more nonzeros per chunk advance the value counters further', async () => {
    // Bitmap bits alone toggle symmetrically (2p(1−p) at density p), but the adder chain's base
    // and every index/register select move by the chunk's popcount (2.8 vs 1.2 on average), and
    // zero-filled slots hold their register/half outputs at 0.
    const [dense, sparser] = await Promise.all([
      measureActivity(mapped, sparse(0.3)),
      measureActivity(mapped, sparse(0.7)),
    ]);
    expect(dense.cycles).toBe(sparser.cycles);
    expect(totalToggles(dense)).toBeGreaterThan(totalToggles(sparser) * 1.1);
    expect(powerFromActivity(mapped, dense).dynamicUw).toBeGreaterThan(powerFromActivity(mapped, sparser).dynamicUw);
  });
});
