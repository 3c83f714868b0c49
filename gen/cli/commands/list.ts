import type { CommandModule } from 'yargs';
import { projectOf, withDesigns, type DesignArguments } from '../project.ts';
import { flattenPorts, type Params } from '../../../hw/core/index.ts';

interface ListArguments extends DesignArguments {
  json: boolean;
}

/** `gen list`: the project's tops (gen.config.ts and --design files), their parameters (with defaults) and ports. */
export const listCommand: CommandModule<object, ListArguments> = {
  command: 'list',
  builder: (yargs) =>
    withDesigns(yargs.option('json', { type: 'boolean', default: false, describe: 'machine-readable output' })),
  handler: async (args) => {
    const { tops } = await projectOf(args);
    if (tops.length === 0 && !args.json)
      process.stderr.write('gen list: no tops here (list designs in gen.config.ts, or give --design FILE)\n');
    // Ports come from the definitions, without elaborating (the MmaUnit alone takes seconds);
    // clocked tops also have the implicit clk and reset.
    const rows = tops.map((top) => {
      const ports = flattenPorts(top.definition.ports(top.definition.defaults as Params));
      return {
        name: top.name,
        kind: top.kind,
        description: top.description,
        parameters: Object.entries(top.definition.defaults).map(([name, value]) => ({
          name,
          default: value,
          doc: top.definition.parameterDocs?.[name] ?? '',
        })),
        ports: ports.map((port) => ({ name: port.name, direction: port.spec.direction, width: port.spec.width })),
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
      const ports = row.ports
        .map((port) => `${port.direction === 'input' ? 'in' : 'out'} ${port.name}[${port.width}]`)
        .join(', ');
      process.stdout.write(`${''.padEnd(24)} ports: ${ports}\n`);
    }
  },
};
