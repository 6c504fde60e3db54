# fits_image_to_sky_model (issue 18; docs/sky_models.md): OSKAR 2.13's
# oskar_fits_image_to_sky_model without a simulation. Its sky models of two small FITS images
# (one Jy/beam with BMAJ/BMIN, one Jy/pixel with FREQ and STOKES axes) equal the ones OSKAR's
# tool wrote from the same images and options (tests/data/oskar-reference/
# fits_image_to_sky_model, README.md): positions to 1e-9 deg, fluxes to 1e-6 relative
# (compare_sky.py). Bad input exits 2 naming the file or option; an output path holding
# anything but an earlier sky model is refused and left as it was.
set(fits_ref ${PROJECT_SOURCE_DIR}/tests/data/oskar-reference/fits_image_to_sky_model)
set(fits_run ${CMAKE_CURRENT_BINARY_DIR}/runs/fits_image_to_sky_model)
file(MAKE_DIRECTORY ${fits_run})
# <test name> | <OSKAR's output> | <options and input> | <compare_sky.py options>
# HEALPix maps too (the tool reads them as OSKAR's does). The Galactic map's positions may
# differ by 1e-5 deg: fringe converts Galactic to ICRS with ERFA, OSKAR to FK5 J2000 with its
# own rotation (the ICRS-FK5 frame bias, about 20 mas; README.md there).
foreach(spec
    "jy_beam|jy_beam.osm|jy_beam.fits|"
    "jy_beam_peak_spix|jy_beam_f0.1_s-0.7.osm|-f 0.1 -s -0.7 jy_beam.fits|"
    "jy_pixel_floor|jy_pixel_n0.01.osm|-n 0.01 jy_pixel.fits|"
    "jy_pixel_negative_floor|jy_pixel_n-0.004_s0.5.osm|-n -0.004 -s 0.5 jy_pixel.fits|"
    "healpix_equatorial|healpix_equatorial_n0.3.osm|-n 0.3 healpix_equatorial.fits|"
    "healpix_galactic|healpix_galactic.osm|healpix_galactic.fits|--position-tolerance 1e-5")
  string(REPLACE "|" ";" parts "${spec}")
  list(GET parts 0 name)
  list(GET parts 1 ref)
  list(GET parts 2 args)
  list(GET parts 3 compare_args)
  add_test(NAME integration.fits_image_to_sky_model.oskar_${name}
    COMMAND bash -c "set -e; cd '${fits_ref}'; rm -f '${fits_run}/${ref}'; '$<TARGET_FILE:fits_image_to_sky_model>' ${args} '${fits_run}/${ref}'; /usr/bin/python3 compare_sky.py '${fits_run}/${ref}' '${ref}' ${compare_args}")
  set_tests_properties(integration.fits_image_to_sky_model.oskar_${name} PROPERTIES
    LABELS integration PASS_REGULAR_EXPRESSION "sky models agree"
    FAIL_REGULAR_EXPRESSION "DIFFERENT")
endforeach()

set(app fits_image_to_sky_model)
app_test(${app} help 0 "Usage: fits_image_to_sky_model" "" --help)
app_test(${app} no_args 2 "" "expected two file names")
app_test(${app} unknown_option 2 "" "error: unknown option '-x'"
  -x 1 ${fits_ref}/jy_beam.fits ${fits_run}/x.osm)
app_test(${app} bad_value 2 "" "error: option -f = 'abc': expected a finite number"
  -f abc ${fits_ref}/jy_beam.fits ${fits_run}/x.osm)
app_test(${app} fraction_out_of_range 2 "" "error: option -f = '2': expected a fraction"
  -f 2 ${fits_ref}/jy_beam.fits ${fits_run}/x.osm)
app_test(${app} missing_file 2 "" "error: .*no_such.fits: cannot open FITS file"
  ${fits_ref}/no_such.fits ${fits_run}/x.osm)
app_test(${app} not_fits 2 "" "error: .*compare_sky.py: cannot open FITS file"
  ${fits_ref}/compare_sky.py ${fits_run}/x.osm)
app_test(${app} nothing_selected 2 "" "jy_beam.fits: no pixel passed the selection"
  -n 1e6 ${fits_ref}/jy_beam.fits ${fits_run}/x.osm)
app_test(${app} output_is_input 2 "" "would overwrite or contain the run's input"
  ${fits_ref}/jy_beam.fits ${fits_ref}/jy_beam.fits)
# An existing file that is not a sky model of fringe's is refused and kept byte for byte.
add_test(NAME integration.fits_image_to_sky_model.refuses_other_file
  COMMAND bash -c "cd '${fits_run}'; printf 'keep me\\n' > other.osm; '$<TARGET_FILE:fits_image_to_sky_model>' '${fits_ref}/jy_beam.fits' other.osm; rc=$?; test $rc = 2 && test \"$(cat other.osm)\" = 'keep me' && echo refused-and-kept")
set_tests_properties(integration.fits_image_to_sky_model.refuses_other_file PROPERTIES
  LABELS integration PASS_REGULAR_EXPRESSION "refused-and-kept")
