import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectCleanFailure, runGen } from '../support/cli.ts';
import { measuredGen } from './support/measured.ts';
import { CORE_IMPORT, designFolder } from './support/designFolder.ts';
import { MAX_WIDTH, defineModule, input, output } from '../../hw/core/index.ts';
import { MAX_HIERARCHY_DEPTH, elaborate } from '../../hw/ir/elaborate.ts';

/*
 * Port widths are checked where a port is declared, before the module body is built: before,
 * `gen verilog --top Popcount --param width=1000000` ran past 60 s and 2.6 GB building a
 * million-bit adder tree, and width=65537 was accepted although 65,536 is the documented limit.
 */

const dir = mkdtempSync(join(tmpdir(), 'hardening-design-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('port width limit', () => {
  for (const width of [1_000_000, MAX_WIDTH + 1]) {
    it(`gen verilog --top Popcount --param width=${width} is refused at the port's line within 20 s and 400 MiB`, async () => {
      const out = join(dir, `popcount-${width}`);
      const run = await measuredGen(['verilog', '--top', 'Popcount', '--param', `width=${width}`, '--out', out]);
      expect(expectCleanFailure(run)).toMatch(
        new RegExp(`popcount\\.ts:\\d+: width ${width} is not a whole number from 1 to ${MAX_WIDTH}`),
      );
      expect(run.milliseconds).toBeLessThan(20_000);
      expect(run.peakMiB).toBeLessThan(400);
      expect(existsSync(out)).toBe(false);
    }, 60_000);
  }

  it('input() and output() refuse a bad width before build() runs', () => {
    let built = false;
    for (const width of [0, MAX_WIDTH + 1, 1.5, Number.NaN]) {
      const Module = defineModule({
        name: 'PortTooWide',
        description: 'refused',
        defaults: {},
        ports: () => ({ a: input(width), y: output(1) }),
        build: (_m, io) => {
          built = true;
          io.y.set(io.a.bit(0));
        },
      });
      expect(() => elaborate(Module)).toThrow(`width ${width} is not a whole number from 1 to ${MAX_WIDTH}`);
    }
    expect(built).toBe(false);
    expect(() => output(MAX_WIDTH)).not.toThrow();
  });
});

/*
 * A generator that instantiates itself 3,000 levels deep overflowed the stack
 * (`RangeError: Maximum call stack size exceeded at userLocation`), as did one that instantiates
 * itself with the same parameters; a design without `defaults` crashed `gen list` with
 * `TypeError: Cannot convert undefined or null to object`.
 */
const designs = designFolder({
  'chain.ts': `import { defineModule, input, output } from ${CORE_IMPORT};
export const Chain = defineModule({
  name: 'Chain',
  defaults: { depth: 3000 },
  ports: () => ({ a: input(1), y: output(1) }),
  build: (m, io, p) => {
    if (p.depth === 0) return io.y.set(io.a);
    const inner = m.instance(Chain, { name: 'inner', params: { depth: p.depth - 1 } });
    inner.a.set(io.a);
    io.y.set(inner.y);
  },
});
export const Forever = defineModule({
  name: 'Forever',
  defaults: {},
  ports: () => ({ a: input(1), y: output(1) }),
  build: (m, io) => {
    const inner = m.instance(Forever, { name: 'inner' });
    inner.a.set(io.a);
    io.y.set(inner.y);
  },
});
`,
  'noDefaults.ts': `import { defineModule, input, output } from ${CORE_IMPORT};
export const NoDefaults = defineModule({
  name: 'NoDefaults',
  ports: () => ({ a: input(1), y: output(1) }),
  build: (_m, io) => io.y.set(io.a),
});
`,
});
afterAll(designs.remove);

describe('hierarchy depth', () => {
  it(`instances nested 3,000 deep: one line at the instance's line naming the limit (${MAX_HIERARCHY_DEPTH}), no stack overflow`, async () => {
    const out = join(designs.root, 'chain-out');
    const run = await runGen(['verilog', '--design', join(designs.root, 'chain.ts'), '--top', 'Chain', '--out', out]);
    expect(expectCleanFailure(run)).toMatch(
      new RegExp(
        `chain\\.ts:8: instances nest deeper than ${MAX_HIERARCHY_DEPTH} levels \\(Chain → Chain_depth_2999 → Chain_depth_2998 → … → Chain_depth_2491 → Chain_depth_2490 → Chain_depth_2489\\); does a generator instantiate itself without reaching its base case\\?$`,
      ),
    );
    expect(run.exitCode).toBe(1);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it(`${MAX_HIERARCHY_DEPTH} levels still elaborate; a module that instantiates itself unchanged is named`, async () => {
    const chain = (await import(join(designs.root, 'chain.ts'))) as Record<string, Parameters<typeof elaborate>[0]>;
    const deepest = elaborate(chain['Chain']!, { depth: MAX_HIERARCHY_DEPTH - 1 });
    expect(deepest.modules).toHaveLength(MAX_HIERARCHY_DEPTH);
    expect(() => elaborate(chain['Forever']!)).toThrow(
      /chain\.ts:\d+: Forever instantiates itself with the same parameters \(Forever → Forever\)$/,
    );
  });
});

describe('a malformed definition', () => {
  it('a design without defaults: one line naming the design file and the field, exit 2', async () => {
    for (const command of [['list'], ['verilog', '--top', 'NoDefaults', '--out', join(designs.root, 'nd')]]) {
      const run = await runGen([...command, '--design', join(designs.root, 'noDefaults.ts')]);
      expect(expectCleanFailure(run)).toMatch(
        /^gen: \S*noDefaults\.ts: cannot load: \S*noDefaults\.ts:2: module NoDefaults needs `defaults`: its parameters and their default values, `\{\}` for none$/,
      );
      expect(run.exitCode).toBe(2);
    }
  }, 60_000);

  it('defineModule names a missing or mistyped ports or build', () => {
    const spec = { name: 'Half', defaults: {}, ports: () => ({ y: output(1) }), build: () => undefined };
    expect(() => defineModule({ ...spec, ports: undefined as never })).toThrow(/module Half needs `ports`/);
    expect(() => defineModule({ ...spec, build: 'x' as never })).toThrow(/module Half needs `build`/);
    expect(() => defineModule({ ...spec, defaults: [] as never })).toThrow(/module Half needs `defaults`/);
  });
});
