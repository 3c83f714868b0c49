#!/usr/bin/env python3
# What each stream loop issues per step, read off its SASS (cuobjdump -sass): for every kernel, its
# innermost loop that loads (the shortest span from a backward branch's target to the branch that
# holds an LDG), how many instructions it has, its LDG.E.128s and its LDCs (constant loads: the
# bounds-tested loops reload their pointer parameter before each LDG, the whole-step loops do not).
# Usage: python3 gpu/probes/loopBody.py <file.sass>…
import re, signal, sys

FUNCTION = re.compile(r"^\s*Function : (\S+)$", re.M)
INSTRUCTION = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?);")
BACKWARD = re.compile(r"\bBRA\b.*?0x([0-9a-f]+)")


def innermost_load_loop(body):
    """The instructions of the shortest backward-branch span that holds an LDG, or None."""
    instructions = [(int(address, 16), text) for address, text in INSTRUCTION.findall(body)]
    best = None
    for address, text in instructions:
        branch = BACKWARD.search(text)
        if not branch or int(branch.group(1), 16) > address:
            continue
        target = int(branch.group(1), 16)
        span = [t for a, t in instructions if target <= a <= address]
        if any("LDG" in t for t in span) and (best is None or len(span) < len(best)):
            best = span
    return best


def main(paths):
    for path in paths:
        text = open(path).read()
        for name, body in zip(FUNCTION.findall(text), FUNCTION.split(text)[2::2]):
            loop = innermost_load_loop(body)
            if loop is None:
                continue
            ldg = sum("LDG" in t for t in loop)
            ldc = sum(re.search(r"(^|\s)LDC(\.|\s)", t) is not None for t in loop)
            print(f"{path.split('/')[-1]}  {name}  {len(loop)} instructions  {ldg} LDG  {ldc} LDC")


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
    main(sys.argv[1:])
