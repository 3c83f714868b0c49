import type { RegressSuite } from '../regress/suite.ts';
import { fuzzSuites } from './fuzz.ts';
import { streamSuites } from './streams.ts';
import { fsmSuites } from './fsmExamples.ts';
import { blackBoxSuites } from './blackBoxExamples.ts';
import { memorySuites } from './memoryExamples.ts';

/**
 * The regression suites of the framework's own examples: the stream library and the feature
 * examples (light) before the fuzzer's (heavy). A new example adds its suites here (`{ name,
 * groups, … }`, see verif/regress/suite.ts); the repository's gen.config.ts lists these, the
 * Coruscant showcase adds its own through its plugin, and `--suite` selects by name or group.
 * Loading suite files (`--load`) and selecting them is verif/regress/suiteSources.ts.
 */
export const EXAMPLE_SUITES: readonly RegressSuite[] = [
  ...streamSuites,
  ...fsmSuites,
  ...blackBoxSuites,
  ...memorySuites,
  ...fuzzSuites,
];
