/**
 * A small seeded PRNG (xoshiro128**, Blackman & Vigna), so synthetic weights, random masks and test
 * matrices are identical for the same seed on every machine — Math.random cannot be seeded.
 * The 128-bit state is filled from the 32-bit seed with splitmix32, as the authors recommend,
 * so nearby seeds give unrelated streams.
 */
export class Random {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: number) {
    let x = seed >>> 0;
    const next = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = next() | 0;
    this.s1 = next() | 0;
    this.s2 = next() | 0;
    this.s3 = next() | 0;
  }

  /** A uniform unsigned 32-bit integer. */
  nextUint32(): number {
    // State stays int32 (never >>> 0) so V8 keeps the fields unboxed; this runs per matrix element.
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** A uniform double in [0, 1) with 32 random bits (plenty for masks and weights). */
  nextFloat(): number {
    return this.nextUint32() / 0x1_0000_0000;
  }

  /** A uniform integer in [0, n), n ≤ 2³². */
  nextInt(n: number): number {
    return Math.floor(this.nextFloat() * n);
  }

  /** A standard normal deviate (Box–Muller; one of the pair is dropped to keep no hidden state). */
  nextGaussian(): number {
    const u = 1 - this.nextFloat(); // (0, 1], so the log is finite
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.nextFloat());
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
