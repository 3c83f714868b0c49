import { copyFileSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedBuild, contentHash, intactEntry } from './buildCache.ts';
import { runTool } from './runTool.ts';

/**
 * A precompiled verilated.h for the C++ of a Verilator build. A small design's model and harness
 * spend most of their compile parsing Verilator's headers (about 0.6 s of CPU of each file's
 * 0.9–1.1 s); each model file of a big design pays it again. g++ loads the header precompiled
 * instead when it is included first (`-include`) with the same compile options: the objects come
 * out byte for byte the same (docs/performance.md, "Verilator's headers precompiled").
 *
 * The model's files compile with two option sets (verilated.mk's OPT_FAST, and OPT_SLOW for the
 * slow files of a parallel build), and a precompiled header serves one set, so each is a variant
 * in the header's `.gch` folder, where g++ takes the first that fits. A variant is compiled by the
 * first build that needs it (tools/verilator.ts asks from a cache's second build of the flags on),
 * from the build's own makefile (so with the same flags), and cached under the runtime objects'
 * key: Verilator's and g++'s versions and the flags. A variant is 57–66 MB.
 * verilated.cpp and the other runtime files keep their own rule (OPT_GLOBAL) and no `-include`:
 * verilated.cpp defines a macro before its first include.
 */
const HEADER = 'verilated_pch.h';
const VARIANTS = ['fast', 'slow'] as const;
/** The makefile read after the build's own. */
const MAKEFILE_NAME = 'pch.mk';

/**
 * The makefile read after the build's own (`make -f V<top>.mk -f pch.mk`): the variants' rules,
 * with the options captured before it adds the `-include` to the model's files. A variant's file
 * has no prerequisite, so a cached one linked in is never rebuilt.
 */
const MAKEFILE = `# Written by tools/verilatorPch.ts.
PCH_OPT_FAST := $(OPT_FAST)
PCH_OPT_SLOW := $(OPT_SLOW)
PCH_VARIANTS := fast $(if $(filter 1,$(VM_PARALLEL_BUILDS)),$(if $(strip $(VM_SLOW)),slow))
OPT_FAST += -include ${HEADER} -Winvalid-pch
OPT_SLOW += -include ${HEADER} -Winvalid-pch
pch: $(patsubst %,${HEADER}.gch/%.gch,$(PCH_VARIANTS))
pch-variants:
\t@echo $(PCH_VARIANTS)
.PHONY: pch pch-variants
${HEADER}.gch/fast.gch:
\t$(CXX) $(CXXFLAGS) $(filter-out -MMD,$(CPPFLAGS)) $(PCH_OPT_FAST) -x c++-header -o $@ ${HEADER}
${HEADER}.gch/slow.gch:
\t$(CXX) $(CXXFLAGS) $(filter-out -MMD,$(CPPFLAGS)) $(PCH_OPT_SLOW) -x c++-header -o $@ ${HEADER}
`;

/**
 * Compiles the Verilated C++ in `obj` with `make` (its arguments: the folder, the build's makefile,
 * the jobs) and the precompiled header: the variants this build needs (the makefile says which)
 * linked in from the cache, the missing ones compiled first and cached.
 */
export async function makeWithPch(
  obj: string,
  make: readonly string[],
  cacheRoot: string,
  runtimeKey: string,
  trace: boolean,
  limits: { readonly timeout: number; readonly tmpdir: string },
): Promise<void> {
  writeFileSync(
    join(obj, HEADER),
    `// Written by tools/verilatorPch.ts: precompiled as ${HEADER}.gch.\n#include "verilated.h"\n${trace ? '#include "verilated_vcd_c.h"\n' : ''}`,
  );
  writeFileSync(join(obj, MAKEFILE_NAME), MAKEFILE);
  mkdirSync(join(obj, `${HEADER}.gch`));
  const withPch = [...make, '-f', MAKEFILE_NAME];
  const asked = await runTool('make', [...withPch, '--no-print-directory', '-s', 'pch-variants'], limits);
  const needed = VARIANTS.filter((variant) => asked.stdout.split(/\s+/).includes(variant));
  // Only what this build uses is linked: each cached variant is checked by hash on its first use in a process.
  for (const variant of needed) {
    const cached = intactEntry(cacheRoot, variantKey(runtimeKey, variant));
    if (cached !== undefined) symlinkSync(join(cached, `${variant}.gch`), variantFile(obj, variant));
  }
  await runTool('make', [...withPch, 'pch'], limits);
  for (const variant of needed) {
    const file = variantFile(obj, variant);
    if (lstatSync(file).isSymbolicLink()) continue;
    await cachedBuild(cacheRoot, variantKey(runtimeKey, variant), async (dir) => {
      copyFileSync(file, join(dir, `${variant}.gch`));
    });
  }
  await runTool('make', withPch, limits);
}

function variantFile(obj: string, variant: (typeof VARIANTS)[number]): string {
  return join(obj, `${HEADER}.gch`, `${variant}.gch`);
}

function variantKey(runtimeKey: string, variant: (typeof VARIANTS)[number]): string {
  return contentHash([runtimeKey, HEADER, variant]);
}
