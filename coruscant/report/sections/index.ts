import type { ReportSection } from '../../../api/plugin.ts';
import { inventorySection } from './inventory.ts';
import { regressionSection } from './regression.ts';
import { decoderWaveSection } from './decoderWave.ts';
import { mmaWaveSection } from './mmaWave.ts';
import { formatsSection } from './formats.ts';
import { synthesisSection } from './synthesis.ts';
import { spmmSection } from './spmm.ts';

/** The report's sections, in page order: results first, the inventory of designs last (an appendix). */
export const REPORT_SECTIONS: readonly ReportSection[] = [
  regressionSection,
  decoderWaveSection,
  mmaWaveSection,
  formatsSection,
  synthesisSection,
  spmmSection,
  inventorySection,
];
