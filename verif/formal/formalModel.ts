import { ToolError } from '../../common/errors.ts';
import type { IrCheck, IrDesign, IrModule } from '../../hw/ir/ir.ts';
import { topModule, CLOCK_PORT } from '../../hw/ir/ir.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { readOutputs, runTool, withWorkspace } from '../../tools/runTool.ts';
import type { PortValues } from '../../hw/contract/engine.ts';

/** Which properties one model checks: every assertion, or one cover point turned into "never reached". */
export type PropertySelection =
  | { readonly kind: 'asserts'; readonly skip: ReadonlySet<string> }
  | { readonly kind: 'cover'; readonly module: string; readonly index: number };

/** `Module#index`: a check's key (one per module, shared by all its instances). */
export const checkKey = (module: string, index: number): string => `${module}#${index}`;

/**
 * The design with only the selected properties: assumptions always stay; for 'asserts' every
 * assertion not in `skip` and no cover; for 'cover' only that cover point, as an assertion that
 * it never holds (a counterexample is then a trace that reaches it).
 */
export function selectProperties(design: IrDesign, selection: PropertySelection): IrDesign {
  const modules = design.modules.map((module): IrModule => {
    if (!module.checks) return module;
    const nets = [...module.nets];
    const cells = [...module.cells];
    const checks: IrCheck[] = [];
    module.checks.forEach((check, index) => {
      if (check.kind === 'assume') checks.push(check);
      else if (selection.kind === 'asserts') {
        if (check.kind === 'assert' && !selection.skip.has(checkKey(module.name, index))) checks.push(check);
      } else if (check.kind === 'cover' && selection.module === module.name && selection.index === index) {
        const id = nets.length;
        nets.push({ id, name: `formal_not_${check.message}`, width: 1, kind: 'node', location: check.location });
        cells.push({ op: 'not', output: id, inputs: [check.condition], location: check.location });
        checks.push({ ...check, kind: 'assert', condition: id });
      }
    });
    return { ...module, nets, cells, checks };
  });
  return { ...design, modules };
}

/**
 * Yosys: the FORMAL Verilog (SYNTHESIS defined, so the simulators' $display form is left out),
 * flattened, memories as registers, every register starting at zero (the engines' step contract:
 * all state 0 at the start of a stream; reset is an ordinary input), assertions as the AIGER's
 * bad-state output and assumptions as its constraint. The top's outputs are dropped: only the
 * properties are outputs.
 */
function yosysScript(files: readonly string[], top: string): string {
  return [
    `read_verilog -formal -DSYNTHESIS ${files.join(' ')}`,
    `hierarchy -check -top ${top}`,
    'proc',
    'flatten',
    'chformal -cover -remove',
    // Only the properties are outputs: what feeds nothing but the top's ports (MmaUnit's whole
    // datapath, for its handshake) goes before any optimization or mapping.
    'delete -output o:*',
    'opt_clean',
    'memory -nomap',
    'opt -fast',
    'memory_map',
    'opt -fast',
    'setundef -zero -init',
    'async2sync',
    'opt -fast',
    'techmap',
    'opt -fast',
    'dffunmap',
    'opt_clean',
    // Undefined bits Yosys itself leaves, and the outputs of instances onlyChecksOf dropped: 0.
    'setundef -zero -undriven',
    'aigmap',
    'write_aiger -map model.map model.aig',
  ].join('\n');
}

/** What ABC decided about a model. */
export type ModelOutcome =
  | { readonly kind: 'holds' }
  | { readonly kind: 'holdsTo'; readonly depth: number }
  | { readonly kind: 'fails'; readonly frames: PortValues[] }
  | { readonly kind: 'undecided'; readonly why: string };

/** One ABC engine: `pdr` (unbounded) or `bmc3` (to a depth). */
export type AbcEngine =
  | { readonly kind: 'pdr'; readonly seconds: number }
  | { readonly kind: 'bmc'; readonly depth: number; readonly seconds: number };

/**
 * Lowers the design's selected properties to an AIGER model with Yosys and decides it with ABC
 * (the Yosys/ABC flow of the mutation miters, verif/regress/mutation/abcMiter.ts): `fold` turns the
 * assumptions into a constraint on every step, then PDR proves for every cycle or BMC searches to
 * a depth. A failure comes back as the top's inputs per cycle, read through Yosys' AIGER map.
 */
