/**
 * The SMs' GPCs and L2 partitions: TPCs dealt to the GPCs in turn, the GPCs to the partitions, so
 * a grid smaller than the GPU spreads over both partitions as on silicon, and each GPC's SMs share
 * one port to the L2 (gpu/probes/README.md, "Eleventh batch" and "Twelfth batch").
 */
import { describe, expect, it } from 'vitest';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { smGpcs, smPartitions, smsOfGpc, smsOfPartition } from '../../../gpu/memory/smTopology.ts';
import { runLoop } from '../../../gpu/memory/warpLoop.ts';

const profile = memoryProfile('h200');
const MiB = 1 << 20;
const stream = (sms: number[]): number =>
  runLoop(profile, { pattern: 'stream', bytes: 8 * MiB, totalBytes: 16 * MiB, mapping: 'fixed', warm: true, sms }).GBps;

describe('smGpcs and smPartitions', () => {
  it("put a TPC's two SMs in one GPC, deal the TPCs to 8 GPCs in turn, and make each partition whole GPCs", () => {
    const gpcs = smGpcs(profile.sm);
    const partitions = smPartitions(profile);
    for (let sm = 0; sm < 132; sm += 2) expect(gpcs[sm + 1]).toBe(gpcs[sm]);
    expect(smsOfGpc(profile, 1).slice(0, 4)).toEqual([2, 3, 18, 19]);
    for (let gpc = 0; gpc < 8; gpc++) expect(new Set(smsOfGpc(profile, gpc).map((sm) => partitions[sm])).size).toBe(1);
  });

  it('split the first 16, 32 and 64 SMs evenly between the partitions, as smmap found on four H200s', () => {
    const partitions = smPartitions(profile);
    for (const first of [16, 32, 64, 132]) {
      expect([...partitions.subarray(0, first)].filter((partition) => partition === 0)).toHaveLength(first / 2);
    }
    expect(smsOfPartition(profile, 1)).toHaveLength(66);
  });

  it('put every SM in GPC and partition 0 without GPCs or partitions, and refuse topologies that do not divide', () => {
    const { gpcs, ...plainSm } = profile.sm;
    expect(gpcs).toBeDefined();
    expect([...smGpcs({ ...plainSm, count: 4 })]).toEqual([0, 0, 0, 0]);
    const unpartitioned = { ...profile, l2: { ...profile.l2, partitions: undefined } };
    expect(new Set(smPartitions(unpartitioned))).toEqual(new Set([0]));
    expect(() => smGpcs({ ...profile.sm, count: 131 })).toThrow(/131 SMs do not split into TPCs of 2/);
    expect(() => smPartitions({ ...profile, sm: plainSm })).toThrow(/h200: L2 partitions need the SMs' GPCs/);
    const threeGpcs = { ...profile, sm: { ...profile.sm, gpcs: { ...gpcs!, count: 3 } } };
    expect(() => smPartitions(threeGpcs)).toThrow(/3 GPCs do not split into 2 L2 partitions/);
  });
});

describe('the GPC port', () => {
  it("holds one GPC's SMs to its rate whether one or both SMs of each TPC read, where as many SMs over all GPCs read more", () => {
    const gpc = smsOfGpc(profile, 1);
    const oneGpc = stream(gpc);
    const onePerTpc = stream(gpc.filter((sm) => sm % 2 === 0));
    const spread = stream(Array.from({ length: gpc.length }, (_, i) => 2 * i));
    const portGBps = (profile.sm.gpcs!.portBytesPerCycle * profile.sm.clockMHz) / 1000;
    expect(oneGpc / portGBps).toBeGreaterThan(0.9);
    expect(oneGpc / portGBps).toBeLessThan(1.01);
    expect(Math.abs(onePerTpc / oneGpc - 1)).toBeLessThan(0.05);
    expect(spread / oneGpc).toBeGreaterThan(1.5);
  }, 120_000);

  it("gives a 64-SM stream both partitions' L2 rate, where 64 SMs of one partition get about half", () => {
    const firstSms = stream(Array.from({ length: 64 }, (_, sm) => sm));
    const onePartition = stream(smsOfPartition(profile, 0).slice(0, 64));
    expect(onePartition / firstSms).toBeGreaterThan(0.4);
    expect(onePartition / firstSms).toBeLessThan(0.6);
  }, 120_000);
});
