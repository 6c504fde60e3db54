// Placeholder until this family is bound (docs/python.md lists what the package has).
#include "fringe/python/bindings.h"

namespace fringe::python {

void bind_telescope(pybind11::module_& /*m*/) {}

}  // namespace fringe::python
