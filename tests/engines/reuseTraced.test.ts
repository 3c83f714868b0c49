/**
 * With GEN_VERILATOR_REUSE_TRACED=1 (the test suite's setting) an untraced run of a design whose
 * traced build is cached runs that build, tracing off: the design is compiled once, the outputs
 * are the same, and the untraced run writes no trace.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineModule, input, output } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { REUSE_TRACED_ENV, VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { BUILD_ROOT } from '../../tools/buildCache.ts';
import { hasTool } from '../../tools/toolchain.ts';

const scratch = mkdtempSync(join(tmpdir(), 'gen-reuse-traced-'));
const saved = process.env[REUSE_TRACED_ENV];
afterAll(() => {
  if (saved === undefined) delete process.env[REUSE_TRACED_ENV];
  else process.env[REUSE_TRACED_ENV] = saved;
  rmSync(scratch, { recursive: true, force: true });
});

/** A design no other test builds, so that its builds can be counted in the run's shared cache. */
const ReuseTracedProbe = defineModule({
  name: 'ReuseTracedProbe',
  defaults: {},
  ports: () => ({ enable: input(1), count: output(5) }),
  build(m, io) {
    const value = m.reg('value', 5, { reset: 0 });
    m.when(io.enable, () => value.set(value.add(3)));
    io.count.set(value);
  },
});

/** The cache entries holding the probe's Verilog. */
const probeBuilds = (): string[] => {
  const root = join(BUILD_ROOT, 'verilator');
  return readdirSync(root).filter((entry) => existsSync(join(root, entry, 'ReuseTracedProbe.v')));
};

describe.runIf(hasTool('verilator'))('an untraced Verilator run after a traced one', () => {
  it('runs the cached traced build: one build, the same outputs, no trace', async () => {
    process.env[REUSE_TRACED_ENV] = '1';
    const engine = new VerilatorEngine();
    const design = elaborate(ReuseTracedProbe);
    const inputs: PortValues[] = [{ reset: 1n }, { enable: 1n }, { enable: 1n }, {}];
    const vcd = join(scratch, 'probe.vcd');
    const traced = await engine.run(design, inputs, { vcd });
    expect(readFileSync(vcd, 'utf8')).toContain('$enddefinitions');
    rmSync(vcd);
    const plain = await engine.run(design, inputs);
    expect(readdirSync(scratch)).toEqual([]);
    expect(plain.outputs).toEqual(traced.outputs);
    expect(plain.outputs).toEqual((await new TsEngine().run(design, inputs)).outputs);
    expect(probeBuilds()).toHaveLength(1);
  }, 300_000);
});
