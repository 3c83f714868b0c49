import type { ReportSection } from '../types.ts';
import { inventorySection } from './inventory.ts';
import { regressionSection } from './regression.ts';
import { decoderWaveSection } from './decoderWave.ts';
import { formatsSection } from './formats.ts';
import { synthesisSection } from './synthesis.ts';
import { pendingSection } from './pending.ts';

/** The report's sections, in page order. */
export const REPORT_SECTIONS: readonly ReportSection[] = [
  inventorySection,
  regressionSection,
  decoderWaveSection,
  pendingSection('mmaWave', 'Waveform: one Coruscant MMA', 'The MmaUnit and `gen mma` are not in this checkout yet; this section traces one m32n1k64 MMA once they are.', ['node bin/gen.js mma --help']),
  formatsSection,
  synthesisSection,
  pendingSection('spmm', 'SpMM on the modeled GPU (paper Fig. 16)', 'The SpMM system model (verif/system) is not in this checkout yet; its sweep figures appear here once it is.', ['node bin/gen.js spmm --help']),
];
