import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { elaborate } from '../../../../hw/ir/elaborate.ts';
import { BitmapDecoder } from '../../../../coruscant/designs/decoder/index.ts';
import { TsEngine } from '../../../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../../../engines/icarus/icarusEngine.ts';
import type { Engine, PortValues } from '../../../../hw/contract/engine.ts';
import type { IrDesign } from '../../../../hw/ir/ir.ts';
import {
  PAPER_DECODER_SHAPE,
  decoderTimeline,
  type DecoderShape,
} from '../../../../coruscant/golden/models/decoder.ts';
import { arbitraryStream, decoderPorts, expectCycles, propertySeed, stimulusPorts } from './decoderStimulus.ts';

const seed = propertySeed('tests/hw/designs/decoder/engines.test.ts');
const engines: Engine[] = [new TsEngine(), new VerilatorEngine(), new IcarusEngine()];

/** Runs the streams on every engine and requires identical outputs, cycle by cycle. */
async function sameOnAllEngines(
  design: IrDesign,
  streams: readonly (readonly PortValues[])[],
): Promise<PortValues[][]> {
  const [reference, ...others] = await Promise.all(
    engines.map(async (engine) => (await engine.runMany(design, streams)).map((run) => run.outputs)),
  );
  others.forEach((runs, index) =>
    runs.forEach((outputs, stream) =>
      expectCycles(outputs, reference![stream]!, `${engines[index + 1]!.name} vs ts, ${design.top}, stream ${stream}`),
    ),
  );
  return reference!;
}

// BitmapDecoder holds every other decoder block, so one design covers them all on the external
// engines at the cost of a single Verilator build.
describe('the decoder on the in-process simulator, Verilator and Icarus', () => {
  it('BitmapDecoder (paper size) gives identical outputs on random MMA streams, equal to the golden model', async () => {
    const shape: DecoderShape = PAPER_DECODER_SHAPE;
    const stimuli = fc.sample(arbitraryStream(shape, 3), { seed, numRuns: 4 });
    const outputs = await sameOnAllEngines(
      elaborate(BitmapDecoder),
      stimuli.map((stimulus) => stimulusPorts(stimulus, shape)),
    );
    stimuli.forEach((stimulus, stream) =>
      expectCycles(outputs[stream]!, decoderTimeline(stimulus, shape).map(decoderPorts), `golden, stream ${stream}`),
    );
    expect(outputs.flat().filter((ports) => ports['valid'] === 1n).length).toBeGreaterThan(0);
  });
});
