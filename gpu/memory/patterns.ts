import { mulberry32 } from './seededRandom.ts';
import { TraceBuilder, type MemoryTrace } from './requestTrace.ts';
import { UserError } from '../../common/errors.ts';

/**
 * Synthetic load traces that exercise the model (`gen memsim --pattern`, the benchmark): every SM
 * issues one request per cycle, requests dealt to SMs round-robin, all starting at cycle 0.
 */

/** The synthetic access patterns. */
export const MEMORY_PATTERNS = ['stream', 'stride', 'random'] as const;
export type MemoryPattern = (typeof MEMORY_PATTERNS)[number];

/** Parameters of a synthetic trace. */
export interface PatternOptions {
  readonly pattern: MemoryPattern;
  /** Footprint: the bytes a stream reads, the span a stride or random pattern covers. */
  readonly bytes: number;
  /** Distance between consecutive requests of the stride pattern, bytes. */
  readonly strideBytes?: number;
  /** Requests of the stride and random patterns (default: one per 32-byte sector of `bytes`). */
  readonly requests?: number;
  readonly smCount: number;
  readonly seed?: number;
  /** First byte address (default 0). */
  readonly baseAddress?: number;
}

const LINE = 128;
const SECTOR = 32;
/** A trace is held in memory (19 bytes a request), so 2^25 requests (~640 MB) is the most we build. */
export const MAX_PATTERN_REQUESTS = 2 ** 25;

/** Builds the trace of one synthetic pattern. */
export function patternTrace(options: PatternOptions): MemoryTrace {
  const { bytes, smCount } = options;
  const base = options.baseAddress ?? 0;
  const requests = options.requests ?? Math.ceil(bytes / SECTOR);
  const generators: Record<MemoryPattern, () => MemoryTrace> = {
    // Whole 128-byte lines, as a fully coalesced warp of 4-byte loads asks for them.
    stream: () => dealt(Math.ceil(bytes / LINE), smCount, (i) => [base + i * LINE, Math.min(LINE, bytes - i * LINE)]),
    stride: () => {
      const stride = options.strideBytes ?? LINE;
      return dealt(requests, smCount, (i) => [base + ((i * stride) % Math.max(bytes, stride)), 4]);
    },
    random: () => {
      const random = mulberry32(options.seed ?? 1);
      const sectors = Math.max(1, Math.floor(bytes / SECTOR));
      return dealt(requests, smCount, () => [base + Math.floor(random() * sectors) * SECTOR, 4]);
    },
  };
  return generators[options.pattern]();
}

/** Request i goes to SM i mod smCount at cycle floor(i / smCount). */
function dealt(count: number, smCount: number, request: (i: number) => [address: number, bytes: number]): MemoryTrace {
  if (count > MAX_PATTERN_REQUESTS) {
    throw new UserError(
      `the pattern needs ${count} requests, more than the ${MAX_PATTERN_REQUESTS} a trace may hold; give fewer --bytes or --requests`,
    );
  }
  const trace = new TraceBuilder(count);
  for (let i = 0; i < count; i++) {
    const [address, bytes] = request(i);
    trace.push(i % smCount, address, bytes, Math.floor(i / smCount));
  }
  return trace.build();
}
