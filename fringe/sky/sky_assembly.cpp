#include "fringe/sky/sky_assembly.h"

#include <string>

#include "fringe/sky/filters.h"
#include "fringe/sky/fits_image_reader.h"
#include "fringe/sky/generators.h"
#include "fringe/sky/healpix.h"
#include "fringe/sky/sky_text_reader.h"
#include "fringe/sky/sky_writer.h"

namespace fringe::sky {

SkyModel assemble_sky(const SkyConfig& config, const SkyGeometry& g, bool strict,
                      const Diagnostics& diagnostics) {
  SkyModel sky;
  auto add = [&](SkyModel part, const FilterConfig* filter, const ExtendedSourceConfig* ext,
                 const std::string& what) {
    const std::size_t before = part.size();
    if (filter)
      part = apply_filter(part, *filter, g.phase_centre_ra, g.phase_centre_dec, g.drift_scan);
    if (ext) apply_extended_sources(part, *ext);
    diagnostics.info(what + ": " + std::to_string(part.size()) + " sources (" +
                     std::to_string(before - part.size()) + " removed by filters)");
    sky.append(part);
  };
  TextReadOptions text_options;
  text_options.strict = strict;
  text_options.diagnostics = diagnostics;
  for (const std::string& file : config.oskar_sky_model.file)
    add(read_sky_text(file, text_options), &config.oskar_sky_model.filter,
        &config.oskar_sky_model.extended_sources, file);
  for (const std::string& file : config.fits_image.file) {
    if (fits_primary_naxis(file) == 0) {
      // OSKAR reads a NAXIS = 0 file given as a FITS image as a HEALPix map.
      HealpixReadOptions o;
      o.default_map_units = config.fits_image.default_map_units;
      o.override_map_units = config.fits_image.override_map_units;
      o.spectral_index = config.fits_image.spectral_index;
      o.min_peak_fraction = config.fits_image.min_peak_fraction;
      o.min_abs_val = config.fits_image.min_abs_val;
      o.freq_hz = 0.0;
      o.diagnostics = diagnostics;
      add(read_healpix_sky(file, o), &config.fits_image.filter, nullptr, file);
      continue;
    }
    FitsImageReadOptions o = fits_image_read_options(config.fits_image);
    o.diagnostics = diagnostics;
    add(read_fits_image_sky(file, o), &config.fits_image.filter, nullptr, file);
  }
  for (const std::string& file : config.healpix_fits.file) {
    HealpixReadOptions o = healpix_read_options(config.healpix_fits);
    o.diagnostics = diagnostics;
    add(read_healpix_sky(file, o), &config.healpix_fits.filter,
        &config.healpix_fits.extended_sources, file);
  }
  const GeneratorConfig& gen = config.generator;
  if (gen.grid.side_length > 0)
    add(generate_grid(gen.grid, g.phase_centre_ra, g.phase_centre_dec), nullptr,
        &gen.grid.extended_sources, "grid generator");
  if (gen.healpix.nside > 0)
    add(generate_healpix(gen.healpix), &gen.healpix.filter, &gen.healpix.extended_sources,
        "HEALPix generator");
  if (gen.random_power_law.num_sources > 0)
    add(generate_random_power_law(gen.random_power_law), &gen.random_power_law.filter,
        &gen.random_power_law.extended_sources, "random power-law generator");
  if (gen.random_broken_power_law.num_sources > 0)
    add(generate_random_broken_power_law(gen.random_broken_power_law),
        &gen.random_broken_power_law.filter, &gen.random_broken_power_law.extended_sources,
        "random broken power-law generator");
  override_spectral_index(sky, config.spectral_index);
  write_sky_text(sky, config.output_text_file, diagnostics);
  return sky;
}

}  // namespace fringe::sky
