import type { RegressSuite } from '../regress/suite.ts';
import { decoderSuites } from './decoder.ts';
import { fpSuites } from './fp.ts';
import { mmaSuites } from './mma.ts';
import { fuzzSuites } from './fuzz.ts';
import { streamSuites } from './streams.ts';
import { fsmSuites } from './fsmExamples.ts';
import { blackBoxSuites } from './blackBoxExamples.ts';
import { memorySuites } from './memoryExamples.ts';

/**
 * Every regression suite of the framework's own blocks, bottom up. A new block adds its suites
 * here (`{ name, groups, … }`, see verif/regress/suite.ts); the repository's gen.config.ts lists
 * these, and `--suite` selects by name or group. Loading suite files (`--load`) and selecting
 * them is verif/regress/suiteSources.ts.
 */
export const REGRESS_SUITES: readonly RegressSuite[] = [
  ...fpSuites,
  ...decoderSuites,
  // The stream library and the feature examples (light), before the heavy suites.
  ...streamSuites,
  ...fsmSuites,
  ...blackBoxSuites,
  ...memorySuites,
  ...mmaSuites,
  ...fuzzSuites,
];
