#pragma once
// The state behind sightline.Session: a loaded trace set and, once asked for, its execution graph
// (docs/Python.md). Every number comes from the core: this file only holds what it computed.
#include "base/Diagnostics.h"
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"
#include "trace/TraceSet.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

namespace sl::py {

struct Session {
    std::vector<std::string> paths;
    std::vector<std::string> etPaths;
    int step = -1;
    std::shared_ptr<TraceSet> set;
    Warnings etWarnings;                         // of the execution traces attached at load
    std::string etNote;                          // their one-line summary, empty without any
    std::shared_ptr<const ExecutionGraph> graph; // built on first use

    // The graph (built with the GIL released on first use).
    std::shared_ptr<const ExecutionGraph> executionGraph();
};

// Knobs from a Python mapping {key: value}: each as `--set key=value` would set it (KnobError
// naming the key otherwise). Values: str, bool ("true" / "false"), int or float (their text).
SimKnobs knobsFrom(const pybind11::object& mapping);

// The module's load(), Session methods and the simulation result (Result.cpp).
void bindSession(pybind11::module_& m);
void bindResult(pybind11::module_& m);
void bindSummary(pybind11::module_& m);

// The measured events of the set as numpy columns (EventFrame.cpp): a dict for a DataFrame.
pybind11::dict eventColumns(const TraceSet& set, int rank, const std::string& kind);

} // namespace sl::py
