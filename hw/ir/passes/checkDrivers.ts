import { MultipleDriverError, UndrivenSignalError } from '../../core/errors.ts';
import type { IrModule } from '../ir.ts';

/** Every net has exactly one driver: a cell, a register, an instance output or an input port. */
export function checkDrivers(module: IrModule): void {
  const drivers = new Uint32Array(module.nets.length);
  for (const port of module.ports) if (port.direction === 'input') drivers[port.net]!++;
  for (const cell of module.cells) drivers[cell.output]!++;
  for (const register of module.registers) drivers[register.q]!++;
  for (const instance of module.instances) for (const net of instance.outputs.values()) drivers[net]!++;
  module.nets.forEach((net, id) => {
    if (drivers[id] === 0) throw new UndrivenSignalError(net.location, `'${net.name}' in ${module.name} has no driver`);
    if (drivers[id]! > 1)
      throw new MultipleDriverError(net.location, `'${net.name}' in ${module.name} has ${drivers[id]} drivers`);
  });
}
