import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGen, expectCleanFailure } from '../support/cli.ts';

const scratch = mkdtempSync(join(tmpdir(), 'gen-sim-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
};

describe('gen sim', () => {
  it('runs a sequential top cycle by cycle, checks expectations, writes outputs and a VCD', async () => {
    const vectors = file(
      'counter.jsonl',
      [
        '{"in":{"reset":"1","enable":1}}',
        '{"in":{"reset":"0"}}',
        '{"in":{}}',
        '{"in":{},"expect":{"count":"0x2"}}',
      ].join('\n'),
    );
    const out = join(scratch, 'counter-out.jsonl');
    const vcd = join(scratch, 'counter.vcd');
    const run = await runGen(['sim', '--top', 'Counter', '--vectors', vectors, '--out', out, '--vcd', vcd]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).out.count),
    ).toEqual(['0x0', '0x0', '0x1', '0x2']);
    expect(readFileSync(vcd, 'utf8')).toMatch(/\$scope module Counter \$end/);
  });

  it('steps several clocks by --timing: a stalled consumer leaves the two-clock FIFO full', async () => {
    const vectors = file(
      'twoClock.jsonl',
      [
        '{"in":{"rst_prod":1,"rst_cons":1}}',
        '{"in":{"rst_prod":0,"rst_cons":0,"produce":1,"consume":1}}',
        ...Array.from({ length: 10 }, () => '{"in":{}}'),
      ].join('\n'),
    );
    const run = await runGen([
      'sim',
      '--top',
      'TwoClockFifo',
      '--vectors',
      vectors,
      '--timing',
      'clk_prod=10',
      '--timing',
      'clk_cons=1000',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const last = JSON.parse(run.stdout.trim().split('\n').pop()!).out;
    expect([last.sent, last.received, last.head_valid]).toEqual(['0x4', '0x0', '0x0']);
    const bad = await runGen(['sim', '--top', 'TwoClockFifo', '--vectors', vectors, '--timing', 'clk_x=10']);
    expect(expectCleanFailure(bad)).toMatch(/no clock 'clk_x' to time \(the design's clocks: clk_prod, clk_cons\)/);
  });

  it('maps combinational inputs to outputs for any width', async () => {
    const vectors = file('pop.jsonl', '{"in":{"value":"0xffffffffffffffff"}}\n{"in":{"value":"5"}}\n');
    const run = await runGen(['sim', '--top', 'Popcount', '--vectors', vectors]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).out.count),
    ).toEqual(['0x40', '0x2']);
  });

  it('fails on a mismatch with the cycle, signal, expected and actual values', async () => {
    const vectors = file('wrong.jsonl', '{"in":{"value":"3"},"expect":{"count":"0x3"}}\n');
    const line = expectCleanFailure(await runGen(['sim', '--top', 'Popcount', '--vectors', vectors]));
    expect(line).toMatch(/cycle 0 .*wrong\.jsonl:1\): count expected 0x3, got 0x2/);
  });

  it('--init random prints its seed first; the seed repeats the run; printf lines go to stderr or --prints', async () => {
    const core = JSON.stringify(new URL('../../hw/core/index.ts', import.meta.url).pathname);
    const design = file(
      'unreset.mts',
      `import { defineModule, input, output } from ${core};
export const Unreset = defineModule({ name: 'Unreset', defaults: {}, ports: () => ({ a: input(8), y: output(8) }),
  build(m, io) { const total = m.reg('total', 8); total.set(total.add(io.a)); io.y.set(total); m.printf(m.lit(1, 1), 'total=%0d', total); } });
`,
    );
    const vectors = file('unreset.jsonl', '{"in":{"reset":1,"a":0}}\n{"in":{"reset":0,"a":1}}\n{"in":{}}\n');
    const sim = (...extra: string[]) =>
      runGen(['sim', '--design', design, '--top', 'Unreset', '--vectors', vectors, ...extra]);
    const fresh = await sim('--init', 'random');
    expect(fresh.exitCode, fresh.stderr).toBe(0);
    const [seedLine, ...printed] = fresh.stderr.trim().split('\n');
    const seed = /^initial state: random:(\d+) \(repeat with --init random:\1\)$/.exec(seedLine!)?.[1];
    expect(seed).toBeDefined();
    expect(printed).toHaveLength(2);
    const [first, second] = printed.map((line) => Number(/^\[\d\] total=(\d+)$/.exec(line)![1]));
    expect(second).toBe((first! + 1) % 256);
    const prints = join(scratch, 'prints.txt');
    const repeated = await sim('--init', `random:${seed}`, '--prints', prints);
    expect(repeated.exitCode, repeated.stderr).toBe(0);
    expect(repeated.stderr).toBe('');
    expect(readFileSync(prints, 'utf8')).toBe(`${printed.join('\n')}\n`);
  });

  const misuse: [string, () => string[], RegExp][] = [
    ['unknown top', () => ['sim', '--top', 'Nope', '--vectors', file('a.jsonl', '')], /unknown top 'Nope'/],
    [
      'malformed vector file',
      () => ['sim', '--top', 'Popcount', '--vectors', file('bad.jsonl', '{"in":{"value":"1"}}\n{not json\n')],
      /bad\.jsonl:2: not valid JSON/,
    ],
    [
      'unknown signal',
      () => ['sim', '--top', 'Popcount', '--vectors', file('sig.jsonl', '{"in":{"valeu":"1"}}\n')],
      /sig\.jsonl:1: unknown input 'valeu'/,
    ],
    [
      'value too wide',
      () => ['sim', '--top', 'Counter', '--vectors', file('wide.jsonl', '{"in":{"enable":"2"}}\n')],
      /does not fit in 1 bits/,
    ],
    [
      'missing vector file',
      () => ['sim', '--top', 'Counter', '--vectors', join(scratch, 'absent.jsonl')],
      /cannot read .*absent\.jsonl: ENOENT/,
    ],
    [
      'unwritable output directory',
      () => [
        'sim',
        '--top',
        'Popcount',
        '--vectors',
        file('ok.jsonl', '{"in":{"value":"1"}}\n'),
        '--out',
        join(file('plain-file', ''), 'out.jsonl'),
      ],
      /cannot (create directory|create folder|write)/,
    ],
    [
      'bad parameter',
      () => ['sim', '--top', 'Counter', '--param', 'width=eight', '--vectors', file('b.jsonl', '')],
      /needs a whole number/,
    ],
    [
      'unknown option',
      () => ['sim', '--top', 'Counter', '--vectors', file('c.jsonl', ''), '--vectorz', 'x'],
      /Unknown argument/,
    ],
  ];
  it.each(misuse)('%s: one clear line, non-zero exit, no partial output', async (_name, args, message) => {
    const before = new Set(readdirSync(scratch));
    expect(expectCleanFailure(await runGen(args()))).toMatch(message);
    const created = readdirSync(scratch).filter(
      (entry) => !before.has(entry) && !/^[a-z]+\.jsonl$/.test(entry) && entry !== 'plain-file',
    );
    expect(created).toEqual([]);
    expect(existsSync(join(scratch, 'out.jsonl'))).toBe(false);
  });
});
