import { relative } from 'node:path';
import type { CommandModule } from 'yargs';
import { UserError } from '../../../common/errors.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { parseParams } from '../../project/project.ts';
import { once, outputFolder, projectOf, topOf, withDesigns, type DesignArguments } from '../project.ts';
import { verilogOutputs, writeFilesStaged } from '../../../hw/verilog/writeDesign.ts';

interface VerilogArguments extends DesignArguments {
  top?: string;
  all: boolean;
  param: string[];
  out?: string;
}

/**
 * `gen verilog`: elaborates a registered top and writes one `<Module>.v` per module plus
 * `manifest.json`. Everything is generated in memory first, so a bad top or parameter writes nothing.
 */
export const verilogCommand: CommandModule<object, VerilogArguments> = {
  command: 'verilog',
  builder: (yargs) =>
    withDesigns(yargs)
      .option('top', { type: 'string', describe: 'top to generate (see gen list)' })
      .option('all', {
        type: 'boolean',
        default: false,
        describe: 'generate every top of the project with default parameters, each into OUT/<top>/',
      })
      .option('param', {
        type: 'string',
        array: true,
        default: [],
        describe: 'parameter override name=value (repeatable; with --top)',
      })
      .option('out', { type: 'string', describe: 'output directory (default: out/verilog)' })
      .example('$0 verilog --top Counter --param width=16', 'writes out/verilog/Counter_width_16.v and manifest.json')
      .check((args) => {
        once(args, ['top', 'out']);
        if (args.all === (args.top !== undefined)) throw new UserError('give exactly one of --top NAME or --all');
        if (args.all && args.param.length > 0)
          throw new UserError("--param needs --top (--all uses every top's defaults)");
        return true;
      }),
  handler: async (args) => {
    const project = await projectOf(args);
    const out = outputFolder(project, args.out, 'verilog');
    const files = new Map<string, string>();
    if (args.top !== undefined) {
      const { top } = await topOf(args, args.top);
      for (const [name, text] of verilogOutputs(elaborate(top.definition, parseParams(top, args.param))))
        files.set(name, text);
    } else {
      if (project.tops.length === 0)
        throw new UserError('no tops: list designs in gen.config.ts or give --design FILE');
      for (const top of project.tops)
        for (const [name, text] of verilogOutputs(elaborate(top.definition))) files.set(`${top.name}/${name}`, text);
    }
    writeFilesStaged(out, files);
    const modules = [...files.keys()].filter((name) => name.endsWith('.v')).length;
    process.stdout.write(
      `wrote ${modules} Verilog module file${modules === 1 ? '' : 's'} and ${files.size - modules} manifest${files.size - modules === 1 ? '' : 's'} to ${args.out ?? relativeOut(out)}\n`,
    );
  },
};

/** The output folder as the user would type it from here. */
const relativeOut = (folder: string): string => relative(process.cwd(), folder) || '.';
