#!/usr/bin/env bash
# integration.install.cpp_example: installs this build into a scratch folder and builds and
# runs examples/cpp against that installed copy only.
#   install_example_test.sh <build dir> <scratch dir> <source dir> <version> <cmake>
#                           <generator> <python3 with casacore>
# Steps (each failure is reported and makes the test fail):
#  1. `cmake --install` with DESTDIR=<scratch>/stage (so that nothing, not even a rule with an
#     absolute destination, can land outside the scratch folder) and prefix /opt/fringe: the
#     installed tree is at <scratch>/stage/opt/fringe, a place it was not configured for, so
#     the CMake package and fringe.pc must find their prefix themselves.
#  2. The installed tree: apps (and one runs), libfringe.so with its soname links, every header
#     of fringe/ except fringe/python and nothing else under include/, the settings schemas,
#     the CMake package and fringe.pc; the public API symbols are exported and none is left
#     undefined.
#  3. examples/cpp, copied out of the source tree, configured with CMAKE_PREFIX_PATH alone;
#     every include folder of its compile commands must lie in the installed tree.
#  4. The same program built with `c++ ... $(pkg-config --cflags --libs fringe)`.
#  5. Both programs simulate into a Measurement Set; check_ms.py reads each back (rows =
#     times x baselines of the telescope's layout file, channels, stations, values).
set -u
build=$1 scratch=$2 src=$3 version=$4 cmake=$5 generator=$6 python=$7
here=$(cd "$(dirname "$0")" && pwd)
telescope=$src/telescope-models/ska-mid-aa1.tm
fail=0
failed() { echo "FAIL: $*"; fail=1; }
die() { echo "FAIL: $*"; exit 1; }

# The scratch folder is this test's own (marked); anything else in its place is left alone.
marker=.fringe_install_test
if [ -e "$scratch" ]; then
  [ -e "$scratch/$marker" ] || die "$scratch exists but was not made by this test; not touching it"
  rm -rf "$scratch"
fi
mkdir -p "$scratch" && touch "$scratch/$marker" || die "cannot create $scratch"
stage=$scratch/stage
prefix=$stage/opt/fringe

# 1. Install.
DESTDIR=$stage "$cmake" --install "$build" --prefix /opt/fringe >"$scratch/install.log" 2>&1 ||
  { tail -20 "$scratch/install.log"; die "cmake --install failed (is everything built?)"; }
outside=$(find "$stage" -mindepth 1 -maxdepth 1 ! -name opt)
[ -z "$outside" ] || failed "files installed outside the prefix: $outside"

# 2. The installed tree.
for app in sim_interferometer sim_beam_pattern imager calibrate vis_to_ms vis_add \
  vis_add_noise vis_summary fits_image_to_sky_model; do
  [ -x "$prefix/bin/$app" ] || failed "bin/$app not installed"
done
"$prefix/bin/sim_interferometer" --version | grep -q "$version" ||
  failed "installed sim_interferometer --version does not run or name $version"
lib=$prefix/lib
[ -f "$lib/libfringe.so.$version" ] || failed "lib/libfringe.so.$version missing"
[ "$(readlink "$lib/libfringe.so.${version%%.*}")" = "libfringe.so.$version" ] ||
  failed "lib/libfringe.so.${version%%.*} is not a link to libfringe.so.$version"
[ -L "$lib/libfringe.so" ] || failed "lib/libfringe.so (link for -lfringe) missing"
soname=$(readelf -d "$lib/libfringe.so.$version" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "libfringe.so.${version%%.*}" ] || failed "soname is '$soname'"
for f in cmake/fringe/fringeConfig.cmake cmake/fringe/fringeConfigVersion.cmake \
  cmake/fringe/fringeTargets.cmake pkgconfig/fringe.pc; do
  [ -f "$lib/$f" ] || failed "lib/$f missing"
