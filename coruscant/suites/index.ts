import type { RegressSuite } from '../../api/regress.ts';
import { decoderSuites } from './decoder.ts';
import { fpSuites } from './fp.ts';
import { mmaSuites } from './mma.ts';

/**
 * The Coruscant regression suites, bottom up: the FP units and tensor lane, the decoder's blocks,
 * then the MmaUnit (heavy). The plugin adds them to the project's own (`gen regress --suite all`).
 */
export const CORUSCANT_SUITES: readonly RegressSuite[] = [...fpSuites, ...decoderSuites, ...mmaSuites];
