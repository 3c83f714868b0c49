import { sourceText } from './sourceText.ts';
import { moduleByName, type IrDesign, type NetKind } from '../ir/ir.ts';
import { verilogIdentifier } from '../ir/identifiers.ts';

export { VCD_ROOT } from '../ir/identifiers.ts';

export interface ManifestPort {
  readonly name: string;
  readonly direction: 'input' | 'output';
  readonly width: number;
}

export interface ManifestModule {
  readonly name: string;
  readonly file: string;
  readonly definition: string;
  readonly description?: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly source: string;
  readonly ports: readonly ManifestPort[];
  readonly instances: readonly { readonly name: string; readonly module: string }[];
}

/** One named signal at one place in the hierarchy. */
export interface SourceMapEntry {
  /** Instance path from the top, dot-separated, ending in the signal's DSL name. */
  readonly path: string;
  readonly module: string;
  readonly verilog: string;
  /**
   * The signal's name in the VCD of every engine (waves/README.md): the DSL names under the top's
   * scope, `<top>.<instance>….<signal>` (the same as `path`).
   */
  readonly vcd: string;
  readonly width: number;
  readonly kind: Exclude<NetKind, 'node'>;
  readonly source: string;
  /** For an enum-typed signal: its type and the name of each code (decimal), for wave labels. */
  readonly enum?: { readonly type: string; readonly values: Readonly<Record<string, string>> };
}

export interface VerilogManifest {
  readonly top: string;
  readonly modules: readonly ManifestModule[];
  readonly sourceMap: readonly SourceMapEntry[];
}

/** Modules, ports, parameters and the source map (DSL name → Verilog name, VCD name → file:line). */
export function buildManifest(design: IrDesign): VerilogManifest {
  const modules: ManifestModule[] = design.modules.map((module) => ({
    name: module.name,
    file: `${module.name}.v`,
    definition: module.definition,
    ...(module.description === undefined ? {} : { description: module.description }),
    parameters: module.parameters,
    source: sourceText(module.location),
    ports: module.ports.map(({ name, direction, width }) => ({ name, direction, width })),
    instances: module.instances.map(({ name, module: child }) => ({ name, module: child })),
  }));

  const sourceMap: SourceMapEntry[] = [];
  // Depth-first from the top; a work list, not recursion, as hierarchies can be deep.
  const work: { module: string; path: string }[] = [{ module: design.top, path: design.top }];
  while (work.length > 0) {
    const { module: name, path } = work.shift()!;
    const module = moduleByName(design, name);
    const enumOf = new Map(
      (module.enums ?? []).flatMap((type) =>
        type.signals.map((signal) => [
          signal,
          { type: type.name, values: Object.fromEntries(type.values.map((value) => [String(value.code), value.name])) },
        ]),
      ),
    );
    for (const net of module.nets) {
      if (net.kind === 'node') continue;
      const verilog = verilogIdentifier(net.name);
      const type = enumOf.get(net.name);
      sourceMap.push({
        path: `${path}.${net.name}`,
        module: name,
        verilog,
        vcd: `${path}.${net.name}`,
        width: net.width,
        kind: net.kind,
        source: sourceText(net.location),
        ...(type === undefined ? {} : { enum: type }),
      });
    }
    const children = module.instances.map((instance) => ({
      module: instance.module,
      path: `${path}.${instance.name}`,
    }));
    work.unshift(...children);
  }
  return { top: design.top, modules, sourceMap };
}
