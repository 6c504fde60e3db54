// fringe.Error and its subclasses: every fringe::Error thrown by the library reaches Python as
// one of these, carrying fringe's message (what() with its "file:line: " or "setting 'k' = 'v': "
// prefix) and the context fields as attributes (docs/python.md, "Errors").
//   fringe.Error        any fringe::Error (bad input unless a subclass says otherwise)
//   fringe.InputError   settings::InputError: a file the settings name is bad (apps exit 2)
//   fringe.RunFailure   imager/vistools RunFailure: the run itself failed (apps exit 1)
//   fringe.Cancelled    interrupt::Cancelled: SIGINT/SIGTERM stopped the run
// The translator is registered once for the whole extension, so every binding gets it.
#include <Python.h>

#include <exception>
#include <string>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/imager/imager.h"
#include "fringe/python/bindings.h"
#include "fringe/settings/app_cli.h"
#include "fringe/vistools/inputs.h"

namespace py = pybind11;

namespace fringe::python {
namespace {

// The exception classes; created once at import and kept for the life of the process (a
// module-level reference the interpreter never frees while the extension is loaded).
PyObject* g_error = nullptr;
PyObject* g_input_error = nullptr;
PyObject* g_run_failure = nullptr;
PyObject* g_cancelled = nullptr;

PyObject* new_class(py::module_& m, const char* name, const char* doc, PyObject* base) {
  const std::string qualified = std::string("fringe.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!cls) throw py::error_already_set();
  m.add_object(name, py::handle(cls));  // the module takes a new reference; ours stays
  return cls;
}

// Raises an instance of cls with the full message and the context as attributes.
void raise(PyObject* cls, const Error& e) {
  const ErrorContext& c = e.context();
  py::object exc = py::reinterpret_borrow<py::object>(cls)(std::string(e.what()));
  exc.attr("message") = e.message();
  exc.attr("file") = c.file;
  exc.attr("line") = c.line;
  exc.attr("key") = c.key;
  exc.attr("value") = c.value;
  exc.attr("field") = c.field;
  PyErr_SetObject(cls, exc.ptr());
}

}  // namespace

void bind_errors(py::module_& m) {
  g_error = new_class(m, "Error",
                      "An error reported by fringe (bad input or a failed run).\n\n"
                      "str(e) is fringe's full message, prefixed with the place it names "
                      "(\"file:line: \", \"setting 'key' = 'value': \" or \"field "
                      "'Struct.member' = 'value': \").\nAttributes: message (the sentence "
                      "alone), file, line (0 = unknown), key, value, field (empty when not "
                      "known).",
                      PyExc_RuntimeError);
  g_input_error = new_class(m, "InputError",
                            "A file that the settings or arguments name is bad (the apps "
                            "exit with code 2).",
                            g_error);
  g_run_failure = new_class(m, "RunFailure",
                            "The run itself failed although its input was fine (writing an "
                            "output, memory; the apps exit with code 1).",
                            g_error);
  g_cancelled = new_class(m, "Cancelled",
                          "The run was stopped by SIGINT/SIGTERM (temporaries removed).", g_error);
  // pybind11's translator type takes the pointer by value.
  py::register_exception_translator(
      [](std::exception_ptr p) {  // NOLINT(performance-unnecessary-value-param)
        if (!p) return;
        try {
          std::rethrow_exception(p);
        } catch (const interrupt::Cancelled& e) {
          raise(g_cancelled, e);
        } catch (const settings::InputError& e) {
          raise(g_input_error, e);
        } catch (const imager::RunFailure& e) {
          raise(g_run_failure, e);
        } catch (const vistools::RunFailure& e) {
          raise(g_run_failure, e);
        } catch (const Error& e) {
          raise(g_error, e);
        }
      });
}

}  // namespace fringe::python
