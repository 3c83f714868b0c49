import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { buildManifest } from '../../hw/verilog/manifest.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import type { Engine, PortValues } from '../../hw/contract/engine.ts';
import { Nest } from '../hw/verilog/testDesigns.ts';

/** Hierarchical names (`Nest_width_4.state.counter`) of every variable a VCD declares. */
function vcdNames(text: string): Set<string> {
  const names = new Set<string>();
  const scope: string[] = [];
  for (const line of text.split('\n')) {
    const words = line.trim().split(/\s+/);
    if (words[0] === '$scope') scope.push(words[2]!);
    else if (words[0] === '$upscope') scope.pop();
    else if (words[0] === '$var') names.add([...scope, words[4]!].join('.'));
    else if (words[0] === '$enddefinitions') break;
  }
  return names;
}

/** A cold Verilator build on a busy two-core machine can take minutes; the cache makes reruns fast. */
const BUILD_TIMEOUT_MS = 600_000;

describe('VCD output of the external engines', () => {
  const design = elaborate(Nest, { width: 4 });
  const manifest = buildManifest(design);
  const inputs: PortValues[] = [{ reset: 1n }, { reset: 0n, enable: 1n, data: 5n }, { address: 1n }, { data: 9n }];

  it.each([new VerilatorEngine(), new IcarusEngine()] as Engine[])(
    '$name names signals as the manifest says (no TOP), and writes the file atomically',
    async (engine) => {
      const dir = mkdtempSync(join(tmpdir(), 'vcd-test-'));
      const vcd = join(dir, 'run.vcd');
      const run = await engine.run(design, inputs, { vcd });
      expect(run.outputs.map((outputs) => outputs.count)).toEqual([0n, 3n, 4n, 5n]);
      expect(readdirSync(dir)).toEqual(['run.vcd']);
      const names = vcdNames(readFileSync(vcd, 'utf8'));
      // The engine-independent waveform: exactly the manifest's names, nothing else.
      expect([...names].sort()).toEqual(manifest.sourceMap.map((entry) => entry.vcd).sort());
      expect(names).toContain('Nest_width_4.state.counter');
      expect([...names].filter((name) => name.startsWith('TOP') || /(^|\.)(tb_|_n\d)/.test(name))).toEqual([]);
    },
    BUILD_TIMEOUT_MS,
  );
});
