/**
 * A test bench top: the MmaUnit wired to the OperandRegisterFile model through its read ports,
 * so every engine (in-process, Verilator, Icarus) runs whole MMAs from plain input streams.
 * `bank` is sampled with `start`: the MMA reads that bank while the bench writes the other.
 */
import { connect, defineModule, fieldsOf, flip, input, output, vec } from '../../../api/index.ts';
import { flowOf } from '../../../api/index.ts';
import { validateUnitStages } from './dotProduct4.ts';
import { MMA_UNIT_LANES, MmaUnit, mmaStartFlow, mmaWriteBackFlow } from './mmaUnit.ts';
import { C_REGISTERS, OperandRegisterFile, REGISTERS_PER_WRITE } from './operandRegisterFile.ts';
import { PIPELINED_DOC } from './threadGroup.ts';

/** The bench's MMA start: the MmaUnit's start Flow with the register bank the MMA reads. */
const benchStartFlow = flowOf(
  {
    mode: output<number>(1, '0 = dense m16n8k16, 1 = coruscant m32n1k64'),
    bank: output<number>(1, 'register bank the MMA reads, sampled with start'),
    bitmap: vec(MMA_UNIT_LANES, output<number>(64, "thread t's row-tile bitmap (coruscant)")),
  },
  { valid: 'start', description: 'begin an MMA (see MmaUnit)' },
);

export const MmaBench = defineModule({
  name: 'MmaBench',
  description: 'Test bench: MmaUnit + OperandRegisterFile model (two banks, four-cycle loads)',
  defaults: { pipelined: 0 },
  parameterDocs: { pipelined: PIPELINED_DOC },
  validate: validateUnitStages,
  ports: () => ({
    ...flip(benchStartFlow),
    write: {
      enable: input<number>(1, 'write register group `group` of bank `bank`'),
      bank: input<number>(1, 'bank written'),
      group: input<number>(2, 'registers 8·group … 8·group + 7'),
      data: vec(MMA_UNIT_LANES, vec(REGISTERS_PER_WRITE, input<number>(32, 'thread t, register 8·group + i'))),
      vector: vec(REGISTERS_PER_WRITE, input<number>(32, 'B vector register 8·group + i')),
      cEnable: input<number>(1, "also write every thread's four C registers"),
      c: vec(MMA_UNIT_LANES, vec(C_REGISTERS, input<number>(32, 'thread t, C register s'))),
    },
    busy: output<number>(1, 'a datapath cycle of an MMA'),
    last: output<number>(1, 'last datapath cycle of an MMA'),
    ...mmaWriteBackFlow,
  }),
  build(m, io, params) {
    const unit = m.instance(MmaUnit, { name: 'mma', params: { pipelined: params.pipelined } });
    const registers = m.instance(OperandRegisterFile, { name: 'registers' });
    const readBank = m.reg('readBank', 1, { reset: 0 });
    m.when(io.start, () => readBank.set(io.bank));

    connect(fieldsOf(unit, mmaStartFlow), fieldsOf(io, mmaStartFlow));
    registers.readBank.set(readBank);
    unit.read.forEach((ports, thread) =>
      ports.forEach((port, index) => {
        const file = registers.read[thread]![index]!;
        file.register.set(port.register);
        port.data.set(file.data);
      }),
    );
    unit.vector.forEach((port, index) => {
      registers.vector[index]!.register.set(port.register);
      port.data.set(registers.vector[index]!.data);
    });
    registers.cSlot.set(unit.cSlot);
    unit.c.forEach((c, thread) => c.set(registers.c[thread]!));

    connect(registers.write, io.write);

    io.busy.set(unit.busy);
    io.last.set(unit.last);
    connect(fieldsOf(io, mmaWriteBackFlow), fieldsOf(unit, mmaWriteBackFlow));
  },
});