done
want=$(cd "$src" && find fringe -name '*.h' -not -path 'fringe/python/*' | sort)
have=$(cd "$prefix/include" && find . -type f | sed 's|^\./||' | sort)
[ "$want" = "$have" ] || failed "installed headers differ from fringe/**/*.h:
$(diff <(echo "$want") <(echo "$have") | head -20)"
want=$(cd "$src/settings" && find . -name '*.xml' -not -path './examples/*' | sort)
have=$(cd "$prefix/share/fringe/settings" && find . -type f | sort)
[ "$want" = "$have" ] || failed "installed settings schemas differ from settings/**/*.xml"
symbols=$(nm -D --defined-only -C "$lib/libfringe.so.$version")
for sym in 'fringe::api::version\[abi:cxx11\]()' 'fringe::api::built_with_cuda()' \
  'fringe::api::Interferometer::run(' 'fringe::api::load_telescope(' \
  'fringe::api::make_observation(' 'fringe::api::append_sources(' \
  'fringe::sim::simulate_interferometer(' 'fringe::telescope::load_telescope_model('; do
  grep -q "$sym" <<<"$symbols" || failed "libfringe.so does not export $sym"
done
undefined=$(ldd -r "$lib/libfringe.so.$version" 2>&1 | grep -E 'undefined symbol|not found')
[ -z "$undefined" ] || failed "libfringe.so has unresolved symbols or libraries:
$(head -5 <<<"$undefined")"

# The expected MS: every line of the layout file that is neither blank nor a comment is a
# station; only cross-correlations are written; the example's sky totals 3.5 Jy at 1.4 GHz.
stations=$(grep -cvE '^[[:space:]]*(#|$)' "$telescope/layout.txt")
times=4 channels=2
rows=$((times * stations * (stations - 1) / 2))
check_run() {  # name program
  local out=$scratch/$1.ms
  "$2" "$telescope" "$out" >"$scratch/$1.out" 2>&1 || { cat "$scratch/$1.out"; failed "$1 exited $?"; return; }
  cat "$scratch/$1.out"
  grep -q "wrote $out: $rows rows" "$scratch/$1.out" || failed "$1 did not report $rows rows"
  grep -qE "^block [0-9]+/[0-9]+: .* x $((stations * (stations - 1) / 2)) baselines" \
    "$scratch/$1.out" || failed "$1's block callback did not report the baselines"
  ldd "$2" | grep -q "=> $lib/libfringe.so.${version%%.*} " ||
    failed "$1 does not load libfringe from the installed tree"
  "$python" "$here/check_ms.py" "$out" "$rows" "$channels" "$stations" "$times" 3.5 ||
    failed "$1's Measurement Set"
}

# 3. The example through find_package(fringe), from a copy outside the source tree.
cp -r "$src/examples/cpp" "$scratch/example-src" || die "cannot copy examples/cpp"
"$cmake" -S "$scratch/example-src" -B "$scratch/example-build" -G "$generator" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  >"$scratch/example-configure.log" 2>&1 ||
  { cat "$scratch/example-configure.log"; die "examples/cpp does not configure"; }
"$cmake" --build "$scratch/example-build" >"$scratch/example-build.log" 2>&1 ||
  { cat "$scratch/example-build.log"; die "examples/cpp does not build"; }
includes=$(grep -oE '(-I|-isystem )[^ "]+' "$scratch/example-build/compile_commands.json" |
  sed -E 's/^(-I|-isystem )//' | sort -u)
[ -n "$includes" ] || failed "no include folder in the example's compile commands"
while read -r dir; do
  case "$dir" in "$prefix"/*) ;; *) failed "example compiled with include folder $dir" ;; esac
done <<<"$includes"
check_run cmake_example "$scratch/example-build/simulate_ms"

# 4. The same program through pkg-config.
export PKG_CONFIG_PATH=$lib/pkgconfig
[ "$(pkg-config --modversion fringe)" = "$version" ] || failed "pkg-config --modversion fringe"
flags=$(pkg-config --cflags --libs fringe) || die "pkg-config --cflags --libs fringe failed"
echo "pkg-config: $flags"
c++ "$scratch/example-src/simulate_ms.cpp" $flags -Wl,-rpath,"$lib" \
  -o "$scratch/simulate_ms_pc" >"$scratch/pc-build.log" 2>&1 ||
  { cat "$scratch/pc-build.log"; die "pkg-config build of the example failed"; }
check_run pkgconfig_example "$scratch/simulate_ms_pc"

if [ $fail = 0 ]; then
  rm -rf "$stage"  # 0.5 GB; the logs and Measurement Sets stay for a look
  echo "install test: passed"
fi
exit $fail
