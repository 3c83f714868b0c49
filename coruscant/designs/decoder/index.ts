/** The Coruscant bitmap decoder (docs/spec.md §4.1, paper Fig. 14) and its blocks. */
export { LaneDetector } from './laneDetector.ts';
export { AdderChain } from './adderChain.ts';
export { RegisterIndexEmitter } from './registerIndexEmitter.ts';
export { DensePointerIncrementer } from './densePointerIncrementer.ts';
export { BitmapThreadSlice } from './bitmapThreadSlice.ts';
export { BitmapDecoder, decoderStartFlow, decodedFlow } from './bitmapDecoder.ts';
export {
  DECODER_DEFAULTS,
  DECODER_PARAMETER_DOCS,
  decoderWidths,
  validateDecoderParams,
  type DecoderWidths,
} from './parameters.ts';
