#!/usr/bin/env python3
"""Instruction mix of the inner loops of CUDA kernels in an sm_90 cubin, without cuobjdump.

Usage: sass_inner_loops.py FILE.cubin SUBSTRING[,SUBSTRING...] [EXCLUDE]
  (the cubin from `nvcc --keep`, e.g. of fringe/imager/idg_cuda.cu; kernels whose mangled
  name contains every SUBSTRING and not EXCLUDE).

Reads the ELF sections .text.<kernel> as 128-bit instruction words and classifies each by its
opcode field (the low 12 bits of the first 64-bit word: FFMA 0x223/0x823/0xa23, FMUL 0x220/...,
FADD 0x221/..., MUFU 0x308, LDS 0x984, LDG 0x981, STS 0x388, LDL 0x983, STL 0x387, BRA 0x947).
A loop is a backward branch (BRA whose offset's sign bits, bits 64..81, are all set) and the
instructions from its target up to it. The target: byte offset from the next instruction =
256 x (bits 32..63, signed) + 4 x (bits 16..23), read off small test kernels whose loops are
known (an earlier version took the instructions after the closest preceding BRA or MUFU
instead, which also counted a loop's preheader, e.g. 4 FADDs of variant 4's first phasor sum).
The opcode values are read off sm_90 code, not from a specification; on the default gridder
this gives the loop that docs/imager.md reported earlier (330 instructions: 288 FFMA, 32 FMUL,
4 LDS, 6 others).
"""
import collections
import struct
import subprocess
import sys

NAMES = {0x223: "FFMA", 0x823: "FFMA", 0xA23: "FFMA", 0x220: "FMUL", 0x820: "FMUL",
         0xA20: "FMUL", 0x221: "FADD", 0x821: "FADD", 0xA21: "FADD", 0x308: "MUFU",
         0x947: "BRA", 0x984: "LDS", 0x983: "LDL", 0x387: "STL", 0x981: "LDG", 0x986: "STG",
         0x388: "STS"}


def sections(path):
    d = open(path, "rb").read()
    if d[:4] != b"\x7fELF" or d[4] != 2:
        sys.exit(f"{path}: not a 64-bit ELF file (expected a cubin)")
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    stro = hdrs[shstrndx][4]

    def name(o):
        return d[stro + o:d.index(b"\0", stro + o)].decode()
    return {name(h[0]): d[h[4]:h[4] + h[5]] for h in hdrs}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    want = sys.argv[2].split(",")
    exclude = sys.argv[3] if len(sys.argv) > 3 else None
    for sec, code in sections(sys.argv[1]).items():
        if not sec.startswith(".text.") or not all(w in sec for w in want):
            continue
        if exclude and exclude in sec:
            continue
        ins = [struct.unpack_from("<QQ", code, i) for i in range(0, len(code) - 15, 16)]
        name = subprocess.run(["c++filt"], input=sec[6:], capture_output=True,
                              text=True).stdout.strip()
        print("==", name.split("(")[0], len(ins), "instructions")
        for i, (lo, hi) in enumerate(ins):
            if lo & 0xFFF != 0x947 or hi & 0x3FFFF != 0x3FFFF:
                continue
            high = lo >> 32
            if high >= 1 << 31:
                high -= 1 << 32
            offset = 256 * high + 4 * ((lo >> 16) & 0xFF)  # bytes
            j = i + 1 + offset // 16  # first instruction of the loop
            if offset % 16 or not 0 <= j <= i:
                print(f"  branch {i}: target not understood (offset {offset})")
                continue
            body = ins[j:i + 1]
            if len(body) < 40:
                continue
            h = collections.Counter(NAMES.get(w & 0xFFF, "other") for w, _ in body)
            print(f"  loop {j}..{i}: {len(body)}:",
                  " ".join(f"{k} {v}" for k, v in sorted(h.items())))


if __name__ == "__main__":
    main()
