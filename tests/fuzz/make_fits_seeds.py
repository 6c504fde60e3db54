#!/usr/bin/env python3
"""Writes the FITS seed corpus of fuzz_fits (tests/fuzz/corpus/fits/): small images whose
headers exercise the readers' branches (SIN/TAN, CD/PC/CROTA, GLON/GLAT, FREQ and STOKES axes,
Jy/beam with BMAJ/BMIN or an AIPS HISTORY beam, K) and a HEALPix binary table. Plain Python
(no astropy): FITS is 2880-byte blocks of 80-character cards and big-endian data.
Usage: tests/fuzz/make_fits_seeds.py [output folder]"""
import os
import struct
import sys


def card(key, value=None, comment=None):
    if value is None:
        text = key
    elif isinstance(value, bool):
        text = "%-8s= %20s" % (key, "T" if value else "F")
    elif isinstance(value, str):
        text = "%-8s= %-20s" % (key, "'%-8s'" % value)
    else:
        text = "%-8s= %20s" % (key, repr(value) if isinstance(value, float) else value)
    return text.ljust(80)[:80]


def pad(data, fill):
    return data + fill * ((-len(data)) % 2880)


def header(cards):
    text = "".join(card(*c) for c in cards) + "END".ljust(80)
    return pad(text.encode("ascii"), b" ")


def image(naxes, extra, value=lambda i: float(i % 7) + (10.0 if i == 12 else 0.0)):
    n = 1
    for a in naxes:
        n *= a
    cards = [("SIMPLE", True), ("BITPIX", -32), ("NAXIS", len(naxes))]
    cards += [("NAXIS%d" % (i + 1), a) for i, a in enumerate(naxes)]
    data = b"".join(struct.pack(">f", value(i)) for i in range(n))
    return header(cards + extra) + pad(data, b"\0")


def sin_axes(ctype=("RA---SIN", "DEC--SIN"), crval=(20.0, -30.0), n=5):
    return [("CTYPE1", ctype[0]), ("CRVAL1", crval[0]), ("CDELT1", -0.01), ("CRPIX1", n / 2 + 1),
            ("CTYPE2", ctype[1]), ("CRVAL2", crval[1]), ("CDELT2", 0.01), ("CRPIX2", n / 2 + 1)]


def healpix(nside=1):
    npix = 12 * nside * nside
    primary = header([("SIMPLE", True), ("BITPIX", 8), ("NAXIS", 0), ("EXTEND", True)])
    cards = [("XTENSION", "BINTABLE"), ("BITPIX", 8), ("NAXIS", 2), ("NAXIS1", 4),
             ("NAXIS2", npix), ("PCOUNT", 0), ("GCOUNT", 1), ("TFIELDS", 1),
             ("TTYPE1", "TEMPERATURE"), ("TFORM1", "E"), ("TUNIT1", "K"),
             ("PIXTYPE", "HEALPIX"), ("ORDERING", "RING"), ("NSIDE", nside),
             ("COORDSYS", "G"), ("FIRSTPIX", 0), ("LASTPIX", npix - 1)]
    data = b"".join(struct.pack(">f", 1.0 + i) for i in range(npix))
    return primary + header(cards) + pad(data, b"\0")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__),
                                                             "corpus", "fits")
    os.makedirs(out, exist_ok=True)
    beam = [("BUNIT", "JY/BEAM"), ("BMAJ", 0.02), ("BMIN", 0.02)]
    seeds = {
        "sin_jy_beam.fits": image([5, 5], sin_axes() + beam),
        "tan_jy_pixel.fits": image([5, 5], sin_axes(("RA---TAN", "DEC--TAN")) +
                                   [("BUNIT", "JY/PIXEL")]),
        "cd_matrix.fits": image([4, 4], [("CTYPE1", "RA---SIN"), ("CTYPE2", "DEC--SIN"),
                                         ("CRVAL1", 0.0), ("CRVAL2", 10.0), ("CRPIX1", 3.0),
                                         ("CRPIX2", 3.0), ("CD1_1", -0.01), ("CD1_2", 0.001),
                                         ("CD2_1", 0.001), ("CD2_2", 0.01),
                                         ("BUNIT", "JY/PIXEL")]),
        "pc_crota.fits": image([4, 4], sin_axes() + [("CROTA2", 15.0), ("PC1_2", 0.1),
                                                     ("BUNIT", "K")]),
        "galactic.fits": image([4, 4], sin_axes(("GLON-SIN", "GLAT-SIN"), (120.0, 5.0)) +
                               [("BUNIT", "MK")]),
        "freq_stokes.fits": image([4, 4, 1, 1], sin_axes() + beam +
                                  [("CTYPE3", "FREQ"), ("CRVAL3", 1.4e8), ("CDELT3", 1e6),
                                   ("CRPIX3", 1.0), ("CTYPE4", "STOKES"), ("CRVAL4", 1.0),
                                   ("CDELT4", 1.0), ("CRPIX4", 1.0)]),
        "aips_history_beam.fits": image([4, 4], sin_axes() + [("BUNIT", "JY/BEAM")] +
                                        [("HISTORY AIPS   CLEAN BMAJ=  2.0000E-02 BMIN=  "
                                          "2.0000E-02 BPA=   0.00",)]),
        "model_image.fits": image([8, 8], sin_axes(n=8) + [("BUNIT", "JY/PIXEL")]),
        "healpix_nside1.fits": healpix(1),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
