import { EXAMPLE_SUITES } from '../../verif/suites/index.ts';
import { CORUSCANT_SUITES } from '../../coruscant/suites/index.ts';
import type { RegressSuite } from '../../verif/regress/suite.ts';

/**
 * The repository's regression suites in the order `gen regress --suite all` runs them here: the
 * config's own (the framework's examples), then its plugin's (the Coruscant showcase).
 */
export const REGRESS_SUITES: readonly RegressSuite[] = [...EXAMPLE_SUITES, ...CORUSCANT_SUITES];
