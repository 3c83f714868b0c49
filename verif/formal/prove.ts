import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../../common/atomicWrite.ts';
import { FieldError, UserError } from '../../common/errors.ts';
import type { SourceLocation } from '../../hw/core/sourceLocation.ts';
import { placedChecks } from '../../hw/contract/checks.ts';
import { CLOCK_PORT, clockPortsOf, topModule, type IrDesign } from '../../hw/ir/ir.ts';
import { formatVectorValue } from '../../engines/vectors.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import {
  checkKey,
  decideModel,
  onlyChecksOf,
  selectProperties,
  type AbcEngine,
  type ModelOutcome,
} from './formalModel.ts';

/** How hard to try: BMC depth (cycles) and the seconds each ABC engine may run. */
export interface ProveOptions {
  readonly depth: number;
  readonly seconds: number;
  /** Folder for counterexamples and cover traces (`<name>.jsonl` + `<name>.vcd`). */
  readonly out: string;
  /** Skip PDR and only search to `depth` (for tops too large for an unbounded proof in the time). */
  readonly boundedOnly?: boolean;
  /** Prove only the checks of these modules (the rest of the design is cut to what they read). */
  readonly only?: ReadonlySet<string>;
}

/**
 * What `gen prove` says of one property. Assertions: proved (every cycle, PDR), bounded (no
 * failure within `depth` cycles, BMC; PDR undecided), failed (a counterexample), undecided.
 * Cover points: reachable (a trace), unreachable (PDR proved it never holds), unreached within
 * `depth` (BMC), undecided.
 */
export interface PropertyResult {
  readonly kind: 'assert' | 'cover';
  readonly module: string;
  readonly index: number;
  readonly message: string;
  readonly location: SourceLocation;
  readonly status: 'proved' | 'bounded' | 'failed' | 'reachable' | 'unreachable' | 'unreached' | 'undecided';
  readonly depth?: number;
  /** The cycle the counterexample fails at, or the cover point is reached at. */
  readonly cycle?: number;
  /** The trace: vector file (engines/vectors.ts format, replayable by `gen sim`) and VCD. */
  readonly trace?: { readonly vectors: string; readonly vcd: string };
  readonly why?: string;
  readonly seconds: number;
}

/** The checks of a design, once per module (a module's check is proved for all its instances). */
function checksOf(
  design: IrDesign,
): { module: string; index: number; kind: string; message: string; location: SourceLocation }[] {
  const seen = new Set<string>();
  return placedChecks(design).flatMap(({ check, module, index }) => {
    const key = checkKey(module, index);
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ module, index, kind: check.kind, message: check.message, location: check.location }];
  });
}

/** Writes frames as a vector file and replays them on the ts engine (count mode) with a VCD. */
async function writeTrace(
  design: IrDesign,
  frames: readonly PortValues[],
  out: string,
  name: string,
): Promise<{ vectors: string; vcd: string; run: Awaited<ReturnType<TsEngine['run']>> }> {
  mkdirSync(resolve(out), { recursive: true });
  const vectors = join(out, `${name}.jsonl`);
  const vcd = join(out, `${name}.vcd`);
  writeFileAtomic(
    resolve(vectors),
    frames
      .map((frame) =>
        JSON.stringify({
          in: Object.fromEntries(Object.entries(frame).map(([port, value]) => [port, formatVectorValue(value)])),
        }),
      )
      .join('\n') + '\n',
  );
  const run = await new TsEngine().run(design, frames, { checks: 'count', vcd: resolve(vcd) });
  return { vectors, vcd, run };
}

const elapsed = (start: number): number => Math.round((performance.now() - start) / 100) / 10;

/**
 * Proves every assertion of the design under its assumptions, and decides every cover point,
 * with Yosys + ABC (formalModel.ts). Assertions are proved together; when a counterexample comes
 * back it is replayed on the ts engine, which names the assertions it breaks (those are 'failed',
 * with the trace) and the rest are proved again without them. Each cover point is its own model.
 */
