import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileFormatError } from '../../../../common/errors.ts';
import { writeNpy } from '../../../../coruscant/golden/io/npy.ts';
import { readActivationNormsNpy, readWeightsNpy } from '../../../../coruscant/golden/pruning/weightsFile.ts';

const scratch = mkdtempSync(join(tmpdir(), 'weights-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('pruning inputs from .npy', () => {
  it('reads float16 weights as bits and rounds float32 weights to FP16 (nearest even)', () => {
    const half = join(scratch, 'w16.npy');
    writeNpy(half, 'float16', [2, 2], Uint16Array.of(0x3c00, 0x8000, 0x7e00, 0x0001));
    expect(readWeightsNpy(half)).toEqual({ rows: 2, cols: 2, bits: Uint16Array.of(0x3c00, 0x8000, 0x7e00, 0x0001) });
    const single = join(scratch, 'w32.npy');
    // 1 + 2⁻¹¹ is a tie between 1 and 1 + 2⁻¹⁰: even → 1.0; 1 + 3·2⁻¹¹ rounds up to 1 + 2⁻⁹.
    writeNpy(single, 'float32', [1, 3], Float32Array.of(1 + 2 ** -11, 1 + 3 * 2 ** -11, -2));
    expect([...readWeightsNpy(single).bits]).toEqual([0x3c00, 0x3c02, 0xc000]);
  });

  it('rejects wrong dtypes, shapes and norms with errors naming the file', () => {
    const ints = join(scratch, 'ints.npy');
    writeNpy(ints, 'uint8', [2, 2], Uint8Array.of(1, 2, 3, 4));
    expect(() => readWeightsNpy(ints)).toThrow(FileFormatError);
    expect(() => readWeightsNpy(ints)).toThrow(/ints\.npy: expected a 2-D float16 or float32/);
    const norms = join(scratch, 'norms.npy');
    writeNpy(norms, 'float32', [3], Float32Array.of(1, 2, -1));
    expect(() => readActivationNormsNpy(norms, 4)).toThrow(/norms\.npy: holds 3 norms but the weights have 4/);
    expect(() => readActivationNormsNpy(norms, 3)).toThrow(/norms\.npy: norm 2 is -1/);
    writeNpy(norms, 'float64', [3], Float64Array.of(1, 2, 3));
    expect([...readActivationNormsNpy(norms, 3)]).toEqual([1, 2, 3]);
  });
});
