import type { CommandModule } from 'yargs';
import { UserError } from '../../../common/errors.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { findTop, parseParams, registry } from '../../registry.ts';
import { verilogOutputs, writeFilesStaged } from '../../../hw/verilog/writeDesign.ts';

interface VerilogArguments {
  top?: string;
  all: boolean;
  param: string[];
  out: string;
}

/**
 * `gen verilog`: elaborates a registered top and writes one `<Module>.v` per module plus
 * `manifest.json`. Everything is generated in memory first, so a bad top or parameter writes nothing.
 */
export const verilogCommand: CommandModule<object, VerilogArguments> = {
  command: 'verilog',
  builder: (yargs) =>
    yargs
      .option('top', { type: 'string', describe: 'registered top to generate (see gen list)' })
      .option('all', {
        type: 'boolean',
        default: false,
        describe: 'generate every registered top with default parameters, each into OUT/<top>/',
      })
      .option('param', {
        type: 'string',
        array: true,
        default: [],
        describe: 'parameter override name=value (repeatable; with --top)',
      })
      .option('out', { type: 'string', default: 'out/verilog', describe: 'output directory' })
      .example('$0 verilog --top Counter --param width=16', 'writes out/verilog/Counter_width_16.v and manifest.json')
      .check((args) => {
        for (const name of ['top', 'out'] as const)
          if (Array.isArray(args[name])) throw new UserError(`give --${name} once`);
        if (args.all === (args.top !== undefined)) throw new UserError('give exactly one of --top NAME or --all');
        if (args.all && args.param.length > 0)
          throw new UserError("--param needs --top (--all uses every top's defaults)");
        return true;
      }),
  handler: (args) => {
    const files = new Map<string, string>();
    if (args.top !== undefined) {
      const top = findTop(args.top);
      for (const [name, text] of verilogOutputs(elaborate(top.definition, parseParams(top, args.param))))
        files.set(name, text);
    } else {
      for (const top of registry)
        for (const [name, text] of verilogOutputs(elaborate(top.definition))) files.set(`${top.name}/${name}`, text);
    }
    writeFilesStaged(args.out, files);
    const modules = [...files.keys()].filter((name) => name.endsWith('.v')).length;
    process.stdout.write(
      `wrote ${modules} Verilog module file${modules === 1 ? '' : 's'} and ${files.size - modules} manifest${files.size - modules === 1 ? '' : 's'} to ${args.out}\n`,
    );
  },
};
