import { ToolError } from '../common/errors.ts';
import { type CheckFailure, type CheckResults } from '../hw/ir/checks.ts';
import type { IrDesign } from '../hw/ir/ir.ts';
import { CHECK_LINE_TAG } from '../hw/verilog/emit.ts';

const CHECK_OK_LINE = new RegExp(`^${CHECK_LINE_TAG}-OK (\\S+) (\\d+) (\\S+)$`);
const CHECK_LINE = new RegExp(`^${CHECK_LINE_TAG} (\\S+) (\\d+) (\\S+)((?: [0-9a-fA-FxXzZ]+)*) \\|`);

/**
 * Reads what an external simulator printed for a design with checks: `GEN-STREAM` at each stream
 * start (`GEN-STREAM-SAME` when the simulation goes on rather than a new model starting) and `GEN-CYCLE` at each cycle's sample point (inputs applied and settled, before the
 * edge; the harness's, see HarnessPorts.checked), and between them the design's
 * `GEN-CHECK <module> <index> <instance> <values…> | <text>` lines (hw/verilog/emit.ts). A clocked
 * check prints at the edge, after its cycle's marker. A combinational one prints while false
 * whenever its inputs change and `GEN-CHECK-OK …` once when it holds again, so what it printed
 * last before a marker is its state in that cycle's sample (settling, and values between the edge
 * and the next inputs, count for nothing). Gives per stream the failures in order, each with its
 * cycle, message, user location and the values its condition read, as the ts engine reports them.
 * Cover points are not printed (`covers` stays empty: the ts engine counts hits, `gen prove`
 * decides reachability).
 */
export function parseCheckLog(design: IrDesign, log: string, streams: number, engine: string): CheckResults[] {
  const reader = new CheckLogReader(design, engine);
  for (const line of log.split('\n')) reader.line(line);
  return reader.results(streams);
}

/** parseCheckLog line by line, for a session that looks at the failures after every step. */
export class CheckLogReader {
  private readonly streams: { failures: CheckFailure[]; covers: Record<string, number> }[] = [];
  /** The cycle whose sample point was passed last (-1: none yet in this stream). */
  private cycle = -1;
  /** Combinational checks print only when their inputs change: one false stays false until its OK line. */
  private readonly failing = new Map<string, CheckFailure>();

  constructor(
    private readonly design: IrDesign,
    private readonly engine: string,
  ) {}

  /** The failures of the stream read last, so far. */
  get failures(): readonly CheckFailure[] {
    return this.streams[this.streams.length - 1]?.failures ?? [];
  }

  /** Per stream (`count` of them), its failures in order and (empty) covers. */
  results(count: number): CheckResults[] {
    const results = this.streams.map((stream) => ({ failures: [...stream.failures], covers: {} }));
    while (results.length < count) results.push({ failures: [], covers: {} });
    return results.slice(0, count);
  }

  private record(failure: CheckFailure): void {
    const current = this.streams[this.streams.length - 1]!;
    // A check may print more than once in one cycle (its inputs settling): once is enough.
    const repeated = current.failures.some(
      (seen) =>
        seen.cycle === failure.cycle &&
        seen.module === failure.module &&
        seen.index === failure.index &&
        seen.scope === failure.scope,
    );
    if (!repeated) current.failures.push(failure);
  }

  line(line: string): void {
    const { failing } = this;
    if (line === 'GEN-STREAM' || line === 'GEN-STREAM-SAME') {
      this.streams.push({ failures: [], covers: {} });
      // A new model prints each false combinational check as it settles; the same simulation
      // (Icarus) goes on, and a check its new inputs leave alone prints nothing: its state is kept.
      if (line === 'GEN-STREAM') failing.clear();
      this.cycle = -1;
      return;
    }
    if (line === 'GEN-CYCLE') {
      this.cycle++;
      for (const failure of failing.values()) this.record({ ...failure, cycle: this.cycle });
      return;
    }
    const ok = CHECK_OK_LINE.exec(line);
    if (ok) {
      failing.delete(`${ok[1]} ${ok[2]} ${ok[3]}`);
      return;
    }
    const match = CHECK_LINE.exec(line);
    if (!match) return;
    const { design, engine } = this;
    const current = this.streams[this.streams.length - 1];
    if (!current) throw new ToolError(engine, `a check line before any stream: ${line.slice(0, 200)}`);
    const [, moduleName, indexText, instance, valueText] = match;
    const module = design.modules.find((candidate) => candidate.name === moduleName);
    const index = Number(indexText);
    const check = module?.checks?.[index];
    if (!module || !check)
      throw new ToolError(engine, `a check line of no check of ${design.top}: ${line.slice(0, 200)}`);
    const texts = (valueText ?? '').trim().split(' ').filter(Boolean);
    const values: Record<string, bigint> = {};
    check.reads.forEach((net, at) => {
      const text = texts[at] ?? '0';
      // 2-state engines print no x or z; should one appear, it counts as 0.
      values[module.nets[net]!.name] = BigInt(`0x${text.replace(/[xXzZ]/g, '0')}`);
    });
    const scope = (instance ?? '').split('.').slice(2).join('.');
    const failure: CheckFailure = {
      kind: check.kind,
      message: check.message,
      location: check.location,
      cycle: this.cycle,
      scope,
      module: module.name,
      index,
      values,
    };
    if (!module.clocked) failing.set(`${moduleName} ${indexText} ${instance}`, failure);
    else if (this.cycle >= 0) this.record(failure);
  }
}
