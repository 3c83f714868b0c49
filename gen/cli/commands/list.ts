import type { CommandModule } from 'yargs';
import { registry } from '../../registry.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { topModule } from '../../../hw/ir/ir.ts';

interface ListArguments {
  json: boolean;
}

/** `gen list`: the registered tops, their parameters (with defaults) and ports. */
export const listCommand: CommandModule<object, ListArguments> = {
  command: 'list',
  describe: 'List the registered tops, their parameters and ports',
  builder: (yargs) => yargs.option('json', { type: 'boolean', default: false, describe: 'machine-readable output' }),
  handler: (args) => {
    const rows = registry.map((top) => {
      const module = topModule(elaborate(top.definition));
      return {
        name: top.name,
        kind: top.kind,
        description: top.description,
        parameters: Object.entries(top.definition.defaults).map(([name, value]) => ({ name, default: value, doc: top.definition.parameterDocs?.[name] ?? '' })),
        ports: module.ports.map((port) => ({ name: port.name, direction: port.direction, width: port.width })),
      };
    });
    if (args.json) {
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      return;
    }
    for (const row of rows) {
      const parameters = row.parameters.map((parameter) => `${parameter.name}=${parameter.default}`).join(' ');
      process.stdout.write(`${row.name.padEnd(24)} ${row.kind.padEnd(8)} ${row.description}\n`);
      if (parameters) process.stdout.write(`${''.padEnd(24)} params: ${parameters}\n`);
      const ports = row.ports.map((port) => `${port.direction === 'input' ? 'in' : 'out'} ${port.name}[${port.width}]`).join(', ');
      process.stdout.write(`${''.padEnd(24)} ports: ${ports}\n`);
    }
  },
};
