/**
 * A model of the SM's operand register file for test benches (docs/spec.md §4.2: the register file is
 * outside the MmaUnit). Per thread: 32 value registers and 4 FP32 accumulator (C) registers;
 * shared: the 32 registers of the B vector. Two banks, so one MMA's operands can be written while
 * the previous MMA reads the other bank: that is what lets a bench run MMAs back to back.
 *
 * Reads are combinational from the bank `readBank`. The write port is wide on purpose (a bench
 * convenience, not a claim about the SM): one cycle writes eight registers of every thread and of
 * the vector (register group g = registers 8g … 8g + 7), and optionally all four C registers of
 * every thread, so a whole MMA loads in four cycles.
 */
import { cat, defineModule, input, output, select, vec, type ModuleBuilder, type Value } from '../../../api/index.ts';
import { DOT_WIDTH } from './dotProduct4.ts';
import { MMA_UNIT_LANES, REGISTER_ADDRESS_BITS } from './mmaUnit.ts';

/** Registers written per thread per cycle (one register group). */
export const REGISTERS_PER_WRITE = 8;
/** Register groups: 32 registers / 8. */
export const REGISTER_GROUPS = (1 << REGISTER_ADDRESS_BITS) / REGISTERS_PER_WRITE;
/** C registers per thread (the dense mode's four output slots). */
export const C_REGISTERS = 4;

/**
 * 32 registers × 2 banks as 8 memories (register r in memory r mod 8, at bank·4 + r div 8), so a
 * register group is written in one cycle; returns the combinational readers.
 */
function bankedRegisters(
  m: ModuleBuilder,
  name: string,
  write: { enable: Value; bank: Value; group: Value; data: readonly Value[] },
): (bank: Value, register: Value) => Value {
  const memories = write.data.map((data, index) => {
    const memory = m.memory(`${name}_${index}`, { depth: 2 * REGISTER_GROUPS, width: 32 });
    memory.write(cat(write.bank, write.group), data, write.enable);
    return memory;
  });
  return (bank, register) =>
    select(
      register.bits(2, 0),
      memories.map((memory) => memory.read(cat(bank, register.bits(4, 3)))),
    );
}

export const OperandRegisterFile = defineModule({
  name: 'OperandRegisterFile',
  description:
    'Test-bench model of the SM operand register file: per-thread value and C registers, the B vector, two banks',
  defaults: {},
  ports: () => ({
    readBank: input<number>(1, 'bank every read port reads'),
    read: vec(
      MMA_UNIT_LANES,
      vec(DOT_WIDTH, {
        register: input<number>(REGISTER_ADDRESS_BITS, 'value register of thread t'),
        data: output<number>(32, 'its contents, same cycle'),
      }),
    ),
    vector: vec(2, {
      register: input<number>(REGISTER_ADDRESS_BITS, 'register of the B vector'),
      data: output<number>(32, 'its contents, same cycle'),
    }),
    cSlot: input<number>(2, 'C register every thread reads'),
    c: vec(MMA_UNIT_LANES, output<number>(32, "thread t's C register cSlot")),
    write: {
      enable: input<number>(1, 'write register group `group` of bank `bank`'),
      bank: input<number>(1, 'bank written'),
      group: input<number>(2, 'registers 8·group … 8·group + 7'),
      data: vec(MMA_UNIT_LANES, vec(REGISTERS_PER_WRITE, input<number>(32, 'thread t, register 8·group + i'))),
      vector: vec(REGISTERS_PER_WRITE, input<number>(32, 'B vector register 8·group + i')),
      cEnable: input<number>(1, "also write every thread's four C registers of bank `bank`"),
      c: vec(MMA_UNIT_LANES, vec(C_REGISTERS, input<number>(32, 'thread t, C register s'))),
    },
  }),
  build(m, io) {
    const { enable, bank, group } = io.write;
    io.read.forEach((ports, thread) => {
      const read = bankedRegisters(m, `values${thread}`, { enable, bank, group, data: io.write.data[thread]! });
      ports.forEach((port) => port.data.set(read(io.readBank, port.register)));
      const cRegisters = io.write.c[thread]!.map((data, slot) => {
        const memory = m.memory(`c${thread}_${slot}`, { depth: 2, width: 32 });
        memory.write(bank, data, io.write.cEnable);
        return memory.read(io.readBank);
      });
      io.c[thread]!.set(select(io.cSlot, cRegisters));
    });
    const readVector = bankedRegisters(m, 'vector', { enable, bank, group, data: io.write.vector });
    io.vector.forEach((port) => port.data.set(readVector(io.readBank, port.register)));
  },
});
