// The config fields the library names in errors and warnings of the imager app (fringe/imager,
// and the station beams of its A-terms), and the settings keys they come from (field_keys.h).
// Angles are held in radians but shown, like the keys, in their units (the pixel size in
// arcsec, the image centre in degrees).
#include "fringe/app/field_keys.h"

namespace fringe::app {

const FieldKeys& imager_field_keys() {
  static const FieldKeys keys = merge(
      {
          {"DeviceRequest.cuda_device_ids", "image/cuda_device_ids"},
          {"DeviceRequest.num_devices", "image/num_devices"},
          {"DeviceRequest.use_gpus", "image/use_gpus"},
          {"ImagerConfig.input_ms", "image/input_vis_data"},
          {"ImagerConfig.root_path", "image/root_path"},
          {"ImagerConfig.model_image", "image/model_image"},
          {"ImagerConfig.precision", "image/double_precision"},
          {"ImagerConfig.size", "image/size"},
          {"ImagerConfig.read_rows", "image/read_rows"},
          {"ImagerConfig.cell_rad", "image/cellsize_arcsec"},
          {"ImagerConfig.channel_snapshots", "image/channel_snapshots"},
          {"ImagerConfig.freq_min_hz", "image/freq_min_hz"},
          {"ImagerConfig.freq_max_hz", "image/freq_max_hz"},
          {"ImagerConfig.uv_min_lambda", "image/uv_filter_min"},
          {"ImagerConfig.uv_max_lambda", "image/uv_filter_max"},
          {"ImagerConfig.rephase", "image/direction"},
          {"ImagerConfig.centre_ra_rad", "image/direction/ra_deg"},
          {"ImagerConfig.centre_dec_rad", "image/direction/dec_deg"},
          {"IdgConfig.subgrid_size", "image/idg/subgrid_size"},
          {"IdgConfig.kernel_size", "image/idg/kernel_size"},
          {"IdgConfig.taper_support", "image/idg/taper_support"},
          {"IdgConfig.padding", "image/idg/padding"},
          {"IdgConfig.w_step_lambda", "image/idg/w_step_lambda"},
          {"IdgConfig.max_layer_bytes", "image/idg/layer_memory_mb"},
          {"IdgConfig.aterm_interval_s", "image/idg/aterm_interval_sec"},
          {"IdgConfig.channel_group_size", "image/idg/channel_group_size"},
          {"FftConfig.support", "image/fft/support"},
          {"FftConfig.oversample", "image/fft/oversample"},
          {"WProjConfig.num_w_planes", "image/wproj/num_w_planes"},
          {"ATermConfig.mode", "image/idg/aterms"},
          {"ATermConfig.telescope", "telescope/input_directory"},
      },
      station_beam_field_keys());
  return keys;
}

}  // namespace fringe::app
