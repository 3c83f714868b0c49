import { RESET_PORT, moduleByName, type IrDesign, type IrModule } from '../../hw/ir/ir.ts';
import { evaluateOperator } from '../../hw/ir/evaluate.ts';
import type { CycleRun, PortValues } from '../../hw/contract/engine.ts';
import { PortFrames } from '../../hw/contract/portFrames.ts';
import { framedRun } from '../../engines/framedRun.ts';
import { harnessPortsOf } from '../../engines/harness/harnessStimulus.ts';

/**
 * A deliberately naive IR interpreter for tests: demand-driven evaluation straight from
 * hw/ir/evaluate.ts semantics, state as maps, the step contract written out plainly. Slow, but
 * it shares nothing with the Verilog emitter or the engines it checks.
 */
interface Instance {
  readonly module: IrModule;
  readonly registers: Map<number, bigint>;
  readonly memories: bigint[][];
  readonly children: Instance[];
}

function instantiate(design: IrDesign, name: string): Instance {
  const module = moduleByName(design, name);
  return {
    module,
    registers: new Map(module.registers.map((register) => [register.q, 0n])),
    memories: module.memories.map((memory) => [...(memory.init ?? new Array<bigint>(memory.depth).fill(0n))]),
    children: module.instances.map((instance) => instantiate(design, instance.module)),
  };
}

interface Evaluation {
  value(net: number): bigint;
  child(index: number): Evaluation;
}

function evaluate(instance: Instance, input: (port: string) => bigint): Evaluation {
  const { module } = instance;
  const cache = new Map<number, bigint>();
  const driver = new Map(module.cells.map((cell) => [cell.output, cell]));
  const instanceOutput = new Map<number, [number, string]>();
  module.instances.forEach((child, index) =>
    child.outputs.forEach((net, port) => instanceOutput.set(net, [index, port])),
  );
  const children: Evaluation[] = [];
  const child = (index: number): Evaluation =>
    (children[index] ??= evaluate(instance.children[index]!, (port) =>
      value(module.instances[index]!.inputs.get(port)!),
    ));
  const value = (net: number): bigint => {
    const known = cache.get(net);
    if (known !== undefined) return known;
    let result: bigint;
    const irNet = module.nets[net]!;
    const cell = driver.get(net);
    const fromChild = instanceOutput.get(net);
    if (irNet.kind === 'input') result = input(irNet.name);
    else if (instance.registers.has(net)) result = instance.registers.get(net)!;
    else if (fromChild) {
      const [index, port] = fromChild;
      const childModule = instance.children[index]!.module;
      result = child(index).value(childModule.ports.find((p) => p.name === port)!.net);
    } else if (!cell) throw new Error(`reference: net ${irNet.name} has no driver`);
    else if (cell.op === 'const') result = cell.constant!;
    else if (cell.op === 'memread') result = instance.memories[cell.memory!]![Number(value(cell.inputs[0]!))] ?? 0n;
    else
      result = evaluateOperator(cell.op, cell.inputs.map(value), {
        output: irNet.width,
        inputs: cell.inputs.map((i) => module.nets[i]!.width),
        ...(cell.hi === undefined ? {} : { hi: cell.hi, lo: cell.lo! }),
      });
    cache.set(net, result);
    return result;
  };
  return { value, child };
}

/** The clock edge: every update is computed from the old state first, then all are applied. */
function collectUpdates(instance: Instance, evaluation: Evaluation, updates: (() => void)[]): void {
  const { module } = instance;
  const reset = module.ports.find((port) => port.name === RESET_PORT);
  const resetting = reset !== undefined && evaluation.value(reset.net) === 1n;
  for (const register of module.registers) {
    const next = resetting && register.resetValue !== undefined ? register.resetValue : evaluation.value(register.d);
    updates.push(() => instance.registers.set(register.q, next));
  }
  module.memories.forEach((memory, index) => {
    for (const port of memory.writePorts) {
      if (evaluation.value(port.enable) === 0n) continue;
      const address = Number(evaluation.value(port.address));
      if (address >= memory.depth) continue;
      const data = evaluation.value(port.data);
      const lanes = port.mask === undefined ? undefined : evaluation.value(port.mask);
      const granularity = memory.granularity ?? 1;
      updates.push(() => {
        const words = instance.memories[index]!;
        let word = words[address]!;
        for (let bit = 0; bit < memory.width; bit++) {
          if (lanes !== undefined && ((lanes >> BigInt(Math.floor(bit / granularity))) & 1n) === 0n) continue;
          const one = 1n << BigInt(bit);
          word = (word & ~one) | (data & one);
        }
        words[address] = word;
      });
    }
  });
  instance.children.forEach((child, index) => collectUpdates(child, evaluation.child(index), updates));
}

/** Runs one stream from the all-zero state, per the step contract in hw/contract/engine.ts. */
export function referenceRun(design: IrDesign, inputs: readonly PortValues[]): CycleRun {
  const top = instantiate(design, design.top);
  const current = new Map<string, bigint>();
  const outputs: PortValues[] = [];
  for (const cycle of inputs) {
    for (const [name, value] of Object.entries(cycle)) current.set(name, value);
    const evaluation = evaluate(top, (port) => current.get(port) ?? 0n);
    const sampled: PortValues = {};
    for (const port of top.module.ports)
      if (port.direction === 'output') sampled[port.name] = evaluation.value(port.net);
    outputs.push(sampled);
    const updates: (() => void)[] = [];
    collectUpdates(top, evaluation, updates);
    updates.forEach((update) => update());
  }
  return framedRun(PortFrames.from(harnessPortsOf(design).outputs, outputs, design.top));
}
