#!/usr/bin/env python3
# How many 16-byte loads a compiled stream loop keeps out per warp, read off its SASS (cuobjdump -sass).
#
# The probes' stream loops issue four loads and then use their values; what the compiler makes of
# that decides the warp's memory-level parallelism, and the model's warp loop issues a step's loads
# together. For each kernel in the files it prints the order of its 128-bit loads (L) and the
# three-input XORs that use loaded registers (x), branches as |, and the most loads out at once:
# a load stays out until an XOR reads one of its four registers. Each load counts once, from its
# issue to the first use; the scan runs through the function once, branches ignored, so a loop
# body's steady state shows when the loop is the kernel's only one.
# Usage: python3 gpu/probes/loadWindow.py <file.sass>…
import re, signal, sys

FUNCTION = re.compile(r"^\s*Function : (\S+)$", re.M)
LOAD = re.compile(r"LDG\.E\.128\S*\s+R(\d+),")
XOR = re.compile(r"LOP3\.LUT R\d+, (R\d+|RZ), (R\d+|RZ), (R\d+|RZ), 0x96")
BRANCH = re.compile(r"\sBRA\s")


def loop_pattern(body):
    """The L / x / | sequence and the most loads out at once."""
    out = {}  # first register of a load still out → its order
    sequence, most = [], 0
    for line in body.splitlines():
        load = LOAD.search(line)
        if load:
            base = int(load.group(1))
            out = {r: n for r, n in out.items() if not base <= r < base + 4}
            out[base] = len(sequence)
            sequence.append("L")
            most = max(most, len(out))
            continue
        xor = XOR.search(line)
        if xor:
            used = {int(reg[1:]) for reg in xor.groups() if reg != "RZ"}
            done = [r for r in out if any(r <= u < r + 4 for u in used)]
            if done:
                for r in done:
                    del out[r]
                sequence.append("x")
            continue
        if BRANCH.search(line):
            sequence.append("|")
    return "".join(sequence), most


def main(paths):
    for path in paths:
        text = open(path).read()
        names = FUNCTION.findall(text)
        bodies = FUNCTION.split(text)[2::2]
        for name, body in zip(names, bodies):
            sequence, most = loop_pattern(body)
            print(f"{path.split('/')[-1]}  {name}  {most} out  {sequence}")


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
    main(sys.argv[1:])
