/**
 * Memories: write masks (bit and lane), initial contents (words, hex files), ROMs, read-during-write
 * of registered reads, any depth. The errors name the user's line (or the hex file's line); the
 * emitted Verilog is lint clean and stays a memory in Yosys; a randomized test holds masked
 * writes and read-during-write on all three engines to a tiny TypeScript model.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defineModule,
  input,
  output,
  HdlError,
  type IoOf,
  type ModuleBuilder,
  type PortSpec,
  type ReadDuringWrite,
} from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { printDesign } from '../../../hw/ir/print.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { Simulator } from '../../../hw/sim/simulator.ts';
import { createEngine } from '../../../engines/index.ts';
import type { Engine, PortValues } from '../../../hw/contract/engine.ts';
import { runLockstep } from '../../../engines/lockstep.ts';
import { checkWithYosys, lintWithVerilator } from '../../../tools/lint.ts';
import { runYosysScript } from '../../../tools/yosys.ts';
import { RegisterFile } from '../../../hw/examples/registerFile.ts';
import { MaskedRamRom } from '../../../hw/examples/maskedRamRom.ts';
import { fastCheckSeed } from '../../support/seed.ts';
import { MAX_MEMORY_DEPTH } from '../../../api/index.ts';

/** The HdlError a build throws, or undefined. */
function buildError(build: () => void): HdlError | undefined {
  try {
    build();
  } catch (error) {
    if (error instanceof HdlError) return error;
    throw error;
  }
  return undefined;
}

const probePorts = (): { a: PortSpec; y: PortSpec } => ({ a: input(2), y: output(8) });

/** A one-module design around `body`, elaborated (errors surface from here). */
function elaborateBody(body: (m: ModuleBuilder, io: IoOf<ReturnType<typeof probePorts>>) => void): void {
  elaborate(defineModule({ name: 'MemoryProbe', defaults: {}, ports: probePorts, build: (m, io) => body(m, io) }));
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const hexFile = (text: string): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'gen-mem-')), 'words.hex');
  writeFileSync(path, text);
  return path;
};

