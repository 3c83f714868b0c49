import type { IrModule } from '../ir.ts';

/**
 * The one place names are settled: user names stay as written (the builder already refused
 * duplicates), and unnamed nodes get `_n<k>` names that collide with none of them.
 */
export function assignNames(module: IrModule): IrModule {
  const taken = new Set(module.nets.filter((net) => net.kind !== 'node').map((net) => net.name));
  let counter = 0;
  const nets = module.nets.map((net) => {
    if (net.kind !== 'node') return net;
    let name: string;
    do name = `_n${counter++}`;
    while (taken.has(name));
    return { ...net, name };
  });
  return { ...module, nets };
}
