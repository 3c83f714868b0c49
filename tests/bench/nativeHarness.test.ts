import { describe, expect, it } from 'vitest';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { BenchPipeline } from '../../hw/examples/benchPipeline.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { harnessPortsOf } from '../../engines/harness/harnessStimulus.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import { OutputChecksum, binaryStimulus, buildNativeHarness, runNativeHarness } from '../../bench/nativeHarness.ts';
import { PortFrames } from '../../hw/contract/portFrames.ts';
import { framedRun } from '../../engines/framedRun.ts';

const stimulus = (cycles: number, pauseAt?: number): PortValues[] =>
  Array.from({ length: cycles }, (_, cycle): PortValues => ({
    reset: cycle === 0 ? 1n : 0n,
    enable: cycle === pauseAt ? 0n : 1n,
  }));

describe('verilator-native harness', () => {
  it('folds outputs as FNV-1a over 32-bit words, port by port, wide ports least significant word first', () => {
    const ports = {
      top: 'T',
      inputs: [],
      outputs: [
        { name: 'a', width: 8 },
        { name: 'b', width: 40 },
      ],
      clocked: true,
    };
    const checksum = new OutputChecksum(ports);
    checksum.add(framedRun(PortFrames.from(ports.outputs, [{ a: 0x12n, b: 0x34_0000_0056n }])));
    let hash = 0x811c9dc5;
    for (const word of [0x12, 0x56, 0x34]) hash = Math.imul(hash ^ word, 0x01000193) >>> 0;
    expect(checksum.value).toBe(hash.toString(16).padStart(8, '0'));
  });

  it('lays out the binary stimulus as stream count, then per stream its cycles and every input word', () => {
    const ports = {
      top: 'T',
      inputs: [
        { name: 'x', width: 36 },
        { name: 'y', width: 1 },
      ],
      outputs: [],
      clocked: true,
    };
    const words = new Uint32Array(binaryStimulus(ports, [[{ x: 0x9_0000_0001n }, { y: 1n }]]).buffer.slice(0));
    // Inputs a cycle leaves out keep their previous value.
    expect([...words]).toEqual([1, 2, 1, 9, 0, 1, 9, 1]);
  });

  it("runs BenchPipeline with the ts engine's outputs, and a changed stimulus changes the checksum", async () => {
    const design = elaborate(BenchPipeline);
    const ports = harnessPortsOf(design);
    const streams = [stimulus(3000), stimulus(500, 200)];
    const expected = new OutputChecksum(ports);
    for (const run of await new TsEngine().runMany(design, streams)) expected.add(run);

    const build = await buildNativeHarness(emitVerilog(design), ports);
    const native = await runNativeHarness(build, binaryStimulus(ports, streams));
    expect(native.cycles).toBe(3500);
    expect(native.seconds).toBeGreaterThan(0);
    expect(native.cpuSeconds).toBeGreaterThan(0);
    expect(native.cpuSeconds).toBeLessThan(native.seconds + 1);
    expect(native.checksum).toBe(expected.value);

    const changed = await runNativeHarness(build, binaryStimulus(ports, [stimulus(3000), stimulus(500, 201)]));
    expect(changed.checksum).not.toBe(expected.value);
  }, 600_000);
});
