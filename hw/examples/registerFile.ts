import { defineModule, input, output, bitsFor } from '../core/index.ts';

/** A register file with one write port and two combinational read ports (an SM operand file in miniature). */
export const RegisterFile = defineModule({
  name: 'RegisterFile',
  description: 'Register file: 1 write port, 2 combinational read ports',
  defaults: { depth: 32, width: 32 },
  parameterDocs: { depth: 'number of registers (any number from 1)', width: 'register width in bits' },
  ports: (p) => ({
    write: { enable: input(1), address: input(bitsFor(p.depth - 1)), data: input(p.width) },
    read: [0, 1].map(() => ({ address: input(bitsFor(p.depth - 1)), data: output(p.width) })),
  }),
  build(m, io, p) {
    const registers = m.memory('registers', { depth: p.depth, width: p.width });
    registers.write(io.write.address, io.write.data, io.write.enable);
    for (const port of io.read) port.data.set(registers.read(port.address));
  },
});
