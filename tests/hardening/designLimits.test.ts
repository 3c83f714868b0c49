import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectCleanFailure } from '../support/cli.ts';
import { measuredGen } from './support/measured.ts';
import { MAX_WIDTH, defineModule, input, output } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';

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
