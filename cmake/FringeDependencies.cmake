# Finds fringe's dependencies (Debian 12 packages; scripts/setup installs them).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(OpenMP REQUIRED COMPONENTS CXX)

find_package(tinyxml2 CONFIG QUIET)
if(NOT TARGET tinyxml2::tinyxml2)
  pkg_check_modules(TINYXML2 REQUIRED IMPORTED_TARGET tinyxml2)
  add_library(tinyxml2::tinyxml2 ALIAS PkgConfig::TINYXML2)
endif()
# Plain header + library searches (not pkg-config) so that CMAKE_PREFIX_PATH finds packages
# unpacked outside /usr (the offline GPU host) and only the libraries we use are linked.
# fringe_find_library(<target> HEADER <h> LIBS <l...>) defines the imported target <target>.
function(fringe_find_library target)
  cmake_parse_arguments(F "" "HEADER" "LIBS" ${ARGN})
  string(MAKE_C_IDENTIFIER "${target}" id)
  find_path(${id}_INCLUDE_DIR ${F_HEADER} REQUIRED)
  add_library(${target} INTERFACE IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${${id}_INCLUDE_DIR}")
  foreach(lib ${F_LIBS})
    find_library(${id}_${lib}_LIBRARY ${lib} REQUIRED)
    target_link_libraries(${target} INTERFACE "${${id}_${lib}_LIBRARY}")
  endforeach()
endfunction()

fringe_find_library(PkgConfig::CFITSIO HEADER fitsio.h LIBS cfitsio)
fringe_find_library(PkgConfig::FFTW3 HEADER fftw3.h LIBS fftw3f fftw3)
fringe_find_library(PkgConfig::ERFA HEADER erfa.h LIBS erfa)
fringe_find_library(PkgConfig::CASACORE HEADER casacore/casa/aips.h
  LIBS casa_ms casa_measures casa_tables casa_casa)
find_package(nlohmann_json CONFIG REQUIRED)
# HDF5, C API only (fringe/io/hdf5 is its one user). Debian's serial build: FindHDF5 asks
# h5cc; where that wrapper is absent (debs unpacked under a prefix on the offline GPU host) the
# header and library are searched for directly, under hdf5/serial as Debian places them.
find_package(HDF5 QUIET COMPONENTS C)
add_library(fringe::hdf5 INTERFACE IMPORTED GLOBAL)
if(HDF5_FOUND)
  set_target_properties(fringe::hdf5 PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${HDF5_C_INCLUDE_DIRS}"
    INTERFACE_COMPILE_DEFINITIONS "${HDF5_C_DEFINITIONS}")
  target_link_libraries(fringe::hdf5 INTERFACE ${HDF5_C_LIBRARIES})
else()
  find_path(FRINGE_HDF5_INCLUDE_DIR hdf5.h PATH_SUFFIXES hdf5/serial REQUIRED)
  find_library(FRINGE_HDF5_LIBRARY NAMES hdf5_serial hdf5
    PATH_SUFFIXES hdf5/serial x86_64-linux-gnu/hdf5/serial REQUIRED)
  set_target_properties(fringe::hdf5 PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${FRINGE_HDF5_INCLUDE_DIR}")
  target_link_libraries(fringe::hdf5 INTERFACE "${FRINGE_HDF5_LIBRARY}")
endif()
if(FRINGE_TESTS)
  find_package(GTest REQUIRED)
  include(GoogleTest)
endif()

# CUDA: AUTO enables it when nvcc is found.
set(FRINGE_HAVE_CUDA OFF)
if(NOT FRINGE_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "80;90" CACHE STRING "CUDA architectures")
    endif()
    enable_language(CUDA)
    # CMake 3.25 (Debian 12) predates C++20 support for nvcc: tell it the flag.
    if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(FRINGE_HAVE_CUDA ON)
  elseif(FRINGE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "FRINGE_CUDA=ON but no CUDA compiler was found")
  endif()
endif()

# Qt 6 for the GUI.
set(FRINGE_HAVE_QT OFF)
if(NOT FRINGE_GUI STREQUAL "OFF")
  find_package(Qt6 QUIET COMPONENTS Widgets)
  if(Qt6_FOUND)
    set(FRINGE_HAVE_QT ON)
  elseif(FRINGE_GUI STREQUAL "ON")
    message(FATAL_ERROR "FRINGE_GUI=ON but Qt 6 Widgets was not found")
  endif()
endif()

# External tests use Debian's python3 (python3-casacore, numpy, astropy live there).
find_program(FRINGE_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