describe('memory declarations and their errors', () => {
  it('a write to a ROM is refused at the write line, naming the ROM and its declaration', () => {
    const error = buildError(() =>
      elaborateBody((m, io) => {
        const rom = m.rom('table', { width: 8, init: [1, 2, 3] });
        io.y.set(rom.read(io.a));
        rom.write(io.a, 0); // the line the error names
      }),
    );
    expect(error?.message).toMatch(/^tests\/hw\/core\/memory\.test\.ts:\d+: 'table' is a ROM \(declared at line \d+\)/);
    // The write's line, two below the declaration's.
    const declared = Number(/declared at line (\d+)/.exec(error!.message)![1]);
    expect(error!.location.line).toBe(declared + 2);
    expect(error!.message).not.toContain('\n');
  });

  it('a hex file: a bad word, a word too wide and one word too many are errors at the file line', () => {
    const bad = hexFile('01\n// comment\n\n0g\n');
    expect(
      buildError(() => elaborateBody((m, io) => io.y.set(m.rom('t', { width: 8, depth: 4, init: bad }).read(io.a))))
        ?.message,
    ).toMatch(
      new RegExp(
        `^${escape(bad)}:4: '0g' is not a hex word \\(init file of memory 't' at line \\d+; one or more hex words per line, // comments\\)$`,
      ),
    );
    const wide = hexFile('ff 1ff\n');
    expect(
      buildError(() => elaborateBody((m, io) => io.y.set(m.rom('t', { width: 8, depth: 4, init: wide }).read(io.a))))
        ?.message,
    ).toBe(`${wide}:1: word 1ff does not fit memory 't' (8-bit words)`);
    const many = hexFile('1\n2\n3\n4\n5\n');
    expect(
      buildError(() => elaborateBody((m, io) => io.y.set(m.rom('t', { width: 8, depth: 4, init: many }).read(io.a))))
        ?.message,
    ).toBe(`${many}:5: word 4 is past the last word of memory 't' (depth 4)`);
    const missing = join(tmpdir(), 'gen-no-such-file.hex');
    expect(
      buildError(() => elaborateBody((m, io) => io.y.set(m.rom('t', { width: 8, depth: 4, init: missing }).read(io.a))))
        ?.message,
    ).toMatch(
      /^tests\/hw\/core\/memory\.test\.ts:\d+: memory 't': cannot read its init file .*gen-no-such-file\.hex \(ENOENT\)$/,
    );
  });

  it('refuses bad shapes at the declaration: depth, granularity, init words, read-during-write, mask width', () => {
    const cases: [string, (m: ModuleBuilder) => void, RegExp][] = [
      [
        'depth 0',
        (m) => m.memory('x', { depth: 0, width: 8 }),
        /memory depth 0 must be a whole number from 1 to 2\^20/,
      ],
      ['depth 2.5', (m) => m.memory('x', { depth: 2.5, width: 8 }), /memory depth 2\.5/],
      [
        'depth past the limit',
        (m) => m.memory('x', { depth: MAX_MEMORY_DEPTH + 1, width: 8 }),
        /memory depth 1048577 must be a whole number from 1 to 2\^20/,
      ],
      [
        'granularity',
        (m) => m.memory('x', { depth: 4, width: 8, granularity: 3 }),
        /granularity 3 must be a whole number dividing the width 8/,
      ],
      [
        'init too long',
        (m) => m.memory('x', { depth: 2, width: 8, init: [1, 2, 3] }),
        /init has 3 words, the depth is 2/,
      ],
      [
        'init too wide',
        (m) => m.memory('x', { depth: 2, width: 8, init: [1, 256] }),
        /init word 1 \(256\) does not fit in 8 bits/,
      ],
      [
        'undefined read-during-write',
        (m) => m.memory('x', { depth: 4, width: 8, readDuringWrite: 'undefined' as ReadDuringWrite }),
        /read-during-write 'undefined' is not supported: choose 'read-first' \(old data\) or 'write-first' \(new data\)/,
      ],
      [
        'mask width',
        (m) => {
          const memory = m.memory('x', { depth: 4, width: 16, granularity: 8 });
          memory.write(m.lit(0, 2), 0, 1, m.lit(0, 3));
        },
        /memory 'x' takes a 2-bit write mask \(one bit per 8 bits\), got 3 bits/,
      ],
    ];
    for (const [label, make, pattern] of cases) {
      const error = buildError(() =>
        elaborateBody((m, io) => {
          make(m);
          io.y.set(m.lit(0, 8));
        }),
      );
      expect([label, error?.message]).toEqual([label, expect.stringMatching(pattern)]);
      expect(error!.message).toMatch(/^tests\/hw\/core\/memory\.test\.ts:\d+: /);
    }
  });

  it('any depth: a 3-word memory takes 2-bit addresses; a ROM without depth is as deep as its words', () => {
    const design = elaborate(
      defineModule({
        name: 'Depth3',
        defaults: {},
        ports: () => ({ a: input(2), y: output(8), z: output(4) }),
        build(m, io) {
          const ram = m.memory('ram', { depth: 3, width: 8, init: [7, 8, 9] });
          io.y.set(ram.read(io.a));
          io.z.set(m.rom('rom', { width: 4, init: [1, 2, 3] }).read(io.a));
        },
      }),
    );
    const sim = new Simulator(design);
    const reads = [0, 1, 2, 3].map((a) => {
      sim.poke('a', a);
      return [sim.peek('y'), sim.peek('z')];
    });
    // Initialized memories start at their contents; address 3 is past the last word: 0.
    expect(reads).toEqual([
      [7n, 1n],
      [8n, 2n],
      [9n, 3n],
      [0n, 0n],
    ]);
    expect(printDesign(design)).toMatch(/memory rom: 3 x 4 init=0x1,0x2,0x3/);
  });
});

