/**
 * Child process for the interrupted-swap tests: writes COUNT files, each holding MARK, as the
 * whole content of TARGET through gen verilog's writer. Run bundled (tests/hardening/killedOutputs.ts):
 * node writeManyFiles.mjs TARGET COUNT MARK
 */
import { writeFilesStaged } from '../../../hw/verilog/writeDesign.ts';

const [target, count, mark] = process.argv.slice(2) as [string, string, string];
const files = new Map<string, string>();
for (let index = 0; index < Number(count); index++)
  files.set(`Top${index % 10}/Module${index}.v`, `// ${mark}\nmodule Module${index}; endmodule\n`);
for (let top = 0; top < 10; top++) files.set(`Top${top}/manifest.json`, `${JSON.stringify({ mark })}\n`);
writeFilesStaged(target, files);
