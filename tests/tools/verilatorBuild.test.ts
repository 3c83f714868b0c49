/**
 * The bound on a Verilator build: 15 minutes per step unless GEN_BUILD_TIMEOUT_MS sets another
 * (a design that needs longer, or a test of the bound itself), a malformed value a one-line
 * UserError, and a build over its bound killed and reported as a timeout with nothing cached.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../common/errors.ts';
import { BUILD_TIMEOUT_ENV, buildTimeout, buildVerilator } from '../../tools/verilator.ts';
import { hasTool } from '../../tools/toolchain.ts';

const saved = process.env[BUILD_TIMEOUT_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[BUILD_TIMEOUT_ENV];
  else process.env[BUILD_TIMEOUT_ENV] = saved;
});

describe('Verilator build bound', () => {
  it('is 15 minutes, or the whole milliseconds GEN_BUILD_TIMEOUT_MS gives', () => {
    delete process.env[BUILD_TIMEOUT_ENV];
    expect(buildTimeout()).toBe(15 * 60_000);
    process.env[BUILD_TIMEOUT_ENV] = '2500';
    expect(buildTimeout()).toBe(2500);
    for (const bad of ['0', '-5', '1.5', '10s', '9'.repeat(30)]) {
      process.env[BUILD_TIMEOUT_ENV] = bad;
      expect(() => buildTimeout()).toThrow(UserError);
    }
  });

  it.skipIf(!hasTool('verilator'))(
    'a build over its bound fails as a timeout and caches nothing',
    async () => {
      const cacheRoot = mkdtempSync(join(tmpdir(), 'gen-build-bound-'));
      try {
        process.env[BUILD_TIMEOUT_ENV] = '1';
        const verilog = 'module Bound(input clk, output reg q); always @(posedge clk) q <= ~q; endmodule\n';
        const harness = 'int main() { return 0; }\n';
        await expect(
          buildVerilator(new Map([['Bound.v', verilog]]), { top: 'Bound', source: harness }, { cacheRoot }),
        ).rejects.toThrow(/timed out/);
        expect(readdirSync(cacheRoot).filter((name) => !name.startsWith('.'))).toEqual([]);
      } finally {
        rmSync(cacheRoot, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
