#pragma once
#include <pybind11/pybind11.h>

namespace sl::py {

// sightline.Error and its subclasses by kind (ReadError, ParseError, FormatError, LimitError,
// WriteError, GraphError, UsageError, KnobError), and the translation of the core's errors into
// them: the message is the line the CLI prints after "error: " (docs/Python.md, "Errors").
void bindErrors(pybind11::module_& m);

} // namespace sl::py
