import { ToolError } from '../../common/errors.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';
import { PRINTED_LINE_LIMIT, placedPrints, tooManyPrintedLines, type PrintedLine } from '../../hw/ir/prints.ts';
import { PRINT_LINE_TAG } from '../../hw/verilog/emit.ts';
import { scopeOf } from './checkLog.ts';

const PRINT_LINE = new RegExp(`^${PRINT_LINE_TAG} (\\d+) (\\S+) \\| (.*)$`);

/**
 * Reads the printf lines of what an external simulator printed: the harness's `GEN-STREAM`
 * (`GEN-STREAM-SAME`) at each stream start and `GEN-CYCLE` at each cycle's sample point (see
 * HarnessPorts.checked), and between them the design's `GEN-PRINT <index> <instance> | <text>`
 * lines (hw/verilog/emit.ts), printed at the edge after their cycle's marker. Verilog runs the
 * blocks of different modules at one edge in an order of its own, so the lines of each cycle
 * are put in print order (hw/ir/prints.ts, placedPrints), as the ts engine prints them.
 */
export class PrintLogReader {
  private readonly streams: PrintedLine[][] = [];
  /** Lines of the cycle being read, with their print-order rank, sorted when the cycle ends. */
  private pending: { rank: number; line: PrintedLine }[] = [];
  /** The cycle whose sample point was passed last (-1: none yet in this stream). */
  private cycle = -1;
  /** Print-order rank of each printf by `<scope> <index>`. */
  private readonly ranks: ReadonlyMap<string, number>;

  constructor(
    design: IrDesign,
    private readonly engine: string,
  ) {
    this.ranks = new Map(placedPrints(design).map(({ scope, index }, rank) => [`${scope} ${index}`, rank]));
  }

  /** Per stream (`count` of them), its printed lines in order. */
  results(count: number): PrintedLine[][] {
    this.flush();
    return Array.from({ length: count }, (_, index) => [...(this.streams[index] ?? [])]);
  }

  /** The lines of the stream read last, so far (a session reads them after each answer). */
  get printed(): readonly PrintedLine[] {
    this.flush();
    return this.streams[this.streams.length - 1] ?? [];
  }

  line(line: string): void {
    if (line === 'GEN-STREAM' || line === 'GEN-STREAM-SAME') {
      this.flush();
      this.streams.push([]);
      this.cycle = -1;
      return;
    }
    if (line === 'GEN-CYCLE') {
      this.flush();
      this.cycle++;
      return;
    }
    const match = PRINT_LINE.exec(line);
    if (!match) return;
    const scope = scopeOf(match[2]!);
    const rank = this.ranks.get(`${scope} ${match[1]}`);
    if (rank === undefined || this.streams.length === 0 || this.cycle < 0)
      throw new ToolError(this.engine, `a printf line of no printf of this run: ${line.slice(0, 200)}`);
    this.pending.push({ rank, line: { cycle: this.cycle, scope, text: match[3]! } });
  }

  /** The cycle's lines, in print order, into their stream. */
  private flush(): void {
    if (this.pending.length === 0) return;
    const stream = this.streams[this.streams.length - 1]!;
    if (stream.length + this.pending.length > PRINTED_LINE_LIMIT) throw tooManyPrintedLines();
    // Array.prototype.sort is stable: two lines of one printf in a cycle keep their order.
    for (const { line } of this.pending.sort((a, b) => a.rank - b.rank)) stream.push(line);
    this.pending = [];
  }
}

/** Every stream's printed lines from a batch run's log. */
export function parsePrintLog(design: IrDesign, log: string, streams: number, engine: string): PrintedLine[][] {
  const reader = new PrintLogReader(design, engine);
  for (const line of log.split('\n')) reader.line(line);
  return reader.results(streams);
}
