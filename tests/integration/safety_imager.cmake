# imager's data-safety and hostile-input tests (issue 16, docs/reliability/imager.md).
# The imager tests' Measurement Set (fixture imager_ms: SKA-Low AA0.5, 16 times x 2 channels)
# is copied and given hostile values (tests/data/safety/imager/make_ms.sh, imager_ms_poke):
# an Inf visibility, a NaN UVW or TIME must be skipped with a warning and leave the image as
# with that row flagged (imager_fits_compare); ranges are named by key (exit 2); outputs that
# are inputs or not FITS files are refused before any work; a runaway image size is refused;
# all-zero images warn (error with --strict); SIGTERM ends a run with 143 and no files.
set(si_dir ${CMAKE_CURRENT_BINARY_DIR}/runs/safety_imager)
set(si_data ${PROJECT_SOURCE_DIR}/tests/data/safety/imager)
set(si_src_ms ${CMAKE_CURRENT_BINARY_DIR}/runs/imager/ms/imager_sim.ms)
add_test(NAME integration.imager.safety_make_ms
  COMMAND bash ${si_data}/make_ms.sh $<TARGET_FILE:imager_ms_poke> ${si_src_ms} ${si_dir})
set_tests_properties(integration.imager.safety_make_ms PROPERTIES LABELS integration
  FIXTURES_REQUIRED imager_ms FIXTURES_SETUP imager_safety_ms)
# si_ini(<name> <ms> <extra lines>): runs/safety_imager/<name>.ini, images <name>_*.fits.
function(si_ini name ms extra)
  file(WRITE ${si_dir}/${name}.ini
    "[General]\napp=imager\n\n[image]\nuse_gpus=false\nsize=64\nfov_deg=0.5\n"
    "input_vis_data=${ms}\nroot_path=${si_dir}/${name}\n${extra}\n")
endfunction()
# si_test(<name> <rc> <stdout regex> <stderr regex> <command...>)
function(si_test name rc out err)
  add_test(NAME integration.imager.safety_${name}
    COMMAND bash ${check} ${rc} "${out}" "${err}" -- ${ARGN})
  set_tests_properties(integration.imager.safety_${name} PROPERTIES LABELS integration
    FIXTURES_REQUIRED imager_safety_ms)
endfunction()
set(img $<TARGET_FILE:imager>)
set(same bash ${si_data}/same_image.sh ${img} $<TARGET_FILE:imager_fits_compare>)

# Non-finite input: skipped with a count, the image finite and as with the row flagged.
foreach(case inf nan_uvw nan_time nan_weight)
  si_ini(${case} ${si_dir}/${case}.ms "")
  si_ini(${case}_flagged ${si_dir}/${case}_flagged.ms "")
endforeach()
si_test(inf_vis 0
  "warning: imager: skipped 2 visibilities with a NaN/Inf value or weight in .*inf.ms"
  "" ${img} ${si_dir}/inf.ini)
si_test(inf_vis_same_image 0 "largest difference" ""
  ${same} ${si_dir}/inf.ini ${si_dir}/inf_I.fits
  ${si_dir}/inf_flagged.ini ${si_dir}/inf_flagged_I.fits)
si_test(inf_vis_strict 2 "!Output files" "error: imager: .*an error with --strict"
  ${img} --strict ${si_dir}/inf.ini)
si_test(nan_uvw 0 "warning: imager: skipped 1 row with a NaN/Inf UVW in .*nan_uvw.ms" ""
  ${img} ${si_dir}/nan_uvw.ini)
si_test(nan_uvw_same_image 0 "largest difference" ""
  ${same} ${si_dir}/nan_uvw.ini ${si_dir}/nan_uvw_I.fits
  ${si_dir}/nan_uvw_flagged.ini ${si_dir}/nan_uvw_flagged_I.fits)
si_test(nan_time 0 "warning: imager: skipped 1 row with a NaN/Inf TIME in .*nan_time.ms" ""
  ${img} ${si_dir}/nan_time.ini)
si_test(nan_time_same_image 0 "largest difference" ""
  ${same} ${si_dir}/nan_time.ini ${si_dir}/nan_time_I.fits
  ${si_dir}/nan_time_flagged.ini ${si_dir}/nan_time_flagged_I.fits)

si_test(nan_weight 0
  "warning: imager: skipped 2 visibilities with a NaN/Inf value or weight in .*nan_weight.ms" ""
  ${img} ${si_dir}/nan_weight.ini)
