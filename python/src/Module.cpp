// The compiled half of the `sightline` Python package (python/sightline/__init__.py is the other):
// bindings over the core only, no numbers of its own (docs/Python.md).
#include "Errors.h"
#include "Session.h"

#include <pybind11/pybind11.h>

PYBIND11_MODULE(_core, m) {
    m.doc() = "Sightline's core: load, simulate and analyse distributed training traces";
    sl::py::bindErrors(m);
    sl::py::bindSession(m);
    sl::py::bindResult(m);
    sl::py::bindSummary(m);
}
