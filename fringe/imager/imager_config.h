// ImagerConfig: everything an imager run needs, typed and in SI units (radians, Hz, seconds,
// wavelengths). The app layer makes one from the image/ settings group (settings/imager.xml);
// the library never sees a key string: its errors name fields ("ImagerConfig.size",
// "IdgConfig.padding"), which the app layer maps back to keys (fringe/app/field_keys.h).
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "fringe/core/device.h"
#include "fringe/core/precision.h"
#include "fringe/imager/conv_config.h"
#include "fringe/imager/taper.h"
#include "fringe/jones/station_beam_config.h"

namespace fringe::telescope {
struct TelescopeModel;
}

namespace fringe::imager {

// Image products (OSKAR's image/image_type). Linear and Stokes make four images.
enum class ImageType { Linear, XX, XY, YX, YY, Stokes, I, Q, U, V, Psf };
// Fft and WProjection: OSKAR's convolutional gridders (conv_config.h, conv_imager.h).
enum class Algorithm { Idg, Dft2d, Dft3d, Fft, WProjection };
// Radial (OSKAR's): each weight times the visibility's uv distance sqrt(u^2 + v^2) [wavelengths].
enum class Weighting { Natural, Radial, Uniform, Briggs };

// A-terms of IDG (image/idg/aterms; aterm_beam.h, docs/imager.md "A-terms"). None: identity.
// StationBeams: each station's beam E from fringe/jones (and, in Full mode with four
// products, the parallactic rotation R: J = E R, as the simulator applies it), evaluated on
// the subgrid pixels per A-term interval and channel group; the image is divided by the
// weighted average beam power so that sources keep their true flux.
enum class ATermMode { None, StationBeams };

struct ATermConfig {
  ATermMode mode = ATermMode::None;
  // The telescope model (its stations in the Measurement Set's ANTENNA order; element error
  // overrides already applied) and the beam settings of the telescope/ group.
  std::shared_ptr<const telescope::TelescopeModel> telescope;
  jones::StationBeamConfig beam;
  bool full_polarisation = true;  // telescope/pol_mode Full: J = E R; Scalar: E only
  // Image pixels where the average beam power is below this fraction of its peak are blank
  // (NaN): dividing by it there would only amplify noise and aliasing.
  double min_beam_fraction = 1e-4;
};

struct IdgConfig {
  int subgrid_size = 32;  // Ns [cells]
  int kernel_size = 9;    // taper support + room for the w term [cells]
  TaperType taper = TaperType::KaiserBessel;
  int taper_support = 7;          // [cells]; Spheroidal: always 6
  double padding = 1.25;          // grid = image size x padding (rounded up to even)
  double w_step_lambda = 0.0;     // 0: automatic
  int max_times_per_subgrid = 0;  // 0: no limit
  double aterm_interval_s = 0.0;  // 0: one A-term interval (the whole observation)
  int channel_group_size = 0;     // 0: as many as fit
  // Streamed IDG (idg_stream.h): the most memory (bytes) its w-layer grids may hold at once;
  // more layers than fit are gridded in further passes over the inputs. 0: half the memory
  // available at the start (on the GPU: the grids stay there when they fit in 60 % of its
  // free memory, else they are on the host under this limit).
  double max_layer_bytes = 0.0;
  ATermConfig aterms;
};

struct ImagerConfig {
  std::vector<std::string> input_ms;             // Measurement Sets (same channels)
  std::string ms_column = "DATA";                // DATA | MODEL_DATA | CORRECTED_DATA
  std::string root_path;                         // outputs <root_path>_<product>.fits
  bool scale_norm_with_num_input_files = false;  // true: images of the inputs add up

  Precision precision = Precision::Double;
  // The GPU IDG runs on (core choose_gpus: at most one); none or none usable: the CPU.
  DeviceRequest devices{.use_gpus = true, .cuda_device_ids = {}, .num_devices = 0};
  int num_threads = 0;  // CPU threads of the CPU back end; 0: all cores
  // Rows of an input read at a time by the streamed path (FFT, W-projection and IDG without
  // A-terms, one plane: stream_imager.h); 0: automatic (about 64 MB of columns per read).
  std::size_t read_rows = 0;

  int size = 256;         // image side [pixels], even
  double cell_rad = 0.0;  // pixel size (direction cosines)

  ImageType image_type = ImageType::I;
  bool channel_snapshots = false;
  double freq_min_hz = 0.0;
  double freq_max_hz = std::numeric_limits<double>::max();
  double time_min_s = 0.0;  // MJD(UTC) x 86400; <= 0: no limit
  double time_max_s = 0.0;
  double uv_min_lambda = 0.0;
  double uv_max_lambda = std::numeric_limits<double>::max();

  Algorithm algorithm = Algorithm::Idg;
  IdgConfig idg;
  FftConfig fft;      // algorithm Fft
  WProjConfig wproj;  // algorithm WProjection
  Weighting weighting = Weighting::Natural;
  double robust = 0.0;
  double taper_u_lambda = 0.0;  // Gaussian uv taper: weight x exp(ln 0.3 (u/u0)^2) (0: none)
  double taper_v_lambda = 0.0;
  // image/direction = "RA, Dec.": re-phase the visibilities to this centre (radians).
  bool rephase = false;
  double centre_ra_rad = 0.0;
  double centre_dec_rad = 0.0;

  // Prediction instead of imaging (image/model_image): a FITS model (Jy/pixel, Stokes I, this
  // config's size and cell) is degridded into `model_column` of every input MS.
  std::string model_image;
  std::string model_column = "MODEL_DATA";

  // The command line's --force and --strict (fringe::settings::RunOptions): force runs although
  // the run-size estimate exceeds the free memory or disk; strict makes the warnings about
  // non-finite input and all-zero images errors (docs/reliability/imager.md).
  bool force = false;
  bool strict = false;
};

const char* to_string(ImageType t);
// The names image/algorithm gives the algorithms: "FFT", "W-projection", "IDG", "DFT 2D",
// "DFT 3D"; algorithm_from_name is false for any other name.
const char* to_string(Algorithm a);
bool algorithm_from_name(const std::string& name, Algorithm& out);
std::vector<std::string> product_names(ImageType t);  // e.g. {"I"}, {"XX","XY","YX","YY"}

}  // namespace fringe::imager