si_test(nan_weight_same_image 0 "largest difference" ""
  ${same} ${si_dir}/nan_weight.ini ${si_dir}/nan_weight_I.fits
  ${si_dir}/nan_weight_flagged.ini ${si_dir}/nan_weight_flagged_I.fits)

# Ranges: named by key, exit 2, nothing written.
set(ok_ms ${si_dir}/inf_flagged.ms)
si_ini(dec_100 ${ok_ms} "direction=RA, Dec.\ndirection/ra_deg=60\ndirection/dec_deg=100")
si_test(dec_100 2 "!Output files"
  "error: setting 'image/direction/dec_deg' = '100': expected a declination in \\[-90, 90\\]"
  ${img} ${si_dir}/dec_100.ini)
si_ini(dec_m91 ${ok_ms} "direction=RA, Dec.\ndirection/ra_deg=60\ndirection/dec_deg=-91")
si_test(dec_m91 2 "!Output files" "error: setting 'image/direction/dec_deg' = '-91'"
  ${img} ${si_dir}/dec_m91.ini)
si_ini(ra_inf ${ok_ms} "direction=RA, Dec.\ndirection/ra_deg=inf\ndirection/dec_deg=-30")
si_test(ra_inf 2 "!Output files" "error: .*setting 'image/direction/ra_deg' = 'inf'"
  ${img} ${si_dir}/ra_inf.ini)
si_ini(small_grid ${ok_ms} "size=4\nalgorithm=IDG")
si_test(small_grid 2 "!Output files"
  "error: setting 'image/size' = '4': .*image/idg/subgrid_size 32"
  ${img} ${si_dir}/small_grid.ini)
si_ini(small_grid_fft ${ok_ms} "size=4")
si_test(small_grid_fft 2 "!Output files"
  "error: setting 'image/size' = '4': .*image/fft/support 3"
  ${img} ${si_dir}/small_grid_fft.ini)
# Runaway size: refused before allocating, pointing to --force.
si_ini(runaway ${ok_ms} "size=100000\nspecify_cellsize=true\ncellsize_arcsec=0.1")
si_test(runaway 2 "!Output files" "error: .*100000 x 100000.*--force"
  ${img} ${si_dir}/runaway.ini)

# Outputs: inside the input MS, or a file that is not FITS: refused, untouched.
si_ini(into_input ${ok_ms} "root_path=${ok_ms}/img")
si_test(into_input 2 "!Output files"
  "error: setting 'image/root_path' = '.*inf_flagged.ms/img_I.fits': .*input"
  bash ${si_data}/keeps_file.sh ${ok_ms}/table.info "Type = Measurement Set" --
  ${img} ${si_dir}/into_input.ini)
file(WRITE ${si_dir}/thesis_I.fits "my thesis\n")
si_ini(thesis ${ok_ms} "")
si_test(not_fits 2 "!Output files" "error: setting 'image/root_path' = '.*thesis_I.fits'"
  bash ${si_data}/keeps_file.sh ${si_dir}/thesis_I.fits "my thesis" --
  ${img} ${si_dir}/thesis.ini)

# All-zero images: a loud warning with the reason; an error with --strict.
si_ini(zero ${si_dir}/zero.ms "")
si_test(all_zero 0
  "warning: imager: ALL-ZERO IMAGE .*every visibility imaged in the selection is zero" ""
  ${img} ${si_dir}/zero.ini)
si_test(all_zero_strict 2 "!Output files" "error: imager: ALL-ZERO IMAGE.*--strict"
  ${img} --strict ${si_dir}/zero.ini)
si_ini(chan1_flagged ${si_dir}/chan1_flagged.ms "channel_snapshots=true")
si_test(empty_plane 0
  "warning: imager: ALL-ZERO IMAGE PLANE 1 .*no visibility of channel 1 .* could be gridded" ""
  ${img} ${si_dir}/chan1_flagged.ini)
si_test(empty_plane_strict 2 "!Output files" "error: imager: ALL-ZERO IMAGE PLANE 1"
  ${img} --strict ${si_dir}/chan1_flagged.ini)
si_ini(uv_filtered ${ok_ms} "uv_filter_max=1")
si_test(all_uv_filtered 2 "!Output files"
  "error: no visibilities selected .*outside the uv range" ${img} ${si_dir}/uv_filtered.ini)

# SIGTERM mid-run (a slow 3-D DFT): exit 143 within a few seconds, no image, no temporary.
si_ini(sigterm ${ok_ms} "size=4096\nalgorithm=DFT 3D")
si_test(sigterm 0 "rc=143" ""
  bash ${si_data}/sigterm.sh ${img} ${si_dir}/sigterm.ini ${si_dir}/sigterm 0.5)
