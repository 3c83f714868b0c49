import { ToolError } from '../../common/errors.ts';
import { coverName, placedChecks, type CheckFailure, type CheckResults } from '../../hw/contract/checks.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';
import { CHECK_LINE_TAG, COVER_LINE_TAG } from '../../hw/verilog/emit.ts';

const CHECK_OK_LINE = new RegExp(`^${CHECK_LINE_TAG}-OK (\\S+) (\\d+) (\\S+)$`);
const COVER_LINE = new RegExp(`^${COVER_LINE_TAG}(-OFF)? (\\S+) (\\d+) (\\S+)$`);
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
 * Cover points print `GEN-COVER <module> <index> <instance>` in each cycle they hold (a
 * combinational one while it holds, `GEN-COVER-OFF …` when it stops): each stream's `covers` has
 * every cover point of the design with the cycles it held, as the ts engine counts them.
 */
export function parseCheckLog(design: IrDesign, log: string, streams: number, engine: string): CheckResults[] {
  const reader = new CheckLogReader(design, engine);
  for (const line of log.split('\n')) reader.line(line);
  return reader.results(streams);
}

/** parseCheckLog line by line, for a session that looks at the failures after every step. */
export class CheckLogReader {
  private readonly streams: { failures: CheckFailure[]; covers: Record<string, number> }[] = [];
  /** Every cover point's name in CheckResults.covers and whether its module is clocked, by `<module> <index> <scope>`. */
  private readonly coverPoints = new Map<string, { readonly name: string; readonly clocked: boolean }>();
  /** Combinational cover points print only when their inputs change: one holding holds until its OFF line. */
  private readonly holding = new Set<string>();
  /** The cycle whose sample point was passed last (-1: none yet in this stream). */
  private cycle = -1;
  /** Combinational checks print only when their inputs change: one false stays false until its OK line. */
  private readonly failing = new Map<string, CheckFailure>();

  constructor(
    private readonly design: IrDesign,
    private readonly engine: string,
  ) {
    for (const { check, module, index, scope } of placedChecks(design))
      if (check.kind === 'cover')
        this.coverPoints.set(`${module} ${index} ${scope}`, {
          name: coverName(scope, check.message),
          clocked: design.modules.find((candidate) => candidate.name === module)!.clocked,
        });
  }

  private freshStream(): { failures: CheckFailure[]; covers: Record<string, number> } {
    return { failures: [], covers: Object.fromEntries([...this.coverPoints.values()].map(({ name }) => [name, 0])) };
  }

  /** The failures of the stream read last, so far. */
  get failures(): readonly CheckFailure[] {
    return this.streams[this.streams.length - 1]?.failures ?? [];
  }

  /** Per stream (`count` of them), its failures in order and its cover points' hits. */
  results(count: number): CheckResults[] {
    const results = this.streams.map((stream) => ({ failures: [...stream.failures], covers: { ...stream.covers } }));
    while (results.length < count) results.push(this.freshStream());
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
      this.streams.push(this.freshStream());
      // A new model prints each false combinational check as it settles; the same simulation
      // (Icarus) goes on, and a check its new inputs leave alone prints nothing: its state is kept.
      if (line === 'GEN-STREAM') {
        failing.clear();
        this.holding.clear();
      }
      this.cycle = -1;
      return;
    }
    if (line === 'GEN-CYCLE') {
      this.cycle++;
      for (const failure of failing.values()) this.record({ ...failure, cycle: this.cycle });
      for (const cover of this.holding) this.hit(cover);
      return;
    }
    const cover = COVER_LINE.exec(line);
    if (cover) {
      this.coverLine(cover[1] !== undefined, cover[2]!, Number(cover[3]), cover[4]!, line);
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
    const scope = scopeOf(instance ?? '');
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

  /** A clocked cover point's line counts a hit in this cycle; a combinational one's holds it until OFF. */
  private coverLine(off: boolean, moduleName: string, index: number, instance: string, line: string): void {
    const key = `${moduleName} ${index} ${scopeOf(instance)}`;
    const point = this.coverPoints.get(key);
    if (!point)
      throw new ToolError(this.engine, `a cover line of no cover point of ${this.design.top}: ${line.slice(0, 200)}`);
    if (!this.streams.length) throw new ToolError(this.engine, `a cover line before any stream: ${line.slice(0, 200)}`);
    if (off) this.holding.delete(key);
    else if (!point.clocked) this.holding.add(key);
    else if (this.cycle >= 0) this.hit(key);
  }

  private hit(key: string): void {
    const covers = this.streams[this.streams.length - 1]!.covers;
    const { name } = this.coverPoints.get(key)!;
    covers[name] = covers[name]! + 1;
  }
}

/** The instance path from the top of a `%m` name (`tb.dut.a.b` → `a.b`; Verilator's `TOP.Top.a.b` alike). */
export const scopeOf = (instance: string): string => instance.split('.').slice(2).join('.');
