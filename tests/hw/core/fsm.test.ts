import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  InvalidParameterError,
  UnreachableStateError,
  defineEnum,
  defineModule,
  enumReg,
  fsm,
  input,
  output,
} from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { Simulator } from '../../../hw/sim/simulator.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { buildManifest } from '../../../hw/verilog/manifest.ts';
import { waveLane } from '../../../waves/wavedrom.ts';
import { checkWithYosys, lintWithVerilator } from '../../../tools/lint.ts';
import { SerialTransmitter } from '../../../hw/examples/serialTransmitter.ts';
import { caughtHdlError as caught, markerLines } from '../../support/hdlErrors.ts';

const thisFile = fileURLToPath(import.meta.url);
const lineOf = markerLines(import.meta.url);

const Light = defineEnum('Light', ['red', 'green', 'amber', 'broken']);

const machine = (states: Parameters<typeof fsm<'red' | 'green' | 'amber' | 'broken'>>[3]['states']) =>
  defineModule({
    name: 'Lights',
    defaults: {},
    ports: () => ({ go: input(1), red: output(1) }),
    build(m, io) {
      const lights = fsm(m, 'light', Light, { reset: 'red', states }); // MARK-fsm
      io.red.set(lights.is('red').and(io.go.not()).or(lights.is('red')));
    },
  });

describe('enums', () => {
  it('code values in order or as given, and the width they need', () => {
    expect(Light.width).toBe(2);
    expect(Light.codes.amber).toBe(2n);
    const Sparse = defineEnum('Sparse', { off: 0, on: 5 });
    expect(Sparse.width).toBe(3);
    expect(Sparse.nameOf(5n)).toBe('on');
    expect(() => defineEnum('Clash', { a: 1, b: 1 })).toThrow(/'b' and 'a' have the same code 1/);
    expect(() => defineEnum('Narrow', ['a', 'b', 'c'], { width: 1 })).toThrow(/needs 2 bits/);
  });

  it('keep their names in the Verilog (localparams) and in the manifest, and lint clean', async () => {
    const design = elaborate(SerialTransmitter);
    const text = emitVerilog(design).get('SerialTransmitter.v')!;
    expect(text).toContain("localparam [1:0] TxPhase_idle = 2'd0;");
    expect(text).toContain("localparam [1:0] TxPhase_stop = 2'd3;");
    const entry = buildManifest(design).sourceMap.find((item) => item.path === 'SerialTransmitter.phase');
    expect(entry?.enum).toEqual({ type: 'TxPhase', values: { 0: 'idle', 1: 'start', 2: 'data', 3: 'stop' } });
    expect(await lintWithVerilator(emitVerilog(design), design.top)).toEqual([]);
    expect(await checkWithYosys(emitVerilog(design), design.top, { system: true })).toEqual([]);
  });

  it('label waveforms by name where a manifest names the values', () => {
    const signal = { kind: 'bits', width: 2, name: 'phase' } as unknown as Parameters<typeof waveLane>[1];
    expect(waveLane('phase', signal, ['00', '01', '01', '11'], { 0: 'idle', 1: 'start', 3: 'stop' })).toEqual({
      name: 'phase',
      wave: '==.=',
      data: ['idle', 'start', 'stop'],
    });
    expect(waveLane('phase', signal, ['00', '10'])).toEqual({ name: 'phase', wave: '==', data: ['0', '2'] });
  });

  it('an enum register with an unknown reset value is refused', () => {
    const Bad = defineModule({
      name: 'Bad',
      defaults: {},
      ports: () => ({ y: output(2) }),
      build(m, io) {
        io.y.set(enumReg(m, 'r', Light, { reset: 'blue' as 'red' }));
      },
    });
    expect(caught(Bad)).toBeInstanceOf(InvalidParameterError);
  });
});

