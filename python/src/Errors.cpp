#include "Errors.h"

#include "base/Error.h"
#include "sim/Knobs.h"

#include <new>

namespace sl::py {

namespace {

PyObject* newError(pybind11::module_& m, const char* name, PyObject* base, const char* doc) {
    const std::string qualified = std::string("sightline.") + name;
    PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
    if (!type) throw pybind11::error_already_set();
    m.add_object(name, pybind11::handle(type));
    return type;
}

struct ErrorTypes {
    PyObject* base = nullptr;
    PyObject* byKind[7] = {};
    PyObject* knob = nullptr;
};

ErrorTypes& types() {
    static ErrorTypes t;
    return t;
}

void raise(PyObject* type, const Error& e) {
    pybind11::object err = pybind11::reinterpret_borrow<pybind11::object>(type)(e.what());
    err.attr("kind") = errorKindName(e.kind());
    err.attr("file") = e.file();
    err.attr("message") = e.message();
    PyErr_SetObject(type, err.ptr());
}

} // namespace

void bindErrors(pybind11::module_& m) {
    ErrorTypes& t = types();
    t.base = newError(m, "Error", PyExc_RuntimeError,
                      "An error of the Sightline core; str() is the one line sightline-cli prints.");
    auto kind = [&](ErrorKind k, const char* name, PyObject* base, const char* doc) {
        t.byKind[static_cast<int>(k)] = newError(m, name, base, doc);
    };
    kind(ErrorKind::Read, "ReadError", t.base, "A file cannot be opened or read.");
    kind(ErrorKind::Parse, "ParseError", t.base, "The bytes are not the syntax they claim.");
    kind(ErrorKind::Format, "FormatError", t.byKind[static_cast<int>(ErrorKind::Parse)],
         "Well-formed, but not what a reader understands.");
    kind(ErrorKind::Limit, "LimitError", t.base, "Larger than what the program accepts.");
    kind(ErrorKind::Write, "WriteError", t.base, "A file cannot be written.");
    kind(ErrorKind::Graph, "GraphError", t.base, "An execution graph that cannot be built.");
    kind(ErrorKind::Usage, "UsageError", t.base, "A mistake in the arguments.");
    t.knob = newError(m, "KnobError", t.byKind[static_cast<int>(ErrorKind::Usage)],
                      "A knob that does not exist or a value it cannot honour (as --set).");
    pybind11::register_exception_translator([](std::exception_ptr p) {
        if (!p) return;
        try {
            std::rethrow_exception(p);
        } catch (const KnobError& e) {
            raise(types().knob, e);
        } catch (const Error& e) {
            raise(types().byKind[static_cast<int>(e.kind())], e);
        } catch (const std::bad_alloc&) {
            PyErr_SetString(types().byKind[static_cast<int>(ErrorKind::Limit)], "out of memory");
        }
    });
}

} // namespace sl::py
