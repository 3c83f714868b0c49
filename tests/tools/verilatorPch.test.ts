/**
 * Verilator builds load verilated.h precompiled (tools/verilatorPch.ts). g++ falls back to the
 * header without a word when a precompiled one does not fit, so each compile here runs under a
 * wrapper (verilated.mk's OBJCACHE) that adds `-H`, which lists the header files a compile reads
 * and marks a precompiled header it loads with `!`.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { buildVerilator } from '../../tools/verilator.ts';
import { hasTool } from '../../tools/toolchain.ts';

const scratch = mkdtempSync(join(tmpdir(), 'gen-pch-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
/** One file per compile (make runs them side by side): its command line, then what -H lists. */
const logs = join(scratch, 'compiles');
mkdirSync(logs);
const wrapper = join(scratch, 'listHeaders.sh');
writeFileSync(wrapper, `#!/bin/sh\nlog=$(mktemp -p '${logs}')\necho "$*" > "$log"\n"$@" -H 2>> "$log"\n`);
chmodSync(wrapper, 0o755);

/** Each compile's source file and the precompiled header it loaded (the line -H marks with `!`); the logs then go. */
function compiles(): { source: string; precompiled: string | undefined }[] {
  const seen = readdirSync(logs).map((name) => {
    const entry = readFileSync(join(logs, name), 'utf8');
    return {
      source: /(\S+\.cpp)\s*$/.exec(entry.split('\n')[0]!)![1]!.split('/').pop()!,
      precompiled: /^! (\S+)$/m.exec(entry)?.[1],
    };
  });
  rmSync(logs, { recursive: true });
  mkdirSync(logs);
  return seen;
}

/** A one-port design and a harness that checks it: exit 0 when y follows a. */
function design(top: string): [Map<string, string>, { top: string; source: string }] {
  const verilog = `module ${top}(input a, output y); assign y = ~a; endmodule\n`;
  const source = [
    `#include "V${top}.h"`,
    '#include "verilated.h"',
    'int main() {',
    '  VerilatedContext context;',
    `  V${top} model{&context};`,
    '  model.a = 1;',
    '  model.eval();',
    '  return model.y == 0 ? 0 : 1;',
    '}',
  ].join('\n');
  return [new Map([[`${top}.v`, verilog]]), { top, source }];
}

/** Builds the design under the wrapper and checks that its binary runs right; gives the compiles it made. */
async function build(top: string, cacheRoot: string): Promise<ReturnType<typeof compiles>> {
  process.env['OBJCACHE'] = wrapper;
  try {
    execFileSync((await buildVerilator(...design(top), { cacheRoot })).binary);
  } finally {
    delete process.env['OBJCACHE'];
  }
  return compiles();
}

/** The cache's precompiled headers: entry name → modification time of its completion record. */
const pchEntries = (cacheRoot: string): Record<string, number> => {
  const root = join(cacheRoot, 'pch');
  if (!existsSync(root)) return {};
  const names = readdirSync(root).filter((name) => !name.startsWith('.'));
  return Object.fromEntries(names.map((name) => [name, statSync(join(root, name, '.complete')).mtimeMs]));
};

describe.skipIf(!hasTool('verilator'))('Verilator builds in one cache', () => {
  const cacheRoot = join(scratch, 'cache');

  it("the first compiles everything from the headers, Verilator's runtime included, and makes no precompiled header", async () => {
    const seen = await build('PchFirst', cacheRoot);
    expect(
      seen
        .filter(({ source }) => !source.startsWith('verilated'))
        .map(({ source }) => source)
        .sort(),
    ).toEqual(['VPchFirst__ALL.cpp', 'harness.cpp']);
    expect(seen.some(({ source }) => source.startsWith('verilated'))).toBe(true);
    for (const { source, precompiled } of seen) expect(precompiled, source).toBeUndefined();
    expect(pchEntries(cacheRoot)).toEqual({});
  }, 120_000);

  it('the second compiles the model and the harness with verilated.h precompiled, and caches it', async () => {
    const seen = await build('PchSecond', cacheRoot);
    expect(seen.map(({ source }) => source).sort()).toEqual(['VPchSecond__ALL.cpp', 'harness.cpp']);
    for (const { source, precompiled } of seen)
      expect(precompiled, source).toMatch(/verilated_pch\.h\.gch\/fast\.gch$/);
    expect(Object.keys(pchEntries(cacheRoot))).toHaveLength(1);
  }, 120_000);

  it('the third loads the cached one, not compiled again', async () => {
    const before = pchEntries(cacheRoot);
    const seen = await build('PchThird', cacheRoot);
    for (const { source, precompiled } of seen) expect(precompiled, source).toMatch(/fast\.gch$/);
    expect(pchEntries(cacheRoot)).toEqual(before);
  }, 120_000);
});