describe('memories without the new features keep their Verilog', () => {
  it('RegisterFile: no initial block, no address guard, no lane writes', () => {
    const verilog = emitVerilog(elaborate(RegisterFile)).get('RegisterFile.v')!;
    expect(verilog).not.toMatch(/initial|<\s*\d+'d|\]\[/);
    expect(verilog).toContain('if (write_enable) registers[write_address] <= write_data;');
  });
});

describe('the MaskedRamRom example in Verilog', () => {
  const design = elaborate(MaskedRamRom);
  const files = emitVerilog(design);

  it('initial contents inline, out-of-range reads guarded, one assignment per byte lane', () => {
    const verilog = files.get('MaskedRamRom.v')!;
    expect(verilog).toContain("ram[1] = 32'd3735928559;");
    expect(verilog).toContain("rom[19] = 16'd3364;");
    expect(verilog).toContain("(read_address < 7'd100 ? ram[read_address] : 32'd0)");
    expect(verilog).toContain('if (write_mask[3]) ram[write_address][31:24] <= write_data[31:24];');
  });

  it('is Verilator -Wall and Yosys check -assert clean, and its RAM and ROM stay memories in Yosys', async () => {
    expect(await lintWithVerilator(files, design.top)).toEqual([]);
    expect(await checkWithYosys(files, design.top, { system: true })).toEqual([]);
    const { log } = await runYosysScript(
      `read_verilog -sv MaskedRamRom.v\nhierarchy -check -top MaskedRamRom\nproc\nopt_clean\nmemory -nomap\nopt\nstat\n`,
      { 'MaskedRamRom.v': files.get('MaskedRamRom.v')! },
      [],
      'system',
    );
    // memory_collect makes each array one $mem_v2 (the byte lanes merged into one write port), not flip-flops.
    expect(log).toMatch(/\$mem_v2\s+2\b/);
    expect(log).not.toMatch(/\$dff\s+(?:[3-9]|\d\d)/);
  }, 120_000);
});

/** One cycle's inputs of the randomized probe design. */
interface ProbeCycle {
  readonly we: [boolean, boolean];
  readonly wa: [number, number];
  readonly wd: [number, number];
  readonly wm: [number, number];
  readonly ra: number;
  readonly bwe: boolean;
  readonly ba: number;
  readonly bd: number;
  readonly bm: number;
}

const DEPTH = 5;
const WIDTH = 12;
const LANE = 4;
const B_DEPTH = 3;
const B_WIDTH = 5;

/**
 * Two memories: `lanes` (5 words of 12 bits, 4-bit lanes, two masked write ports, a later port
 * winning, initial words) with a combinational, a read-first and a write-first registered read;
 * `bits` (3 words of 5 bits, a bit mask) with a write-first read. Addresses reach past the end.
 */
const Probe = defineModule({
  name: 'MemoryProbe',
  defaults: {},
  ports: () => ({
    we0: input(1),
    wa0: input(3),
    wd0: input(WIDTH),
    wm0: input(WIDTH / LANE),
    we1: input(1),
    wa1: input(3),
    wd1: input(WIDTH),
    wm1: input(WIDTH / LANE),
    ra: input(3),
    bwe: input(1),
    ba: input(2),
    bd: input(B_WIDTH),
    bm: input(B_WIDTH),
    comb: output(WIDTH),
    old: output(WIDTH),
    new: output(WIDTH),
    bnew: output(B_WIDTH),
  }),
  build(m, io) {
    const lanes = m.memory('lanes', { depth: DEPTH, width: WIDTH, granularity: LANE, init: [0xabc, 0x123] });
    m.when(io.we0, () => lanes.write(io.wa0, io.wd0, 1, io.wm0));
    lanes.write(io.wa1, io.wd1, io.we1, io.wm1);
    io.comb.set(lanes.read(io.ra));
    io.old.set(lanes.readSync(io.ra));
    io.new.set(lanes.readSync(io.ra, { readDuringWrite: 'write-first' }));
    const bits = m.memory('bits', { depth: B_DEPTH, width: B_WIDTH, readDuringWrite: 'write-first' });
    bits.write(io.ba, io.bd, io.bwe, io.bm);
    io.bnew.set(bits.readSync(io.ba));
  },
});

/** The tiny reference: arrays, the step contract written out. */
function probeModel(cycles: readonly ProbeCycle[]): PortValues[] {
  const lanes = [0xabc, 0x123, 0, 0, 0];
  const bits = [0, 0, 0];
  let old = 0;
  let fresh = 0;
  let bfresh = 0;
  const laneBits = (mask: number): number =>
    [0, 1, 2].reduce((all, lane) => (((mask >> lane) & 1) === 1 ? all | (0xf << (LANE * lane)) : all), 0);
  return cycles.map((cycle) => {
    const out: PortValues = {
      comb: BigInt(lanes[cycle.ra] ?? 0),
      old: BigInt(old),
      new: BigInt(fresh),
      bnew: BigInt(bfresh),
    };
    old = lanes[cycle.ra] ?? 0;
    for (const port of [0, 1] as const)
      if (cycle.we[port] && cycle.wa[port] < DEPTH) {
        const keep = laneBits(cycle.wm[port]);
        lanes[cycle.wa[port]] = (lanes[cycle.wa[port]]! & ~keep) | (cycle.wd[port] & keep);
      }
    fresh = lanes[cycle.ra] ?? 0;
    if (cycle.bwe && cycle.ba < B_DEPTH) bits[cycle.ba] = (bits[cycle.ba]! & ~cycle.bm) | (cycle.bd & cycle.bm);
    bfresh = bits[cycle.ba] ?? 0;
    return out;
  });
}

const small = (max: number): fc.Arbitrary<number> =>
  fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 1 }), weight: 3 },
    { arbitrary: fc.integer({ min: 0, max }), weight: 2 },
  );

