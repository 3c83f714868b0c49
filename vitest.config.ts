import { existsSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that leave no state in their worker: no environment variable set, no mock, no change
 * of working folder, no signal listener or process left behind, no external engine run in the
 * worker (its served harness processes outlive the file). Child processes they wait for (`gen`, a
 * tool) are allowed: an ended child leaves nothing. They share their worker's loaded modules
 * (`isolate: false`): about half the CPU of a fresh module graph per file on these files
 * (docs/performance.md, "Test suite"). Every other file, and a new one until it is checked and
 * listed here, runs isolated.
 */
const SHARED_MODULES = [
  'tests/bench/measureProcess.test.ts',
  'tests/bench/nativeHarness.test.ts',
  'tests/common/charts.test.ts',
  'tests/common/chunkedRead.test.ts',
  'tests/common/fieldErrors.test.ts',
  'tests/common/outputClash.test.ts',
  'tests/common/userFiles.test.ts',
  'tests/coruscant/designs/decoder/bandwidth.test.ts',
  'tests/coruscant/designs/decoder/combinational.test.ts',
  'tests/coruscant/designs/decoder/docs.test.ts',
  'tests/coruscant/designs/decoder/lint.test.ts',
  'tests/coruscant/designs/decoder/parameters.test.ts',
  'tests/coruscant/designs/decoder/sequential.test.ts',
  'tests/coruscant/designs/fp/fp16Multiplier.test.ts',
  'tests/coruscant/designs/fp/fp32Adder.test.ts',
  'tests/coruscant/designs/fp/lib.test.ts',
  'tests/coruscant/designs/streams/cycleDigest.test.ts',
  'tests/coruscant/designs/tensor/lane.test.ts',
  'tests/coruscant/designs/tensor/mmaUnit.test.ts',
  'tests/coruscant/designs/tensor/tensorDocs.test.ts',
  'tests/coruscant/golden/formats/cudaCompat.test.ts',
  'tests/coruscant/golden/formats/kernelFormat.test.ts',
  'tests/coruscant/golden/formats/kernelFormatFiles.test.ts',
  'tests/coruscant/golden/formats/sizes.test.ts',
  'tests/coruscant/golden/formats/stcFormat.test.ts',
  'tests/coruscant/golden/formats/tiledCsl.test.ts',
  'tests/coruscant/golden/io/npy.test.ts',
  'tests/coruscant/golden/models/mma.test.ts',
  'tests/coruscant/golden/models/stcMma.test.ts',
  'tests/coruscant/golden/numerics/fp16.test.ts',
  'tests/coruscant/golden/numerics/fp32.test.ts',
  'tests/coruscant/golden/pruning/prune.test.ts',
  'tests/coruscant/golden/pruning/synthetic.test.ts',
  'tests/coruscant/golden/pruning/weightsFile.test.ts',
  'tests/coruscant/report/buildReport.test.ts',
  'tests/coruscant/report/cli.test.ts',
  'tests/coruscant/report/findings.test.ts',
  'tests/coruscant/report/html.test.ts',
  'tests/coruscant/report/reproduce.test.ts',
  'tests/coruscant/workloads/sparseWorkload.test.ts',
  'tests/engines/icarus/icarusTestbench.test.ts',
  'tests/gen/cli/runBound.test.ts',
  'tests/gen/project/paths.test.ts',
  'tests/gen/topHelp.test.ts',
  'tests/gen/wave.test.ts',
  'tests/hardening/designLoading.test.ts',
  'tests/hardening/failureFolder.test.ts',
  'tests/hardening/folderSwap.test.ts',
  'tests/hardening/netlist.test.ts',
  'tests/hardening/outputOverInput.test.ts',
  'tests/hardening/reportLeftovers.test.ts',
  'tests/hardening/runBounds.test.ts',
  'tests/hardening/scaleMemory.test.ts',
  'tests/hardening/specialInputs.test.ts',
  'tests/hardening/waveDiff.test.ts',
  'tests/hw/core/bundle.test.ts',
  'tests/hw/core/domains.test.ts',
  'tests/hw/core/dsl.test.ts',
  'tests/hw/core/errors.test.ts',
  'tests/hw/core/exactLine.test.ts',
  'tests/hw/core/printf.test.ts',
  'tests/hw/examples/examples.test.ts',
  'tests/hw/ir/lower.test.ts',
  'tests/hw/ir/passes.test.ts',
  'tests/hw/ir/placedModules.test.ts',
  'tests/hw/ir/print.test.ts',
  'tests/hw/lib/flow.test.ts',
  'tests/hw/lib/stream.test.ts',
  'tests/hw/sim/cellOrder.test.ts',
  'tests/hw/sim/instanceGroups.test.ts',
  'tests/hw/sim/laneSimulator.test.ts',
  'tests/hw/sim/pokePeek.test.ts',
  'tests/hw/sim/simplifyFlat.test.ts',
  'tests/hw/sim/simulatorVsReference.test.ts',
  'tests/hw/sim/wideWords.test.ts',
  'tests/lint/citations.test.ts',
  'tests/package/apiReference.test.ts',
  'tests/package/init.test.ts',
  'tests/synth/components.test.ts',
  'tests/synth/library/liberty.test.ts',
  'tests/synth/library/verilogModels.test.ts',
  'tests/synth/scaling.test.ts',
  'tests/synth/sim/vcdToggles.test.ts',
  'tests/synth/timing/sta.test.ts',
  'tests/tools/toolCache.test.ts',
  'tests/types/widths.test.ts',
  'tests/verif/agents/validReady.test.ts',
  'tests/verif/formal/onlyChecks.test.ts',
  'tests/verif/formal/simChecks.test.ts',
  'tests/verif/fuzz/randomDesign.test.ts',
  'tests/verif/processes/scheduler.test.ts',
  'tests/verif/regress/autoJobs.test.ts',
  'tests/verif/regress/compiledTwins.test.ts',
  'tests/verif/regress/farmPolling.test.ts',
  'tests/verif/regress/farmUrl.test.ts',
  'tests/verif/regress/junit.test.ts',
  'tests/verif/regress/mutation.test.ts',
  'tests/verif/regress/mutationHonest.test.ts',
  'tests/verif/regress/mutationSurvivors.test.ts',
  'tests/verif/regress/shard.test.ts',
  'tests/verif/regress/shardFromEnv.test.ts',
  'tests/waves/divergence.test.ts',
  'tests/waves/sampling.test.ts',
  'tests/waves/vcdReader.test.ts',
  'tests/waves/vcdWriter.test.ts',
  'tests/waves/wavedrom.test.ts',
];

// A renamed or removed file would silently leave the list (and run nowhere): refuse to start.
const unlisted = SHARED_MODULES.filter((file) => !existsSync(new URL(file, import.meta.url)));
if (unlisted.length > 0)
  throw new Error(`vitest.config.ts: SHARED_MODULES names missing files: ${unlisted.join(', ')}`);

/** What both groups share; the global set-up and the worker count are the run's, not a group's. */
const common = {
  testTimeout: 120_000,
  hookTimeout: 300_000,
  // An untraced Verilator run uses the design's traced build when one is cached (engines/verilator/verilatorEngine.ts):
  // a design traced in one test and run untraced in another is not compiled twice.
  env: { GEN_VERILATOR_REUSE_TRACED: '1' },
};

export default defineConfig({
  test: {
    ...common,
    // One temporary folder for the run, removed at its end: tests/support/privateTemp.ts; in it,
    // the checkout compiled once, the `gen` the tests spawn: tests/support/compiledGen.ts.
    globalSetup: ['tests/support/privateTemp.ts', 'tests/support/compiledGen.ts'],
    // Two cores in CI: forks keep Verilator builds and simulations from starving each other.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...common,
          name: 'isolated',
          include: ['tests/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SHARED_MODULES],
        },
      },
      { test: { ...common, name: 'shared-modules', include: SHARED_MODULES, isolate: false } },
    ],
  },
});
