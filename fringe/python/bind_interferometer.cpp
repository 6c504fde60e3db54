// fringe.Interferometer, fringe.VisBlock and the block iterator (api::Interferometer;
// docs/python.md, "Simulation"). Names follow OSKAR's Python Interferometer where the concept
// is the same (set_sky_model, set_telescope_model, set_output_measurement_set, process_block,
// ...). The GIL is released while the pipeline runs; a process_block() override is called with
// the GIL taken back, on the pipeline's writer thread; the iterator's pipeline runs on its own
// thread and never touches Python.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <complex>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fringe/api/interferometer.h"
#include "fringe/api/settings.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/core/precision.h"
#include "fringe/python/bindings.h"

namespace py = pybind11;

namespace fringe::python {
namespace {

using api::BlockView;
using api::Interferometer;
using BlockPtr = std::shared_ptr<BlockView>;

// A numpy array over `data` (no copy) that keeps `owner` (the VisBlock) alive.
template <typename T>
py::array view(const py::object& owner, T* data, std::vector<py::ssize_t> shape) {
  return py::array_t<T>(std::move(shape), data, owner);
}

py::dict result_dict(const api::SimulationResult& r) {
  py::dict d;
  d["ms_path"] = r.ms_path;
  d["vis_path"] = r.vis_path;
  d["num_rows"] = r.num_rows;
  d["num_blocks"] = r.num_blocks;
  d["num_chunks"] = r.num_chunks;
  d["num_threads"] = r.num_threads;
  d["gpus"] = r.gpus;
  return d;
}

// The iterator of Interferometer.blocks(): the pipeline on a background thread, blocks handed
// over through a bounded queue (api::BlockStream).
struct BlockIterator {
  std::optional<api::BlockStream> stream;
  BlockPtr next() {
    if (!stream) throw py::stop_iteration();
    // Wait in slices, so that Ctrl-C (a Python signal) stops the run between them.
    for (bool ready = false; !ready;) {
      {
        py::gil_scoped_release release;
        ready = stream->wait_for(std::chrono::milliseconds(100));
      }
      if (!ready && PyErr_CheckSignals() != 0) {
        close();
        throw py::error_already_set();
      }
    }
    std::optional<BlockView> v;
    {
      py::gil_scoped_release release;
      v = stream->next();
    }
    if (!v) throw py::stop_iteration();
    return std::make_shared<BlockView>(std::move(*v));
  }
  void close() {
    if (!stream) return;
    py::gil_scoped_release release;
    stream->close();
  }
};

Interferometer from_settings(const py::object& settings) {
  py::object tree = settings;
  if (py::isinstance<py::str>(settings)) {
    // A file name: loaded as fringe.SettingsTree does (the app's validation, warnings).
    tree = py::module_::import("fringe").attr("SettingsTree")("sim_interferometer", settings);
  }
  const auto& t = tree.cast<const api::SettingsTree&>();
  if (t.app() != "sim_interferometer")
    throw Error("Interferometer: settings of '" + t.app() + "', expected sim_interferometer's");
  py::gil_scoped_release release;
  return Interferometer::from_settings(t.settings(), t.file());
}

std::string device_of(const Interferometer& s) {
  return s.config().devices.use_gpus ? "gpu" : "cpu";
}
void set_device(Interferometer& s, const std::string& device) {
  if (device != "cpu" && device != "gpu")
    throw Error("Interferometer.device: '" + device + "', expected 'cpu' or 'gpu'");
  s.config().devices.use_gpus = device == "gpu";
}

std::string correlation_type(const Interferometer& s) {
  const auto& c = s.config();
  return c.write_cross && c.write_autos ? "Both"
         : c.write_autos                ? "Auto-correlations"
                                        : "Cross-correlations";
}
void set_correlation_type(Interferometer& s, const std::string& type) {
  auto& c = s.config();
  if (type == "Both") {
    c.write_cross = c.write_autos = true;
  } else if (type == "Cross-correlations") {
    c.write_cross = true;
    c.write_autos = false;
  } else if (type == "Auto-correlations") {
    c.write_cross = false;
    c.write_autos = true;
  } else {
    throw Error("Interferometer.correlation_type: '" + type +
                "', expected 'Cross-correlations', 'Auto-correlations' or 'Both'");
  }
}

std::string station_type(const Interferometer& s) {
  return jones::to_string(s.config().beam.station_type);
}
void set_station_type(Interferometer& s, const std::string& type) {
  using jones::StationType;
  for (StationType t : {StationType::ApertureArray, StationType::Isotropic, StationType::Gaussian,
                        StationType::VlaPbcor}) {
    if (type == jones::to_string(t)) {
      s.config().beam.station_type = t;
      return;
    }
  }
  throw Error("Interferometer.station_type: '" + type +
              "', expected 'Aperture array', 'Isotropic beam', 'Gaussian beam' or 'VLA (PBCOR)'");
}

// A property backed by a config field.
template <typename Get, typename Set>
void config_property(py::class_<Interferometer>& cls, const char* name, Get get, Set set,
                     const char* doc) {
  cls.def_property(name, get, set, doc);
  cls.def(("set_" + std::string(name)).c_str(), set, py::arg("value"), doc);
}

void bind_block(py::module_& m) {
  py::class_<BlockView, BlockPtr> blk(
      m, "VisBlock",
      R"doc(One block of simulated visibilities, as the Measurement Set holds them.

Arrays (numpy views of the block, no copy; C order):
  vis        complex64 [time, channel, baseline, pol]: DATA of the block's rows (Jy)
  uvw        float64 [time, baseline, 3]: UVW of the rows (metres)
  time       float64 [time]: dump centres, MJD(UTC) days (time_mjd_utc_sec: MS TIME, s)
  frequency  float64 [channel]: channel centres (Hz)
  antenna1, antenna2  int32 [baseline]: ANTENNA1 / ANTENNA2 of the rows
"baseline" is the MS row order of one dump (auto-correlations included when written), the
phase convention and pol products (4: XX, XY, YX, YY, or 1) are the MS's, so
vis.transpose(0, 2, 1, 3).reshape(-1, nchan, npol) equals the block's DATA rows bit for bit.)doc");
  blk.def_property_readonly(
         "vis",
         [](const py::object& self) {
           auto& b = self.cast<BlockView&>();
           return view(self, b.vis.data(),
                       {b.num_times, b.num_channels, py::ssize_t(b.num_rows), b.num_pols});
         },
         "Visibilities, complex64 [time, channel, baseline, pol] (Jy).")
      .def_property_readonly(
          "uvw",
          [](const py::object& self) {
            auto& b = self.cast<BlockView&>();
            return view(self, b.uvw.data(), {b.num_times, py::ssize_t(b.num_rows), 3});
          },
          "Baseline (u, v, w), float64 [time, baseline, 3] (metres).")
      .def_property_readonly(
          "time_mjd_utc_sec",
          [](const py::object& self) {
            auto& b = self.cast<BlockView&>();
            return view(self, b.time_mjd_utc_sec.data(), {b.num_times});
          },
          "Dump centres as MJD(UTC) x 86400 s (the MS TIME column), float64 [time].")
      .def_property_readonly(
          "time",
          [](const BlockView& b) {
            py::array_t<double> t(b.num_times);
            for (int i = 0; i < b.num_times; ++i) t.mutable_at(i) = b.time_mjd_utc_sec[i] / 86400.0;
            return t;
          },
          "Dump centres, MJD(UTC) days, float64 [time].")
      .def_property_readonly(
          "frequency",
          [](const py::object& self) {
            auto& b = self.cast<BlockView&>();
            return view(self, b.frequency_hz.data(), {b.num_channels});
          },
          "Channel centres, float64 [channel] (Hz).")
      .def_property_readonly(
          "antenna1",
          [](const py::object& self) {
            auto& b = self.cast<BlockView&>();
            return view(self, b.antenna1.data(), {py::ssize_t(b.num_rows)});
          },
          "ANTENNA1 of each row, int32 [baseline].")
      .def_property_readonly(
          "antenna2",
          [](const py::object& self) {
            auto& b = self.cast<BlockView&>();
            return view(self, b.antenna2.data(), {py::ssize_t(b.num_rows)});
          },
          "ANTENNA2 of each row, int32 [baseline].")
      .def_readonly("block_index", &BlockView::block_index, "0, 1, ... in run order.")
      .def_readonly("num_blocks", &BlockView::num_blocks, "Blocks of the whole run.")
      .def_readonly("start_time_index", &BlockView::start_time_index,
                    "Index of the block's first time in the observation.")
      .def_readonly("start_channel_index", &BlockView::start_channel_index,
                    "Index of the block's first channel in the observation.")
      .def_readonly("num_times", &BlockView::num_times)
      .def_readonly("num_channels", &BlockView::num_channels)
      .def_readonly("num_baselines", &BlockView::num_rows, "Rows of one dump.")
      .def_readonly("num_pols", &BlockView::num_pols)
      .def("__repr__", [](const BlockView& b) {
        return "<fringe.VisBlock " + std::to_string(b.block_index + 1) + "/" +
               std::to_string(b.num_blocks) + ": " + std::to_string(b.num_times) + " times from " +
               std::to_string(b.start_time_index) + ", " + std::to_string(b.num_channels) +
               " channels from " + std::to_string(b.start_channel_index) + ", " +
               std::to_string(b.num_rows) + " baselines x " + std::to_string(b.num_pols) + " pols>";
      });

  py::class_<BlockIterator>(m, "VisBlockIterator",
                            "The blocks of a running simulation (Interferometer.blocks()).")
      .def("__iter__", [](BlockIterator& it) -> BlockIterator& { return it; })
      .def("__next__", &BlockIterator::next)
      .def("close", &BlockIterator::close,
           "Stops the simulation if it still runs (files it was writing are removed).")
      .def("__enter__", [](BlockIterator& it) -> BlockIterator& { return it; })
      .def("__exit__", [](BlockIterator& it, const py::args&) { it.close(); })
      .def_property_readonly(
          "result",
          [](const BlockIterator& it) -> py::object {
            if (!it.stream) return py::none();
            const auto r = it.stream->result();
            return r ? py::object(result_dict(*r)) : py::none();
          },
          "The run's summary (dict) once every block was read, else None.");
}

}  // namespace

void bind_interferometer(py::module_& m) {
  bind_block(m);
  py::class_<Interferometer> cls(
      m, "Interferometer", py::dynamic_attr(),
      R"doc(The interferometer simulator (the sim_interferometer pipeline).

Interferometer(precision=None, settings=None): settings is a fringe.SettingsTree of
sim_interferometer or the name of its INI file; the sky, telescope and observation it names
are loaded then (as the app does; its calibrate/image steps are not run here). Without
settings, give the inputs with set_sky_model(), set_telescope_model() and set_observation()
(fringe.Sky, fringe.Telescope, fringe.Observation). Defaults: the CPU (device='cpu'),
double precision, OSKAR's defaults otherwise (aperture-array station beams, 8 times per block).

run() writes the outputs set (output_measurement_set, output_vis_file) and returns a summary;
a subclass may define process_block(self, block, block_index) (OSKAR's hook): it then gets
every fringe.VisBlock, in order, and run() needs no output file. blocks() (or iter()) yields
the VisBlocks while the simulation runs on a background thread, writing no file.)doc");
  cls.def(py::init([](const std::optional<std::string>& precision, const py::object& settings) {
            Interferometer sim = settings.is_none() ? Interferometer() : from_settings(settings);
            if (precision) sim.config().precision = parse_precision(*precision);
            return sim;
          }),
          py::arg("precision") = py::none(), py::arg("settings") = py::none())
      .def("set_sky_model", &Interferometer::set_sky_model, py::arg("sky"),
           "The sky to simulate (a fringe.Sky; copied).")
      .def("set_telescope_model", &Interferometer::set_telescope_model, py::arg("telescope"),
           "The telescope model (a fringe.Telescope; copied).")
      .def("set_observation", &Interferometer::set_observation, py::arg("observation"),
           "Phase centre, channels and times (a fringe.Observation).")
      .def_property_readonly(
          "sky_model", [](const Interferometer& s) { return api::Sky(s.sky_model()); },
          "The sky (a copy).")
      .def_property_readonly(
          "telescope_model",
          [](const Interferometer& s) { return api::Telescope(s.telescope_model()); },
          "The telescope model (a copy).")
      .def_property_readonly(
          "observation", [](const Interferometer& s) { return api::Observation(s.observation()); },
          "The observation (a copy).");
  config_property(
      cls, "precision",
      [](const Interferometer& s) { return std::string(to_string(s.config().precision)); },
      [](Interferometer& s, const std::string& p) { s.config().precision = parse_precision(p); },
      "Compute precision: 'single' or 'double' (the data written are complex float).");
  config_property(cls, "device", &device_of, &set_device,
                  "'cpu' (CPU threads) or 'gpu' (CUDA GPUs; the CPU with a warning when none).");
  config_property(
      cls, "gpus", [](const Interferometer& s) { return s.config().devices.cuda_device_ids; },
      [](Interferometer& s, const std::vector<int>& ids) {
        s.config().devices.cuda_device_ids = ids;
        if (!ids.empty()) s.config().devices.use_gpus = true;
      },
      "CUDA device indices to use (empty: all); setting some selects device 'gpu'.");
  config_property(
      cls, "num_devices", [](const Interferometer& s) { return s.config().devices.num_devices; },
      [](Interferometer& s, int n) { s.config().devices.num_devices = n; },
      "GPUs to use at most, or CPU threads of a CPU run (0: all).");
  config_property(
      cls, "max_times_per_block",
      [](const Interferometer& s) { return s.config().max_times_per_block; },
      [](Interferometer& s, int n) { s.config().max_times_per_block = n; },
      "Time steps per visibility block (OSKAR's max_time_samples_per_block).");
  config_property(
      cls, "max_channels_per_block",
      [](const Interferometer& s) { return s.config().max_channels_per_block; },
      [](Interferometer& s, int n) { s.config().max_channels_per_block = n; },
      "Channels per visibility block (0: min(num_channels, 8)).");
  config_property(
      cls, "max_sources_per_chunk",
      [](const Interferometer& s) { return s.config().max_sources_per_chunk; },
      [](Interferometer& s, std::size_t n) { s.config().max_sources_per_chunk = n; },
      "Sources per work unit.");
  config_property(
      cls, "output_measurement_set", [](const Interferometer& s) { return s.config().ms_path; },
      [](Interferometer& s, const std::string& p) { s.config().ms_path = p; },
      "Measurement Set that run() writes ('' = none; '.MS' is appended unless it ends .ms/.MS).");
  config_property(
      cls, "output_vis_file", [](const Interferometer& s) { return s.config().vis_path; },
      [](Interferometer& s, const std::string& p) { s.config().vis_path = p; },
      "OSKAR .vis file that run() writes ('' = none).");
  config_property(cls, "correlation_type", &correlation_type, &set_correlation_type,
                  "'Cross-correlations', 'Auto-correlations' or 'Both'.");
  config_property(cls, "station_type", &station_type, &set_station_type,
                  "'Aperture array', 'Isotropic beam', 'Gaussian beam' or 'VLA (PBCOR)'.");
  config_property(
      cls, "gaussian_beam_fwhm_deg",
      [](const Interferometer& s) { return s.config().beam.gaussian.fwhm_rad * 180 / kPi; },
      [](Interferometer& s, double deg) { s.config().beam.gaussian.fwhm_rad = deg * kPi / 180; },
      "FWHM of the 'Gaussian beam' station type (deg) at gaussian_beam_ref_freq_hz.");
  config_property(
      cls, "gaussian_beam_ref_freq_hz",
      [](const Interferometer& s) { return s.config().beam.gaussian.ref_freq_hz; },
      [](Interferometer& s, double f) { s.config().beam.gaussian.ref_freq_hz = f; },
      "Reference frequency of the Gaussian beam width (Hz; 0: no scaling).");
  config_property(
      cls, "polarisation_mode",
      [](const Interferometer& s) {
        return std::string(s.config().pol_mode == sim::PolarisationMode::Full ? "Full" : "Scalar");
      },
      [](Interferometer& s, const std::string& mode) {
        if (mode != "Full" && mode != "Scalar")
          throw Error("Interferometer.polarisation_mode: '" + mode +
                      "', expected 'Full' or 'Scalar'");
        s.config().pol_mode =
            mode == "Full" ? sim::PolarisationMode::Full : sim::PolarisationMode::Scalar;
      },
      "'Full' (4 products) or 'Scalar' (1).");
  config_property(
      cls, "horizon_clip", [](const Interferometer& s) { return s.config().apply_horizon_clip; },
      [](Interferometer& s, bool on) { s.config().apply_horizon_clip = on; },
      "Drop sources below every station's horizon.");
  config_property(
      cls, "casa_phase_convention",
      [](const Interferometer& s) { return s.config().casa_phase_convention; },
      [](Interferometer& s, bool on) { s.config().casa_phase_convention = on; },
      "The MS phase convention (docs/conventions.md); False: OSKAR's own (conjugated, q-p).");
  config_property(
      cls, "channel_bandwidth_hz",
      [](const Interferometer& s) { return s.config().channel_bandwidth_hz; },
      [](Interferometer& s, double hz) { s.config().channel_bandwidth_hz = hz; },
      "Bandwidth smearing (Hz; 0: off).");
  config_property(
      cls, "time_average_sec", [](const Interferometer& s) { return s.config().time_average_sec; },
      [](Interferometer& s, double sec) { s.config().time_average_sec = sec; },
      "Time smearing (s; 0: off).");

  cls.def(
         "run",
         [](const py::object& self) {
           auto& sim = self.cast<const Interferometer&>();
           // OSKAR's hook: a subclass's process_block(block, block_index), called with the GIL
           // taken back on the writer's thread. The sink holds a borrowed handle (no Python
           // reference counting while the GIL is released); `hook` keeps it alive.
           const py::object hook = py::getattr(self, "process_block", py::none());
           api::BlockSink sink;
           if (!hook.is_none()) {
             const py::handle h = hook;
             sink = [h](BlockView& v) {
               auto block = std::make_shared<BlockView>(std::move(v));
               py::gil_scoped_acquire gil;
               h(py::cast(block), block->block_index);
             };
           }
           api::SimulationResult r;
           {
             py::gil_scoped_release release;
             r = sim.run(sink);
           }
           return result_dict(r);
         },
         "Runs the simulation, writing output_measurement_set and/or output_vis_file (checked\n"
         "before any work: only nothing or an earlier output of the same kind is replaced) and\n"
         "calling process_block(block, block_index) for each block when a subclass defines it.\n"
         "Returns {'ms_path', 'vis_path', 'num_rows', 'num_blocks', ...}. fringe.Error for bad\n"
         "inputs; no file is left behind then.")
      .def(
          "blocks",
          [](const Interferometer& sim, bool write_files, std::size_t queue_blocks) {
            BlockIterator it;
            py::gil_scoped_release release;
            it.stream.emplace(sim.blocks(write_files, queue_blocks));
            return it;
          },
          py::arg("write_files") = false, py::arg("queue_blocks") = 2,
          "An iterator over the fringe.VisBlock of the simulation, running on a background\n"
          "thread while you read (at most queue_blocks wait unread). No file is written unless\n"
          "write_files. Stopping early (close(), or a `with` block) stops the simulation.")
      .def("__iter__", [](const Interferometer& sim) {
        BlockIterator it;
        py::gil_scoped_release release;
        it.stream.emplace(sim.blocks());
        return it;
      });
}

}  // namespace fringe::python