const cycleArbitrary: fc.Arbitrary<ProbeCycle> = fc.record({
  we: fc.tuple(fc.boolean(), fc.boolean()),
  wa: fc.tuple(small(7), small(7)),
  wd: fc.tuple(fc.integer({ min: 0, max: 0xfff }), fc.integer({ min: 0, max: 0xfff })),
  wm: fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 7 })),
  ra: small(7),
  bwe: fc.boolean(),
  ba: small(3),
  bd: fc.integer({ min: 0, max: 31 }),
  bm: fc.integer({ min: 0, max: 31 }),
});

const stimulusOf = (cycles: readonly ProbeCycle[]): PortValues[] =>
  cycles.map((cycle) => ({
    reset: 0n,
    we0: BigInt(cycle.we[0]),
    wa0: BigInt(cycle.wa[0]),
    wd0: BigInt(cycle.wd[0]),
    wm0: BigInt(cycle.wm[0]),
    we1: BigInt(cycle.we[1]),
    wa1: BigInt(cycle.wa[1]),
    wd1: BigInt(cycle.wd[1]),
    wm1: BigInt(cycle.wm[1]),
    ra: BigInt(cycle.ra),
    bwe: BigInt(cycle.bwe),
    ba: BigInt(cycle.ba),
    bd: BigInt(cycle.bd),
    bm: BigInt(cycle.bm),
  }));

describe('masked writes and read-during-write, randomized, on every engine', () => {
  it('ts, Icarus and Verilator agree with each other and with the array model', async () => {
    const design = elaborate(Probe);
    const engines: Engine[] = await Promise.all(
      (['ts', 'icarus', 'verilator'] as const).map((name) => createEngine(name)),
    );
    const seed = fastCheckSeed('memory masks and read-during-write');
    await fc.assert(
      fc.asyncProperty(fc.array(cycleArbitrary, { minLength: 1, maxLength: 30 }), async (cycles) => {
        const result = await runLockstep(engines, design, stimulusOf(cycles));
        expect(result.difference).toBeUndefined();
        const expected = probeModel(cycles);
        expect(
          result.runs['ts']!.outputs.map((row) => ({
            comb: row['comb'],
            old: row['old'],
            new: row['new'],
            bnew: row['bnew'],
          })),
        ).toEqual(expected);
      }),
      { seed, numRuns: 12 },
    );
  }, 300_000);
});
