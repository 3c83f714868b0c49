import { FileFormatError } from '../../../api/plugin.ts';
import { readNpy } from '../io/npy.ts';
import type { Fp16Matrix } from '../matrix.ts';
import { numberToFp16 } from '../numerics/fp16.ts';

/**
 * Reads pruning inputs from NumPy files: a 2-D float16 or float32 weight matrix (M outputs × K
 * inputs; float32 is rounded to FP16 with round-to-nearest-even, since FP16 is what the formats
 * and the tensor core store), and a 1-D vector of per-input-channel activation norms for Wanda.
 */
export function readWeightsNpy(path: string): Fp16Matrix {
  const array = readNpy(path);
  if (array.shape.length !== 2 || (array.dtype !== 'float16' && array.dtype !== 'float32')) {
    throw new FileFormatError(
      path,
      `expected a 2-D float16 or float32 weight matrix, found ${array.shape.length}-D ${array.dtype}`,
    );
  }
  const [rows, cols] = array.shape as [number, number];
  const bits = array.dtype === 'float16' ? array.data : Uint16Array.from(array.data, (x) => numberToFp16(x));
  return { rows, cols, bits };
}

/** Reads K activation norms ‖X_j‖₂ (1-D float32/float64, finite and ≥ 0). */
export function readActivationNormsNpy(path: string, inputChannels: number): Float64Array {
  const array = readNpy(path);
  if (array.shape.length !== 1 || !['float32', 'float64'].includes(array.dtype)) {
    throw new FileFormatError(
      path,
      `expected a 1-D float32 or float64 vector of activation norms, found ${array.shape.length}-D ${array.dtype}`,
    );
  }
  if (array.shape[0] !== inputChannels)
    throw new FileFormatError(
      path,
      `holds ${array.shape[0]} norms but the weights have ${inputChannels} input channels`,
    );
  const norms = Float64Array.from(array.data as Float32Array | Float64Array);
  const bad = norms.findIndex((x) => !(x >= 0 && x < Infinity));
  if (bad >= 0) throw new FileFormatError(path, `norm ${bad} is ${norms[bad]}, not a finite non-negative number`);
  return norms;
}
