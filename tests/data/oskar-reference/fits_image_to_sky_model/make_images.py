#!/usr/bin/python3
"""Writes the small FITS files of this folder (README.md): a Jy/beam image with BMAJ/BMIN, a
Jy/pixel image with FREQ and STOKES axes, and two HEALPix maps. Deterministic (fixed seeds)."""
import numpy as np
from astropy.io import fits


def blobs(ny, nx, sources, noise, seed):
    """Gaussian blobs (y, x, peak, sigma in pixels) plus Gaussian noise (may be negative)."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:ny, 0:nx]
    img = rng.normal(0.0, noise, size=(ny, nx))
    for (y0, x0, peak, sigma) in sources:
        img += peak * np.exp(-((x - x0) ** 2 + (y - y0) ** 2) / (2 * sigma ** 2))
    return img


# 1. Jy/beam, 32 x 24 pixels of 20 arcsec, SIN about (201.365, -43.019), 2-D, float64.
img = blobs(24, 32, [(8, 10, 2.0, 1.5), (15, 22, 0.8, 2.5), (20, 5, 0.3, 1.0)], 0.01, 1)
h = fits.Header()
h["BUNIT"] = "JY/BEAM"
h["CTYPE1"], h["CRVAL1"], h["CDELT1"], h["CRPIX1"] = "RA---SIN", 201.365, -20 / 3600, 16.0
h["CTYPE2"], h["CRVAL2"], h["CDELT2"], h["CRPIX2"] = "DEC--SIN", -43.019, 20 / 3600, 12.0
h["BMAJ"], h["BMIN"], h["BPA"] = 90 / 3600, 60 / 3600, 30.0
h["RADESYS"], h["EQUINOX"] = "FK5", 2000.0
fits.PrimaryHDU(img, header=h).writeto("jy_beam.fits", overwrite=True)

# 2. Jy/pixel, 16 x 12 pixels of 20 arcsec, SIN about (30, -26), axes RA, DEC, FREQ (150 MHz),
#    STOKES (I), float32.
img = blobs(12, 16, [(4, 5, 1.5, 1.2), (8, 11, 0.5, 2.0)], 0.005, 2).astype(np.float32)
h = fits.Header()
h["BUNIT"] = "JY/PIXEL"
h["CTYPE1"], h["CRVAL1"], h["CDELT1"], h["CRPIX1"] = "RA---SIN", 30.0, -20 / 3600, 8.0
h["CTYPE2"], h["CRVAL2"], h["CDELT2"], h["CRPIX2"] = "DEC--SIN", -26.0, 20 / 3600, 7.0
h["CTYPE3"], h["CRVAL3"], h["CDELT3"], h["CRPIX3"] = "FREQ", 150e6, 1e6, 1.0
h["CTYPE4"], h["CRVAL4"], h["CDELT4"], h["CRPIX4"] = "STOKES", 1.0, 1.0, 1.0
fits.PrimaryHDU(img.reshape(1, 1, 12, 16), header=h).writeto("jy_pixel.fits", overwrite=True)

# 3. HEALPix maps (OSKAR's convention: an empty primary HDU, the map in a binary table), nside 2
#    (48 pixels), RING, Jy/pixel, float32; one Galactic (COORDSYS G), one equatorial (C).
values = np.random.default_rng(3).normal(0.5, 0.4, 48).astype(np.float32)
for name, coordsys in (("healpix_galactic.fits", "G"), ("healpix_equatorial.fits", "C")):
    table = fits.BinTableHDU.from_columns(
        [fits.Column(name="I_STOKES", format="E", unit="Jy/pixel", array=values)])
    for key, value in (("PIXTYPE", "HEALPIX"), ("ORDERING", "RING"), ("NSIDE", 2),
                       ("COORDSYS", coordsys), ("INDXSCHM", "IMPLICIT")):
        table.header[key] = value
    fits.HDUList([fits.PrimaryHDU(), table]).writeto(name, overwrite=True)