describe('gen wave show labels FSM states', () => {
  it('with --top, and with --vcd and the manifest of gen verilog', () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    mkdirSync(join(root, 'out'), { recursive: true }); // a fresh checkout has no out/ yet
    const folder = mkdtempSync(join(root, 'out', 'fsm-wave-'));
    try {
      const vectors = join(folder, 'tx.jsonl');
      const lines = [{ in: { reset: 1 } }, { in: { reset: 0, in_valid: 1, in_data: 0xa5 } }, { in: { in_valid: 0 } }];
      writeFileSync(
        vectors,
        [...lines, ...Array.from({ length: 11 }, () => ({ in: {} }))].map((line) => JSON.stringify(line)).join('\n'),
      );
      const gen = (...args: string[]) => execFileSync('node', ['bin/gen.js', ...args], { cwd: root, stdio: 'pipe' });
      const phaseLane = (file: string): unknown => {
        const find = (items: unknown[]): unknown =>
          items
            .map((item) =>
              Array.isArray(item) ? find(item) : (item as { name?: string }).name === 'phase' ? item : undefined,
            )
            .find((item) => item !== undefined);
        return find((JSON.parse(readFileSync(file, 'utf8')) as { signal: unknown[] }).signal);
      };
      const labels = ['idle', 'start', 'data', 'stop', 'idle'];
      gen(
        'wave',
        'show',
        '--top',
        'SerialTransmitter',
        '--vectors',
        vectors,
        '--signals',
        '**.phase',
        '--json',
        join(folder, 'ts.json'),
      );
      const inProcess = phaseLane(join(folder, 'ts.json')) as { data: string[] };
      expect(inProcess.data).toEqual(labels);
      gen('verilog', '--top', 'SerialTransmitter', '--out', join(folder, 'v'));
      gen(
        'sim',
        '--top',
        'SerialTransmitter',
        '--vectors',
        vectors,
        '--engine',
        'icarus',
        '--vcd',
        join(folder, 'run.vcd'),
      );
      gen(
        'wave',
        'show',
        '--vcd',
        join(folder, 'run.vcd'),
        '--manifest',
        join(folder, 'v', 'manifest.json'),
        '--signals',
        '**.phase',
        '--json',
        join(folder, 'icarus.json'),
      );
      expect(phaseLane(join(folder, 'icarus.json'))).toEqual(inProcess);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('FSM helper', () => {
  it('runs its transitions, the state register named by its enum', () => {
    const design = elaborate(
      machine({
        red: (go) => go('green'),
        green: (go) => go('amber'),
        amber: (go) => go('broken'),
        broken: (go) => go('red'),
      }),
    );
    expect(design.modules[0]!.enums?.[0]).toMatchObject({ name: 'Light', signals: ['light'] });
    const sim = new Simulator(design);
    sim.reset();
    const seen: string[] = [];
    for (let cycle = 0; cycle < 5; cycle++) {
      seen.push(Light.nameOf(sim.peek('light'))!);
      sim.step();
    }
    expect(seen).toEqual(['red', 'green', 'amber', 'broken', 'red']);
  });

  it('an unreachable state is an error at the fsm call naming the state', () => {
    const error = caught(
      machine({
        red: (go) => go('green'),
        green: (go) => go('amber'),
        amber: (go) => go('red'),
        broken: (go) => go('red'), // reached from nowhere
      }),
    );
    expect(error).toBeInstanceOf(UnreachableStateError);
    expect([basename(error.location.file), error.location.line]).toEqual([basename(thisFile), lineOf('MARK-fsm')]);
    expect(error.message).toMatch(/state\(s\) broken cannot be reached from 'red'/);
  });

  it('a conditional transition counts as reachable; a missing body and an unknown target are refused', () => {
    expect(() =>
      elaborate(
        defineModule({
          name: 'Cond',
          defaults: {},
          ports: () => ({ go: input(1), y: output(1) }),
          build(m, io) {
            const f = fsm(m, 's', defineEnum('Two', ['a', 'b']), {
              reset: 'a',
              states: { a: (go) => m.when(io.go, () => go('b')), b: () => {} },
            });
            io.y.set(f.is('b'));
          },
        }),
      ),
    ).not.toThrow();
    const missing = caught(machine({ red: (go: (next: string) => void) => go('green') } as never));
    expect(missing.message).toMatch(/no body for state\(s\) green, amber, broken/);
    const unknown = caught(
      machine({
        red: (go) => go('blue' as 'red'),
        green: () => {},
        amber: () => {},
        broken: () => {},
      }),
    );
    expect(unknown.message).toMatch(/no state 'blue'/);
  });
});
