#!/usr/bin/env bash
# Images two settings files and checks that both images are finite and equal:
#   same_image.sh IMAGER COMPARE A.ini A_I.fits B.ini B_I.fits
# (the imager's stderr, with its warnings, is passed on).
set -u
imager=$1 compare=$2
"$imager" -q "$3" || exit 1
"$imager" -q "$5" || exit 1
"$compare" "$4" "$6"
