/**
 * The layers of the framework, lowest first, and what each may import (docs/architecture.md).
 * Each folder may import only the folders listed for it (and itself); every other project
 * import is an upward or sideways edge and fails `make lint`. Tests and benchmarks may import
 * anything; nothing may import them, and nothing may form a cycle.
 */
// One line per layer, so the table reads like docs/architecture.md's (prettier would wrap it).
// prettier-ignore
const LAYERS = {
  common: [],
  tools: ['common'],
  waves: ['common'],
  'hw/core': ['common'],
  'hw/ir': ['common', 'hw/core'],
  'hw/verilog': ['common', 'hw/core', 'hw/ir'],
  // The simulation contract every engine imports (phases, clock schedule, frames, checks, the harness protocol), below
  // the in-process simulator, which runs the same schedule and checks.
  'hw/contract': ['common', 'hw/core', 'hw/ir'],
  'hw/sim': ['common', 'waves', 'hw/core', 'hw/ir', 'hw/contract'],
  // The hardware library (streams, …): blocks built with the DSL, for designs and examples above.
  'hw/lib': ['common', 'hw/core', 'hw/ir'],
  'hw/examples': ['common', 'hw/core', 'hw/ir', 'hw/lib'],
  engines: ['common', 'tools', 'waves', 'hw/core', 'hw/ir', 'hw/contract', 'hw/verilog', 'hw/sim'],
  // Concurrent testbench processes: a scheduler over engine sessions, below the testbench that forks them.
  'verif/processes': ['common', 'hw/contract', 'engines'],
  'verif/testbench.ts': ['common', 'tools', 'waves', 'hw/core', 'hw/ir', 'hw/contract', 'hw/sim', 'engines', 'verif/processes'],
  // Reusable testbench agents (drivers, monitors, scoreboards) built on the reactive testbench.
  'verif/agents': ['common', 'hw/core', 'hw/ir', 'hw/contract', 'engines', 'verif/testbench.ts', 'verif/processes'],
  'verif/fuzz': ['common', 'tools', 'waves', 'hw/core', 'hw/ir', 'hw/contract', 'hw/verilog', 'hw/sim', 'engines'],
  'verif/formal': ['common', 'tools', 'waves', 'hw/core', 'hw/ir', 'hw/contract', 'hw/verilog', 'hw/sim', 'engines'],
  'verif/regress': ['common', 'tools', 'waves', 'hw/core', 'hw/ir', 'hw/contract', 'hw/lib', 'hw/verilog', 'hw/sim', 'engines', 'verif/fuzz', 'verif/testbench.ts'],
  synth: ['common', 'tools', 'waves', 'hw/core', 'hw/ir', 'hw/contract', 'hw/lib', 'hw/verilog', 'hw/sim', 'engines'],
  // The regression suites of the framework's examples (the repository's gen.config.ts lists them).
  'verif/suites': ['common', 'tools', 'waves', 'hw/core', 'hw/ir', 'hw/contract', 'hw/lib', 'hw/verilog', 'hw/sim', 'hw/examples', 'engines', 'verif/testbench.ts', 'verif/fuzz', 'verif/regress'],
  // The framework's CLI and project loading: nothing of the showcase (it comes in as a plugin).
  gen: ['common', 'tools', 'waves', 'hw/core', 'hw/ir', 'hw/contract', 'hw/lib', 'hw/verilog', 'hw/sim', 'hw/examples', 'engines', 'verif/testbench.ts', 'verif/fuzz', 'verif/regress', 'verif/formal', 'synth'],
  // The Coruscant showcase, a plugin: the framework only through its public entry points (api/), and its GPU
  // model (gpu/, showcase code that still lives beside the framework, see docs/architecture.md).
  coruscant: ['api', 'gpu'],
  // The GPU model reaches into the framework below the API and into the showcase; nothing of the framework
  // imports it.
  gpu: ['common', 'hw/core', 'hw/ir', 'hw/contract', 'hw/lib', 'hw/sim', 'engines', 'coruscant'],
  // The package's public entry points (package.json `exports`): re-exports of the framework below the CLI.
  api: ['common', 'tools', 'waves', 'hw/core', 'hw/ir', 'hw/contract', 'hw/lib', 'hw/verilog', 'hw/sim', 'engines', 'verif/testbench.ts', 'verif/processes', 'verif/agents', 'verif/fuzz', 'verif/regress', 'synth', 'gen/project'],
};
// Benchmarks, like tests, may import anything below them (they measure internals); nothing imports them.
const BENCHMARKS = ['bench', 'coruscant/bench'];
const PROJECT = [...Object.keys(LAYERS), 'verif', 'gen', ...BENCHMARKS, 'tests', 'bin'];
const escape = (folder) => folder.replace(/[.]/g, '\\.');
const under = (folders) => `^(${folders.map(escape).join('|')})(/|$)`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles hide which module is the lower one.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-import-of-tests-or-benchmarks',
      severity: 'error',
      from: { pathNot: under(['tests', ...BENCHMARKS]) },
      to: { path: under(['tests', ...BENCHMARKS, 'bin']) },
    },
    ...Object.entries(LAYERS).map(([layer, allowed]) => ({
      name: `layer-${layer.replace(/[/.]/g, '-')}`,
      severity: 'error',
      comment: `${layer} may import only: ${allowed.join(', ') || 'nothing of the project'}`,
      from: { path: under([layer]), pathNot: under(BENCHMARKS) },
      to: { path: under(PROJECT), pathNot: under([layer, ...allowed]) },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|build|out|report|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
