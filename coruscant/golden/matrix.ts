/**
 * Dense matrices as raw IEEE bit patterns, row-major. Bits (not JS numbers) are the currency of
 * the golden models: they keep −0, NaN payloads and subnormals exactly as the hardware sees them.
 */
export interface Fp16Matrix {
  readonly rows: number;
  readonly cols: number;
  /** rows × cols binary16 bit patterns, row-major. */
  readonly bits: Uint16Array;
}

export interface Fp32Matrix {
  readonly rows: number;
  readonly cols: number;
  /** rows × cols binary32 bit patterns, row-major. */
  readonly bits: Uint32Array;
}

/** An all-zero (+0) FP16 matrix. */
export function zerosFp16(rows: number, cols: number): Fp16Matrix {
  return { rows, cols, bits: new Uint16Array(rows * cols) };
}

/** An all-zero (+0) FP32 matrix. */
export function zerosFp32(rows: number, cols: number): Fp32Matrix {
  return { rows, cols, bits: new Uint32Array(rows * cols) };
}
