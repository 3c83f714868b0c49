import { existsSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
import { TracedFirstSequencer } from './tests/support/tracedFirst.ts';

/**
 * Test files that leave no state in their worker: no environment variable set, no mock, no change
 * of working folder, no signal listener or process left behind. Child processes they wait for
 * (`gen`, a tool) are allowed: an ended child leaves nothing. So are Verilator and Icarus runs in
 * the worker in files that check nothing of the engines' processes (no spy, no pid, no count of
 * launches): the idle served harnesses one file leaves (engines/harness/harnessProcess.ts, at most
 * eight) serve the next file's runs of the same build and end with the worker. They share their
 * worker's loaded modules (`isolate: false`): about half the CPU of a fresh module graph per file
 * on these files (docs/performance.md, "Test suite"). Every other file, and a new one until it is
 * checked and listed here, runs isolated.
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
  'tests/coruscant/designs/decoder/engines.test.ts',
  'tests/coruscant/designs/decoder/lint.test.ts',
  'tests/coruscant/designs/decoder/parameters.test.ts',
  'tests/coruscant/designs/decoder/sequential.test.ts',
  'tests/coruscant/designs/fp/engines.test.ts',
  'tests/coruscant/designs/fp/fp16Multiplier.test.ts',
  'tests/coruscant/designs/fp/fp32Adder.test.ts',
  'tests/coruscant/designs/fp/lib.test.ts',
  'tests/coruscant/designs/streams/cycleDigest.test.ts',
  'tests/coruscant/designs/tensor/lane.test.ts',
  'tests/coruscant/designs/tensor/mmaUnit.test.ts',
  'tests/coruscant/designs/tensor/tensorDocs.test.ts',
  'tests/coruscant/formats.test.ts',
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
  'tests/coruscant/mma.test.ts',
  'tests/coruscant/report/buildReport.test.ts',
  'tests/coruscant/report/cli.test.ts',
  'tests/coruscant/report/findings.test.ts',
  'tests/coruscant/report/html.test.ts',
  'tests/coruscant/report/reproduce.test.ts',
  'tests/coruscant/spmm.test.ts',
  'tests/coruscant/workloads/sparseWorkload.test.ts',
  'tests/engines/batchSinks.test.ts',
  'tests/engines/coverHits.test.ts',
  'tests/engines/external.test.ts',
  'tests/engines/icarus/icarusTestbench.test.ts',
  'tests/engines/internalTrace.test.ts',
  'tests/engines/lockstep.test.ts',
  'tests/engines/multiClock.test.ts',
  'tests/engines/multiClockSession.test.ts',
  'tests/engines/outputCompare.test.ts',
  'tests/engines/portFrames.test.ts',
  'tests/engines/printf.test.ts',
  'tests/engines/sameWaves.test.ts',
  'tests/engines/sessionFrames.test.ts',
  'tests/engines/vcd.test.ts',
  'tests/gen/cli.test.ts',
  'tests/gen/cli/runBound.test.ts',
  'tests/gen/project/badDesign.test.ts',
  'tests/gen/project/paths.test.ts',
  'tests/gen/readme.test.ts',
  'tests/gen/regress.test.ts',
  'tests/gen/regressMerge.test.ts',
  'tests/gen/sim.test.ts',
  'tests/gen/topHelp.test.ts',
  'tests/gen/wave.test.ts',
  'tests/hardening/designLimits.test.ts',
  'tests/hardening/designLoading.test.ts',
  'tests/hardening/failureFolder.test.ts',
  'tests/hardening/folderSwap.test.ts',
  'tests/hardening/netlist.test.ts',
  'tests/hardening/optionValues.test.ts',
  'tests/hardening/outputOverInput.test.ts',
  'tests/hardening/reportLeftovers.test.ts',
  'tests/hardening/runBounds.test.ts',
  'tests/hardening/scaleMemory.test.ts',
  'tests/hardening/specialInputs.test.ts',
  'tests/hardening/vectorLimits.test.ts',
  'tests/hardening/waveDiff.test.ts',
  'tests/hardening/waveLimits.test.ts',
  'tests/hw/core/assert.test.ts',
  'tests/hw/core/blackBox.test.ts',
  'tests/hw/core/bundle.test.ts',
  'tests/hw/core/domains.test.ts',
  'tests/hw/core/dsl.test.ts',
  'tests/hw/core/errors.test.ts',
  'tests/hw/core/exactLine.test.ts',
  'tests/hw/core/fsm.test.ts',
  'tests/hw/core/memory.test.ts',
  'tests/hw/core/printf.test.ts',
  'tests/hw/core/vec.test.ts',
  'tests/hw/examples/examples.test.ts',
  'tests/hw/examples/twoClockFifo.test.ts',
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
  'tests/hw/verilog/command.test.ts',
  'tests/lint/citations.test.ts',
  'tests/lint/layers.test.ts',
  'tests/package/apiReference.test.ts',
  'tests/package/init.test.ts',
  'tests/synth/cli.test.ts',
  'tests/synth/components.test.ts',
  'tests/synth/library/liberty.test.ts',
  'tests/synth/library/verilogModels.test.ts',
  'tests/synth/scaling.test.ts',
  'tests/synth/sim/vcdToggles.test.ts',
  'tests/synth/timing/sta.test.ts',
  'tests/tools/toolCache.test.ts',
  'tests/types/typeErrors.test.ts',
  'tests/types/widths.test.ts',
  'tests/verif/agents/validReady.test.ts',
  'tests/verif/coverage/coverage.test.ts',
  'tests/verif/coverage/fsmCross.test.ts',
  'tests/verif/formal/onlyChecks.test.ts',
  'tests/verif/formal/prove.test.ts',
  'tests/verif/formal/regressAssert.test.ts',
  'tests/verif/formal/simChecks.test.ts',
  'tests/verif/fuzz/corpus.test.ts',
  'tests/verif/fuzz/knownEngineBugs.test.ts',
  'tests/verif/fuzz/randomDesign.test.ts',
  'tests/verif/fuzz/twoClocks.test.ts',
  'tests/verif/processes/scheduler.test.ts',
  'tests/verif/reactiveWait.test.ts',
  'tests/verif/regress/autoJobs.test.ts',
  'tests/verif/regress/caseFailures.test.ts',
  'tests/verif/regress/compiledTwins.test.ts',
  'tests/verif/regress/farmPolling.test.ts',
  'tests/verif/regress/farmUrl.test.ts',
  'tests/verif/regress/junit.test.ts',
  'tests/verif/regress/lanesRegression.test.ts',
  'tests/verif/regress/mutation.test.ts',
  'tests/verif/regress/mutationHonest.test.ts',
  'tests/verif/regress/mutationSurvivors.test.ts',
  'tests/verif/regress/shard.test.ts',
  'tests/verif/regress/shardFromEnv.test.ts',
  'tests/verif/regress/suites.test.ts',
  'tests/verif/testbench.test.ts',
  'tests/verif/testbenchProcesses.test.ts',
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

// A custom sequencer would stand in for the shuffling one: shuffled runs keep vitest's.
const shuffled = process.argv.some((argument) => argument.startsWith('--sequence.shuffle'));

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
    // Forks keep Verilator builds and simulations from starving each other. Three on CI's two
    // cores: the files that wait (the watchdog's 30 s bound, the farm's workers, the kill tests)
    // leave a core to the third (docs/performance.md, "A third worker").
    pool: 'forks',
    maxWorkers: 3,
    // The files that trace a design others run untraced start first: one build of it per run.
    ...(shuffled ? {} : { sequence: { sequencer: TracedFirstSequencer } }),
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
