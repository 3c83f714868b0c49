import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FileFormatError, UserError } from '../../common/errors.ts';
import { findSignal, valueAt, valueBefore } from '../../waves/sampling.ts';
import { parseVcd, readVcdFile, streamVcdFile } from '../../waves/vcdReader.ts';
import { bitsToBigInt } from '../../waves/vcdValues.ts';

const directory = mkdtempSync(join(tmpdir(), 'vcd-reader-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Exercises what the three writers we meet produce, and the corners of IEEE 1364 §18. */
const VALID = `$date Mon Jan  1 00:00:00 2026 $end
$version Some Tool 1.0 $end
$comment multi
  line $var not a real command $end
$timescale 100 us $end
$scope module top $end
$var wire 1 ! clk $end
$var reg 8 " bus [7:0] $end
$var real 64 # temperature $end
$var integer 32 $ count [31:0] $end
$var parameter 4 % P [3:0] $end
$scope begin blk $end
$var logic 3 & mixed[2:0] $end
$upscope $end
$scope task t $end
$var wire 1 ! clk_alias $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
$dumpvars
0!
bx "
r0.5 #
b101 $
b1010 %
bz &
$end
#10
1!
b1 "
r-1.25e3 #
#20
0!
bX01 &
$dumpoff
x!
bx "
$end
#30
$dumpon
1!
b11110000 "
$end
#40
0!
1!
#50
b0 $
0!
0!
#60
`;

function expectFormatError(text: string, line: number, detail: RegExp): void {
  try {
    parseVcd(text, 'bad.vcd');
  } catch (error) {
    expect(error).toBeInstanceOf(FileFormatError);
    expect((error as FileFormatError).position?.line).toBe(line);
    expect((error as Error).message).toMatch(detail);
    expect((error as Error).message.startsWith(`bad.vcd:${line}: `)).toBe(true);
    return;
  }
  throw new Error('expected a FileFormatError');
}

describe('VCD reader', () => {
  const trace = parseVcd(VALID, 'valid.vcd');
  const signal = (name: string) => findSignal(trace, name);

  it('reads the header: timescale, version, scopes of any kind, var types, ranges, aliases', () => {
    expect(trace.timescale).toEqual({ magnitude: 100, unit: 'us', femtoseconds: 1e11, text: '100us' });
    expect(trace.version).toBe('Some Tool 1.0');
    expect(trace.signals.map((s) => [s.fullName, s.width, s.type, s.kind])).toEqual([
      ['top.clk', 1, 'wire', 'bits'],
      ['top.bus', 8, 'reg', 'bits'],
      ['top.temperature', 64, 'real', 'real'],
      ['top.count', 32, 'integer', 'bits'],
      ['top.P', 4, 'parameter', 'bits'],
      ['top.blk.mixed[2:0]', 3, 'logic', 'bits'],
      ['top.t.clk_alias', 1, 'wire', 'bits'],
    ]);
    expect(signal('top.t.clk_alias').id).toBe(signal('top.clk').id);
    expect(trace.endTime).toBe(60);
  });

  it('keeps x/z, left-extends vectors by the IEEE rule, and keeps reals as text', () => {
    expect(valueAt(trace, signal('top.bus'), 0)).toBe('xxxxxxxx');
    expect(valueAt(trace, signal('top.bus'), 10)).toBe('00000001');
    expect(valueAt(trace, signal('top.count'), 0)).toBe('101'.padStart(32, '0'));
    expect(valueAt(trace, signal('top.blk.mixed[2:0]'), 0)).toBe('zzz');
    expect(valueAt(trace, signal('top.blk.mixed[2:0]'), 20)).toBe('x01');
    expect(valueAt(trace, signal('top.temperature'), 15)).toBe('-1.25e3');
    expect(bitsToBigInt(valueAt(trace, signal('top.P'), 60))).toBe(10n);
    expect(bitsToBigInt('x1')).toBeUndefined();
  });

  it('reads $dumpoff as x and $dumpon as the values it lists', () => {
    expect(valueAt(trace, signal('top.clk'), 25)).toBe('x');
    expect(valueAt(trace, signal('top.bus'), 25)).toBe('xxxxxxxx');
    expect(valueAt(trace, signal('top.bus'), 30)).toBe('11110000');
  });

  it('keeps the settled value of a time step, and records only real changes', () => {
    const changes = trace.changes.get(signal('top.clk').id)!;
    // #40 has 0 then 1 (settles at 1, no change from #30); #50 has 0 twice
    expect(changes.times).toEqual([0, 10, 20, 30, 50]);
    expect(changes.values).toEqual(['0', '1', 'x', '1', '0']);
    expect(valueBefore(trace, signal('top.clk'), 50)).toBe('1');
    expect(valueAt(trace, signal('top.clk'), 50)).toBe('0');
  });

  it('reads a file and keeps only the selected signals when asked', () => {
    const path = join(directory, 'valid.vcd');
    writeFileSync(path, VALID.replaceAll('\n', '\r\n'));
    const partial = readVcdFile(path, { keep: (s) => s.name === 'bus' });
    expect(partial.signals).toHaveLength(7);
    expect([...partial.changes.keys()]).toEqual([signal('top.bus').id]);
    expect(valueAt(partial, findSignal(partial, 'top.bus'), 30)).toBe('11110000');
    expect(() => readVcdFile(join(directory, 'missing.vcd'))).toThrow(UserError);
    expect(() => readVcdFile(directory)).toThrow(/cannot read .*: a folder, not a regular file/);
  });

  it('streams a file: the header, then every time and change of the kept signals, as readVcdFile reads them', () => {
    const path = join(directory, 'streamed.vcd');
    writeFileSync(path, VALID);
    const kept = (s: { name: string }): boolean => s.name === 'bus' || s.name === 'clk';
    const whole = readVcdFile(path, { keep: kept });
    const events: string[] = [];
    const end = streamVcdFile(
      path,
      {
        header: (signals) => events.push(`header ${signals.length}`),
        time: (time) => events.push(`#${time}`),
        change: (id, value) => events.push(`${id}=${value}`),
      },
      { keep: kept },
    );
    expect(end).toBe(whole.endTime);
    expect(events[0]).toBe(`header ${whole.signals.length}`);
    // Every change readVcdFile kept is streamed at its time (the stream also has the undone ones).
    for (const [id, { times, values }] of whole.changes)
      times.forEach((time, index) => {
        const at = events.indexOf(`#${time}`);
        const next = events.findIndex((event, position) => position > at && event.startsWith('#'));
        expect(events.slice(time === 0 ? 1 : at, next < 0 ? undefined : next)).toContain(`${id}=${values[index]}`);
      });
    expect(
      events.filter((event) => !/^(#|header )/.test(event)).every((event) => whole.changes.has(event.split('=')[0]!)),
    ).toBe(true);
    writeFileSync(path, VALID.slice(0, VALID.indexOf('$enddefinitions')));
    expect(() => streamVcdFile(path, { header: () => {}, time: () => {}, change: () => {} })).toThrow(FileFormatError);
  });

  it.each([
    ['1 s', 1e15],
    ['10ms', 1e13],
    ['100 us', 1e11],
    ['1ns', 1e6],
    ['10 ps', 1e4],
    ['100fs', 100],
    ['1 fs', 1],
  ])('normalizes timescale %s', (text, femtoseconds) => {
    expect(parseVcd(`$timescale ${text} $end $enddefinitions $end`).timescale.femtoseconds).toBe(femtoseconds);
  });

  const HEAD = '$timescale 1ns $end\n$scope module m $end\n$var wire 4 ! v $end\n$upscope $end\n$enddefinitions $end\n';
  it.each([
    ['a truncated header', '$timescale 1ns $end\n$scope module m $end\n$var wire 4 ! v', 3, /\$var has no \$end/],
    ['an empty file', '', 1, /empty file/],
    ['a header without $enddefinitions', '$timescale 1ns $end\n$scope module m $end\n', 2, /truncated header/],
    ['an unknown id code', `${HEAD}#0\nb1 !\n1?\n`, 8, /unknown id code '\?'/],
    ['a zero width', '$scope module m $end\n$var wire 0 ! v $end\n', 2, /bad width '0'/],
    ['a non-numeric width', '$scope module m $end\n$var wire 4x ! v $end\n', 2, /bad width '4x'/],
    ['a value wider than its signal', `${HEAD}#0\nb10101 !\n`, 7, /5 bits for a 4-bit signal/],
    [
      'an alias with another width',
      '$scope module m $end\n$var wire 4 ! v $end\n$var wire 5 ! w $end\n',
      3,
      /different width/,
    ],
    ['garbage in the header', '$timescale 1ns $end\nhello\n', 2, /unexpected 'hello'/],
    ['garbage in the body', `${HEAD}#0\nq!\n`, 7, /unexpected 'q!'/],
    ['a bad timescale', '$timescale 3 ns $end\n', 1, /bad \$timescale/],
    ['a vector value without an id code', `${HEAD}#0\nb101`, 7, /truncated value change/],
    ['time going backwards', `${HEAD}#5\n#4\n`, 7, /time goes backwards/],
    ['a bad time', `${HEAD}#1e3\n`, 6, /bad time/],
    ['an unbalanced $upscope', '$upscope $end\n', 1, /without an open \$scope/],
    ['an unclosed scope', '$scope module m $end\n$enddefinitions $end\n', 2, /inside \$scope m/],
    ['an unknown var type', '$scope module m $end\n$var bogus 1 ! v $end\n', 2, /unknown \$var type/],
    ['an unknown command', '$bogus $end\n', 1, /unknown header command/],
    ['a real value for a bit signal', `${HEAD}#0\nr1.5 !\n`, 7, /real value for bits signal/],
    [
      'a missing $end before the next command',
      '$scope module m\n$var wire 1 ! v $end\n',
      2,
      /has no \$end before \$var/,
    ],
  ])('rejects %s with the line number', (_, text, line, detail) => expectFormatError(text, line, detail));

  it('rejects a header command without $end before it reads far', () => {
    const started = performance.now();
    expect(() => parseVcd(`$comment ${'word '.repeat(100_000)}`)).toThrow(/longer than 65536 characters/);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('either parses or throws FileFormatError on byte-level mutations of a valid VCD, quickly', () => {
    const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2 ** 31);
    console.log(`vcd mutation fuzz: FC_SEED=${seed} npx vitest run tests/waves/vcdReader.test.ts`);
    const bytes = Buffer.from(VALID, 'latin1');
    const mutation = fc.array(
      fc.oneof(
        fc.record({
          kind: fc.constant('flip' as const),
          at: fc.nat(bytes.length - 1),
          byte: fc.integer({ min: 0, max: 255 }),
        }),
        fc.record({
          kind: fc.constant('delete' as const),
          at: fc.nat(bytes.length - 1),
          length: fc.integer({ min: 1, max: 20 }),
        }),
        fc.record({ kind: fc.constant('truncate' as const), at: fc.nat(bytes.length - 1) }),
        fc.record({
          kind: fc.constant('insert' as const),
          at: fc.nat(bytes.length - 1),
          text: fc.constantFrom('$end', '$var', '#', 'b', ' ', '\n', '$scope', '!', '99999999999999999999'),
        }),
      ),
      { minLength: 1, maxLength: 4 },
    );
    fc.assert(
      fc.property(mutation, (mutations) => {
        let mutated = Buffer.from(bytes);
        for (const step of mutations) {
          const at = Math.min(step.at, Math.max(0, mutated.length - 1));
          if (step.kind === 'flip') mutated[at] = step.byte;
          else if (step.kind === 'delete')
            mutated = Buffer.concat([mutated.subarray(0, at), mutated.subarray(at + step.length)]);
          else if (step.kind === 'truncate') mutated = mutated.subarray(0, at);
          else mutated = Buffer.concat([mutated.subarray(0, at), Buffer.from(step.text), mutated.subarray(at)]);
        }
        const started = performance.now();
        try {
          const parsed = parseVcd(mutated.toString('latin1'), 'mutated.vcd');
          for (const s of parsed.signals) valueAt(parsed, s, parsed.endTime);
        } catch (error) {
          if (!(error instanceof FileFormatError)) throw error;
          expect(error.message).toMatch(/^mutated\.vcd:\d+: /);
        }
        expect(performance.now() - started).toBeLessThan(500);
      }),
      { seed, numRuns: 300 },
    );
  });
});