export async function decideModel(design: IrDesign, engines: readonly AbcEngine[]): Promise<ModelOutcome> {
  const files = Object.fromEntries(emitVerilog(design));
  const names = Object.keys(files).sort();
  const top = topModule(design);
  const slowest = Math.max(...engines.map((engine) => engine.seconds));
  return withWorkspace('formal', { ...files, 'model.ys': yosysScript(names, top.name) }, async (dir) => {
    await runTool('yosys', ['-q', '-s', 'model.ys'], { cwd: dir, timeout: 10 * 60_000 });
    const map = readOutputs(dir, ['model.map'])['model.map'] ?? '';
    let last: ModelOutcome = { kind: 'undecided', why: 'no engine ran' };
    for (const engine of engines) {
      const command =
        engine.kind === 'pdr' ? `pdr -T ${engine.seconds}` : `bmc3 -F ${engine.depth + 1} -T ${engine.seconds}`;
      let stdout: string;
      try {
        ({ stdout } = await runTool('yosys-abc', ['-c', `read model.aig; fold; ${command}; write_cex -n cex.txt`], {
          cwd: dir,
          timeout: (slowest + 60) * 1000,
        }));
      } catch (error) {
        // ABC does not always keep to -T on large models: a run past it is an engine out of time.
        if (!(error instanceof ToolError) || !/timed out/.test(error.message)) throw error;
        last = { kind: 'undecided', why: `${engine.kind} did not finish in ${engine.seconds + 60} s` };
        continue;
      }
      if (/was asserted in frame/.test(stdout)) {
        const cex = readOutputs(dir, ['cex.txt'])['cex.txt'];
        if (!cex) throw new ToolError('yosys-abc', 'reported a failure but wrote no counterexample');
        return { kind: 'fails', frames: framesOf(cex, map, top) };
      }
      if (engine.kind === 'pdr' && /Property proved/.test(stdout)) return { kind: 'holds' };
      if (engine.kind === 'bmc' && /No output asserted in/.test(stdout))
        last = { kind: 'holdsTo', depth: engine.depth };
      else if (/no (primary )?outputs|i\/o = +\d+\/ +0/i.test(stdout)) return { kind: 'holds' };
      else last = { kind: 'undecided', why: `${engine.kind} ran out of time (${engine.seconds} s)` };
    }
    return last;
  });
}

/**
 * The counterexample (`write_cex -n`: `pi<k>@<step>=<bit>`) as the top's inputs per cycle, every
 * input given in every cycle; bits are named through the map (`input <k> <bit> <port>`).
 */
function framesOf(cex: string, map: string, top: IrModule): PortValues[] {
  const inputs = new Map<number, { port: string; bit: number }>();
  for (const [, index, bit, name] of map.matchAll(/^input (\d+) (\d+) (\S+)$/gm))
    inputs.set(Number(index), { port: name!, bit: Number(bit) });
  const ports = top.ports.filter((port) => port.direction === 'input' && port.name !== CLOCK_PORT);
  const frames: PortValues[] = [];
  for (const [, index, step, value] of cex.matchAll(/^pi(\d+)@(\d+)=([01])$/gm)) {
    const at = Number(step);
    while (frames.length <= at) frames.push(Object.fromEntries(ports.map((port) => [port.name, 0n])));
    const input = inputs.get(Number(index));
    if (!input || !(input.port in frames[at]!)) continue;
    frames[at]![input.port] = frames[at]![input.port]! | (BigInt(value!) << BigInt(input.bit));
  }
  return frames;
}

/**
 * The design with only the checks of `modules` (every other module's assertions, assumptions and
 * cover points dropped), less every instance that then holds no check and drives nothing a check
 * reads: a cone of influence over the hierarchy, from the checks and, per module, the outputs its
 * parents read (MmaUnit's handshake without its 128 MACs). A dropped instance's outputs are left
 * undriven; nothing the model keeps reads them.
 */
export function onlyChecksOf(design: IrDesign, modules: ReadonlySet<string>): IrDesign {
  const selected = design.modules.map((module): IrModule =>
    modules.has(module.name) ? module : { ...module, checks: [] },
  );
  // Whether a module holds a selected check, itself or below (children come first in the list).
  const holdsChecks = new Map<string, boolean>();
  for (const module of selected)
    holdsChecks.set(
      module.name,
      (module.checks?.length ?? 0) > 0 || module.instances.some((instance) => holdsChecks.get(instance.module)),
    );
  // Output ports of each module some kept parent reads; parents are settled first (reverse order).
  const demanded = new Map<string, Set<string>>(selected.map((module) => [module.name, new Set<string>()]));
  const kept = new Map<string, IrModule>();
  for (const module of [...selected].reverse()) {
    const driver = new Map<number, readonly number[]>();
    module.cells.forEach((cell) => driver.set(cell.output, cell.inputs));
    module.registers.forEach((register) => driver.set(register.q, [register.d]));
    module.instances.forEach((instance) => {
      for (const net of instance.outputs.values()) driver.set(net, [...instance.inputs.values()]);
    });
    const live = new Set<number>();
    const work: number[] = [];
    const mark = (net: number): void => {
      if (live.has(net)) return;
      live.add(net);
      work.push(net);
    };
    for (const check of module.checks ?? []) mark(check.condition);
    for (const port of module.ports) if (demanded.get(module.name)!.has(port.name)) mark(port.net);
    for (const instance of module.instances)
      if (holdsChecks.get(instance.module)) for (const net of instance.inputs.values()) mark(net);
    while (work.length > 0) for (const net of driver.get(work.pop()!) ?? []) mark(net);
    const instances = module.instances.filter(
      (instance) => holdsChecks.get(instance.module) || [...instance.outputs.values()].some((net) => live.has(net)),
    );
    for (const instance of instances)
      for (const [port, net] of instance.outputs) if (live.has(net)) demanded.get(instance.module)!.add(port);
    kept.set(module.name, { ...module, instances });
  }
  // Modules no kept instance uses any more are left out of the files.
  const used = new Set<string>();
  const visit = (name: string): void => {
    if (used.has(name)) return;
    used.add(name);
    for (const instance of kept.get(name)!.instances) visit(instance.module);
  };
  visit(design.top);
  return {
    ...design,
    modules: selected.filter((module) => used.has(module.name)).map((module) => kept.get(module.name)!),
  };
}
