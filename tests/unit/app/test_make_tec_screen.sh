#!/bin/sh
# scripts/make-tec-screen is deterministic for a seed: the command of
# tests/data/oskar-ionosphere/README.md remakes the committed screen.fits and screen_mean10.fits
# byte for byte, a different seed does not, and an existing output is refused. Skips (77)
# without Debian's numpy/astropy. Usage: test_make_tec_screen.sh SOURCE_DIR WORK_DIR
src=$1 work=$2
py=/usr/bin/python3
$py -c "import numpy, astropy" 2>/dev/null || exit 77
rm -rf "$work" && mkdir -p "$work" || exit 1
args="--size 96 --pixel-size 250 --r0 3000 --ref-freq 150e6 --velocity 100,50 --num-times 3 --time-step 120"
$py "$src/scripts/make-tec-screen" $args --seed 19 "$work/a.fits" || exit 1
cmp "$work/a.fits" "$src/tests/data/oskar-ionosphere/screen.fits" || exit 1
# The Faraday-rotation screen: a mean TEC added (--mean-tec), also remade byte for byte.
$py "$src/scripts/make-tec-screen" $args --seed 23 --mean-tec 10 "$work/m.fits" || exit 1
cmp "$work/m.fits" "$src/tests/data/oskar-ionosphere/screen_mean10.fits" || exit 1
$py "$src/scripts/make-tec-screen" $args --seed 20 "$work/b.fits" || exit 1
if cmp -s "$work/a.fits" "$work/b.fits"; then echo "seeds 19 and 20 gave the same screen"; exit 1; fi
if $py "$src/scripts/make-tec-screen" $args --seed 19 "$work/a.fits" 2>/dev/null; then
  echo "an existing output was overwritten"; exit 1
fi
echo ok