export async function proveDesign(whole: IrDesign, options: ProveOptions): Promise<PropertyResult[]> {
  const clocks = clockPortsOf(topModule(whole));
  // The model steps one clock per frame; several clocks would need their interleavings modelled.
  if (clocks.length > 1 || (clocks.length === 1 && clocks[0] !== CLOCK_PORT))
    throw new UserError(
      `${whole.top} is clocked by ${clocks.join(', ')}; gen prove handles designs with one clock, the default clk`,
    );
  for (const name of options.only ?? [])
    if (!whole.modules.some((module) => module.name === name))
      throw new FieldError(
        'only',
        `${name}: ${whole.top} has no module ${name} (modules: ${whole.modules.map((module) => module.name).join(', ')})`,
      );
  const design = options.only ? onlyChecksOf(whole, options.only) : whole;
  const checks = checksOf(design);
  const engines: AbcEngine[] = [
    ...(options.boundedOnly ? [] : [{ kind: 'pdr', seconds: options.seconds } as const]),
    { kind: 'bmc', depth: options.depth, seconds: options.seconds },
  ];
  const results = new Map<string, PropertyResult>();
  const asserts = checks.filter((check) => check.kind === 'assert');
  const skip = new Set<string>();
  while (asserts.some((check) => !skip.has(checkKey(check.module, check.index)))) {
    const start = performance.now();
    const outcome = await decideModel(selectProperties(design, { kind: 'asserts', skip }), engines);
    const open = asserts.filter((check) => !skip.has(checkKey(check.module, check.index)));
    const settle = (status: PropertyResult['status'], extra: Partial<PropertyResult> = {}): void => {
      for (const check of open)
        results.set(checkKey(check.module, check.index), {
          kind: 'assert',
          module: check.module,
          index: check.index,
          message: check.message,
          location: check.location,
          status,
          seconds: elapsed(start),
          ...extra,
        });
    };
    if (outcome.kind !== 'fails') {
      settle(...statusOf(outcome, 'assert', options.depth));
      break;
    }
    const name = `assert-${open[0]!.module}-${open[0]!.index}`;
    const trace = await writeTrace(whole, outcome.frames, options.out, name);
    const failures = (trace.run.checks?.failures ?? []).filter(
      (failure) =>
        failure.kind === 'assert' &&
        !skip.has(checkKey(failure.module, failure.index)) &&
        (!options.only || options.only.has(failure.module)),
    );
    if (failures.length === 0) {
      settle('undecided', { why: 'the counterexample did not replay on the ts engine' });
      break;
    }
    const first = Math.min(...failures.map((failure) => failure.cycle));
    // The trace ends at the failing cycle, so `gen sim` on it stops at the same assertion.
    const cut = await writeTrace(whole, outcome.frames.slice(0, first + 1), options.out, name);
    for (const failure of failures.filter((candidate) => candidate.cycle === first)) {
      const key = checkKey(failure.module, failure.index);
      if (skip.has(key)) continue;
      skip.add(key);
      results.set(key, {
        kind: 'assert',
        module: failure.module,
        index: failure.index,
        message: failure.message,
        location: failure.location,
        status: 'failed',
        cycle: first,
        trace: { vectors: cut.vectors, vcd: cut.vcd },
        seconds: elapsed(start),
      });
    }
  }
  for (const check of checks.filter((candidate) => candidate.kind === 'cover')) {
    const start = performance.now();
    const outcome = await decideModel(
      selectProperties(design, { kind: 'cover', module: check.module, index: check.index }),
      engines,
    );
    const base = {
      kind: 'cover' as const,
      module: check.module,
      index: check.index,
      message: check.message,
      location: check.location,
    };
    if (outcome.kind === 'fails') {
      // The model's assertion is registered: the cover holds in the cycle before the last frame.
      const frames = outcome.frames.slice(0, Math.max(1, outcome.frames.length - 1));
      const trace = await writeTrace(whole, frames, options.out, `cover-${check.module}-${check.message}`);
      const hits = Object.entries(trace.run.checks?.covers ?? {}).some(
        ([name, count]) => (name === check.message || name.endsWith(`.${check.message}`)) && count > 0,
      );
      results.set(checkKey(check.module, check.index), {
        ...base,
        status: hits ? 'reachable' : 'undecided',
        cycle: frames.length - 1,
        trace: { vectors: trace.vectors, vcd: trace.vcd },
        seconds: elapsed(start),
        ...(hits ? {} : { why: 'the trace did not replay to the cover point on the ts engine' }),
      });
      continue;
    }
    const [status, extra] = statusOf(outcome, 'cover', options.depth);
    results.set(checkKey(check.module, check.index), { ...base, status, seconds: elapsed(start), ...extra });
  }
  return checks.flatMap((check) => {
    const result = results.get(checkKey(check.module, check.index));
    return result ? [result] : [];
  });
}

function statusOf(
  outcome: Exclude<ModelOutcome, { kind: 'fails' }>,
  kind: 'assert' | 'cover',
  depth: number,
): [PropertyResult['status'], Partial<PropertyResult>] {
  if (outcome.kind === 'holds') return [kind === 'assert' ? 'proved' : 'unreachable', {}];
  if (outcome.kind === 'holdsTo') return [kind === 'assert' ? 'bounded' : 'unreached', { depth }];
  return ['undecided', { why: outcome.why }];
}
