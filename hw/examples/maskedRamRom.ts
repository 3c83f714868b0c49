import { defineModule, input, output, bitsFor } from '../core/index.ts';

/** The ROM's contents, in hw/examples/data (the path is relative to this file). */
export const ROM_FILE = 'data/maskedRamRom.hex';
/** Words in the ROM file. */
export const ROM_DEPTH = 20;
export const ROM_WIDTH = 16;
/** The RAM's first words at the start (the rest are 0). */
export const RAM_INIT: readonly number[] = [0x11223344, 0xdeadbeef, 0x0badf00d];

/**
 * A byte-masked RAM of a depth that is not a power of two (100 words by default) and a ROM
 * read from a hex file. The RAM has one masked write port, a combinational read and two
 * registered reads at one address: `old` read-first (the word before this edge's write), `new`
 * write-first (the word as this edge writes it). Addresses past the last word read 0.
 */
export const MaskedRamRom = defineModule({
  name: 'MaskedRamRom',
  description: 'Byte-masked RAM (any depth, read-first and write-first reads) and a ROM from a hex file',
  defaults: { depth: 100, width: 32 },
  parameterDocs: { depth: 'RAM words (any number from 1)', width: 'RAM word width in bits (a multiple of 8)' },
  validate: (p) => (p.width % 8 === 0 && p.width > 0 ? undefined : `width ${p.width} is not a multiple of 8`),
  ports: (p) => ({
    write: {
      enable: input(1),
      address: input(bitsFor(p.depth - 1)),
      data: input(p.width),
      mask: input(p.width / 8),
    },
    read: { address: input(bitsFor(p.depth - 1)), comb: output(p.width), old: output(p.width), new: output(p.width) },
    rom: { address: input(bitsFor(ROM_DEPTH - 1)), data: output(ROM_WIDTH) },
  }),
  build(m, io, p) {
    const ram = m.memory('ram', { depth: p.depth, width: p.width, granularity: 8, init: RAM_INIT.slice(0, p.depth) });
    ram.write(io.write.address, io.write.data, io.write.enable, io.write.mask);
    io.read.comb.set(ram.read(io.read.address));
    io.read.old.set(ram.readSync(io.read.address));
    io.read.new.set(ram.readSync(io.read.address, { readDuringWrite: 'write-first' }));
    const rom = m.rom('rom', { width: ROM_WIDTH, init: ROM_FILE });
    io.rom.data.set(rom.read(io.rom.address));
  },
});

/** One cycle's inputs of MaskedRamRom, as numbers. */
export interface MaskedRamRomCycle {
  readonly enable: boolean;
  readonly address: number;
  readonly data: bigint;
  readonly mask: number;
  readonly readAddress: number;
  readonly romAddress: number;
}

/** The golden model: the RAM and ROM as arrays, stepped one edge at a time. */
export class MaskedRamRomModel {
  private readonly ram: bigint[];
  private old = 0n;
  private new = 0n;
  constructor(
    private readonly depth: number,
    private readonly width: number,
    private readonly rom: readonly bigint[],
  ) {
    this.ram = Array.from({ length: depth }, (_, index) => BigInt(RAM_INIT[index] ?? 0));
  }

  /** The outputs in the cycle `cycle` is applied (before its edge), then the edge. */
  step(cycle: MaskedRamRomCycle): { comb: bigint; old: bigint; new: bigint; romData: bigint } {
    const outputs = {
      comb: this.ram[cycle.readAddress] ?? 0n,
      old: this.old,
      new: this.new,
      romData: this.rom[cycle.romAddress] ?? 0n,
    };
    const before = this.ram[cycle.readAddress] ?? 0n;
    if (cycle.enable && cycle.address < this.depth) {
      let word = this.ram[cycle.address]!;
      for (let byte = 0; byte < this.width / 8; byte++) {
        if (((cycle.mask >> byte) & 1) === 0) continue;
        const lane = 0xffn << BigInt(8 * byte);
        word = (word & ~lane) | (cycle.data & lane);
      }
      this.ram[cycle.address] = word;
    }
    this.old = before;
    this.new = this.ram[cycle.readAddress] ?? 0n;
    return outputs;
  }
}

/** The ROM file's words, parsed as plainly as the golden model can (hex words, // comments). */
export function parseRomText(text: string): bigint[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, '').trim())
    .filter((line) => line !== '')
    .map((line) => BigInt(`0x${line}`));
}
