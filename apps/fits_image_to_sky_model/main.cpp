// fits_image_to_sky_model: a FITS image (or HEALPix FITS map) as a sky model file, as OSKAR
// 2.13's oskar_fits_image_to_sky_model, without a simulation (docs/sky_models.md):
//   fits_image_to_sky_model [-s SPIX] [-f FRACTION] [-n FLOOR] <FITS file> <sky model file>
// Every selected pixel becomes a point source (fringe/sky/image_to_sky.h). The output is
// fringe's fixed-column sky model (.osm), written through the output guard: only an earlier
// fringe sky model is replaced, and only once the new one is complete.
// Exit codes: 0 written; 1 writing failed; 2 bad input (command line, input file, an output
// path that holds something else, no pixel selected); 128 + signal when interrupted.
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/log.h"
#include "fringe/core/output_guard.h"
#include "fringe/sky/image_to_sky.h"
#include "fringe/sky/sky_writer.h"
#include "fringe/sky/text_parse.h"

namespace {

// A bad command line or input: exit 2.
struct BadInput : fringe::Error {
  using fringe::Error::Error;
  explicit BadInput(const fringe::Error& e) : fringe::Error(e.message(), e.context()) {}
};
// A bad command line: exit 2, with the usage text.
struct BadCommandLine : BadInput {
  using BadInput::BadInput;
};

void usage(std::ostream& out) {
  out << "Usage: fits_image_to_sky_model [OPTIONS] <FITS file> <sky model file>\n\n"
         "Converts a FITS image (or a HEALPix FITS map) to a sky model file, one point\n"
         "source per selected pixel, as OSKAR's oskar_fits_image_to_sky_model.\n\n"
         "Options:\n"
         "  -s ARG     spectral index given to every source (default 0.0)\n"
         "  -f ARG     minimum fraction of the image peak: pixels below it are ignored\n"
         "             (default 0.0: no peak rule)\n"
         "  -n ARG     noise floor in the image's units: pixels below it are ignored\n"
         "             (default 0.0: negative pixels are ignored)\n"
         "  --help     show this text\n"
         "  --version  show the version\n";
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

struct Args {
  double spectral_index = 0.0, min_peak_fraction = 0.0, min_abs_val = 0.0;
  std::vector<std::string> files;
  bool help = false, version = false;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    if (s == "--help" || s == "-h") {
      a.help = true;
    } else if (s == "--version") {
      a.version = true;
    } else if (s == "-s" || s == "-f" || s == "-n") {
      if (i + 1 >= argc) throw BadCommandLine("option " + s + " needs a value");
      const std::string text = argv[++i];
      const auto v = fringe::sky::text::parse_number(text);
      if (!v) throw BadCommandLine("option " + s + " = '" + text + "': expected a finite number");
      if (s == "-f" && (*v < 0.0 || *v > 1.0))
        throw BadCommandLine("option -f = '" + text +
                             "': expected a fraction of the peak within [0, 1]");
      (s == "-s" ? a.spectral_index : s == "-f" ? a.min_peak_fraction : a.min_abs_val) = *v;
    } else if (s.size() > 1 && s[0] == '-') {
      throw BadCommandLine("unknown option '" + s + "' (expected -s, -f, -n, --help or --version)");
    } else {
      a.files.push_back(s);
    }
  }
  if (!a.help && !a.version && a.files.size() != 2)
    throw BadCommandLine("expected two file names, the FITS file and the sky model file (got " +
                         std::to_string(a.files.size()) + ")");
  return a;
}

int run(const Args& a) {
  const std::string& input = a.files[0];
  const std::string& output = a.files[1];
  fringe::Logger log(std::cerr);
  log.set_timestamps(false);
  fringe::sky::SkyModel sky;
  try {
    // Before any work: the output may only replace an earlier fringe sky model.
    fringe::check_outputs({fringe::sky::sky_text_target("", output)}, {input});
    fringe::sky::ImageToSkyOptions o;
    o.spectral_index = a.spectral_index;
    o.min_peak_fraction = a.min_peak_fraction;
    o.min_abs_val = a.min_abs_val;
    o.diagnostics.logger = &log;
    sky = fringe::sky::read_image_as_sky(input, o);
  } catch (const fringe::interrupt::Cancelled&) {
    throw;
  } catch (const fringe::Error& e) {
    throw BadInput(e);
  }
  if (sky.size() == 0)
    throw BadInput(input + ": no pixel passed the selection (-f " +
                   std::to_string(a.min_peak_fraction) + ", -n " + std::to_string(a.min_abs_val) +
                   "); no sky model written");
  fringe::sky::write_sky_fixed_columns(sky, output, fringe::sky::Diagnostics{&log, nullptr});
  std::cout << "Wrote " << sky.size() << " sources from " << input << " to " << output << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args a = parse(argc, argv);
    if (a.help) {
      usage(std::cout);
      return 0;
    }
    if (a.version) {
      std::cout << "fits_image_to_sky_model (fringe " << FRINGE_VERSION << ")\n";
      return 0;
    }
    fringe::interrupt::install();  // SIGINT/SIGTERM while writing: the temporary is removed
    return run(a);
  } catch (const fringe::interrupt::Cancelled& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 128 + e.signal_number();
  } catch (const BadCommandLine& e) {
    std::cerr << "error: " << e.what() << "\n\n";
    usage(std::cerr);
    return 2;
  } catch (const BadInput& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
