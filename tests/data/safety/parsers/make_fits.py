#!/usr/bin/env python3
"""Writes the FITS images of this folder (run here; plain Python, no astropy):
stokes_q.fits (a STOKES axis holding only Q), crval2_100.fits (CRVAL2 = 100, not a
latitude), naxis1_1e9.fits (NAXIS1 = 1e9 in a 5.8 kB file) and good.fits (a valid 3x3
Jy/pixel image with one 2 Jy pixel at the reference point)."""
import struct


def card(key, value=None):
    if value is None:
        text = key
    else:
        if isinstance(value, str):
            written = "'" + value.ljust(8) + "'"
        elif isinstance(value, bool):
            written = ("T" if value else "F").rjust(20)
        elif isinstance(value, float):
            written = ("%.10G" % value).rjust(20)
        else:
            written = repr(value).rjust(20)
        text = key.ljust(8) + "= " + written
    return text.ljust(80)[:80]


def write(path, naxes, extra, pixels):
    cards = [card("SIMPLE", True), card("BITPIX", -64), card("NAXIS", len(naxes))]
    cards += [card("NAXIS%d" % (i + 1), n) for i, n in enumerate(naxes)]
    keys = {"CTYPE1": "RA---SIN", "CTYPE2": "DEC--SIN", "CRVAL1": 60.0, "CRVAL2": -30.0,
            "CRPIX1": 2.0, "CRPIX2": 2.0, "CDELT1": -0.1, "CDELT2": 0.1, "BUNIT": "JY/PIXEL"}
    keys.update(extra)
    cards += [card(k, v) for k, v in keys.items()] + [card("END")]
    header = "".join(cards).encode()
    header += b" " * (-len(header) % 2880)
    data = b"".join(struct.pack(">d", x) for x in pixels)
    data += b"\0" * (-len(data) % 2880)
    with open(path, "wb") as f:
        f.write(header + data)


pixels = [0.0] * 9
pixels[4] = 2.0
write("stokes_q.fits", [3, 3, 1, 1],
      {"CTYPE3": "FREQ", "CRVAL3": 1e8, "CDELT3": 1e6, "CRPIX3": 1.0,
       "CTYPE4": "STOKES", "CRVAL4": 2.0, "CDELT4": 1.0, "CRPIX4": 1.0}, pixels)
write("crval2_100.fits", [3, 3], {"CRVAL2": 100.0}, pixels)
write("naxis1_1e9.fits", [1000000000, 3], {}, pixels)
write("good.fits", [3, 3], {}, pixels)
