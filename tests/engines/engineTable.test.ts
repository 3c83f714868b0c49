import { afterEach, describe, expect, it } from 'vitest';
import { availableEngines, createEngine, ENGINE_NAMES, ENGINES, engineHelp } from '../../engines/index.ts';
import { availableEngines as reportEngines } from '../../coruscant/report/engines.ts';
import { ExternalEngine } from '../../engines/harness/externalEngine.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import { MutantEngine } from '../../verif/regress/mutation/mutantEngine.ts';

const path = process.env['PATH'];
afterEach(() => {
  process.env['PATH'] = path;
});

describe('the engine table', () => {
  it('is the one list of engines: names, factories, programs, descriptions', async () => {
    expect(ENGINE_NAMES).toEqual(['ts', 'verilator', 'icarus']);
    for (const entry of ENGINES) {
      expect((await createEngine(entry.name)).name).toBe(entry.name);
      expect(entry.description).not.toMatch(/\n/);
      expect(engineHelp()).toContain(`${entry.name}: ${entry.description}`);
    }
    expect(ENGINES.find((entry) => entry.name === 'ts')!.programs).toEqual([]);
  });

  it('says which engines this machine lacks and the program missing, for the report too', () => {
    process.env['PATH'] = '/nonexistent';
    const missing = {
      available: ['ts'],
      missing: [
        { engine: 'verilator', program: 'verilator' },
        { engine: 'icarus', program: 'iverilog' },
      ],
    };
    expect(availableEngines()).toEqual(missing);
    expect(reportEngines()).toEqual(missing);
  });

  it('gives the external engines and the mutation engine one adapter base', () => {
    expect(new IcarusEngine()).toBeInstanceOf(ExternalEngine);
    const mutant = new MutantEngine('module M; endmodule');
    expect(mutant).toBeInstanceOf(IcarusEngine);
    expect(mutant.name).toBe('icarus');
  });
});
