#include "Session.h"

#include "Interrupt.h"

#include "analysis/Sweep.h"
#include "io/EtFolder.h"
#include "io/KinetoLoader.h"
#include "report/SweepReport.h"
#include "report/ToolSetup.h"

#include <pybind11/stl.h>

namespace sl::py {

namespace pyb = pybind11;

std::shared_ptr<const ExecutionGraph> Session::executionGraph() {
    if (!graph) {
        std::shared_ptr<const ExecutionGraph> built;
        runInterruptible([&](const std::atomic<bool>&, Progress&) {
            built = std::make_shared<const ExecutionGraph>(buildGraphForPaths(*set, paths, step, etWarnings));
        });
        graph = std::move(built);
    }
    return graph;
}

SimKnobs knobsFrom(const pyb::object& mapping) {
    SimKnobs knobs;
    if (mapping.is_none()) return knobs;
    for (auto item : pyb::reinterpret_borrow<pyb::dict>(mapping)) {
        const std::string key = pyb::str(item.first);
        const pyb::handle v = item.second;
        std::string text;
        if (pyb::isinstance<pyb::bool_>(v))
            text = v.cast<bool>() ? "true" : "false";
        else
            text = pyb::str(v);
        setKnob(knobs, key, text);
    }
    return knobs;
}

namespace {

std::shared_ptr<Session> load(const std::vector<std::string>& paths, const std::vector<std::string>& et,
                              int step, const pyb::object& progress) {
    if (paths.empty()) throw Error(ErrorKind::Usage, std::string(), "load needs at least one path");
    auto s = std::make_shared<Session>();
    s->paths = paths;
    s->step = step;
    // A run folder given alone brings its execution traces (kineto/ and et/ inside), as the CLI.
    s->etPaths = et;
    if (et.empty() && paths.size() == 1 && isRunFolder(paths.front())) {
        const std::string beside = etFolderBeside(paths.front());
        if (!beside.empty()) s->etPaths = {beside};
    }
    runInterruptible(
        [&](const std::atomic<bool>& cancel, Progress& p) {
            LoadOptions options;
            options.progress = [&](std::int64_t done, std::int64_t total) {
                p.done = done;
                p.total = total;
                return !cancel.load();
            };
            s->set = std::make_shared<TraceSet>(loadTraceSet(paths, options));
            EtApplied applied = applyExecutionTraces(*s->set, s->etPaths);
            s->etWarnings = applied.warnings;
            if (applied.files > 0) s->etNote = applied.summary();
        },
        progress);
    return s;
}

std::string sweep(Session& s, const std::string& key, const std::vector<std::string>& values,
                  const pyb::object& fixed) {
    if (values.empty()) throw Error(ErrorKind::Usage, std::string(), "sweep needs at least one value");
    SimKnobs base = knobsFrom(fixed);
    std::vector<SimKnobs> knobs(values.size() + 1, base);
    for (std::size_t i = 0; i < values.size(); ++i)
        setKnob(knobs[i + 1], key, values[i]);
    auto g = s.executionGraph();
    std::string out;
    runInterruptible([&](const std::atomic<bool>& cancel, Progress&) {
        SweepOptions options;
        options.criticalPath = true;
        options.cancel = &cancel;
        const std::vector<SweepRun> runs = runSweep(*g, knobs, options);
        out = sweepJson(*g, key, values, knobs, runs).dump();
    });
    return out;
}

} // namespace

void bindSession(pyb::module_& m) {
    pyb::class_<Session, std::shared_ptr<Session>>(m, "_Session")
        .def_readonly("paths", &Session::paths)
        .def_readonly("step", &Session::step)
        .def_readonly("et_note", &Session::etNote)
        .def_property_readonly("rank_ids",
                               [](const Session& s) {
                                   std::vector<int> ids;
                                   for (const Rank& r : s.set->ranks)
                                       ids.push_back(r.rank);
                                   return ids;
                               })
        // What the loaded set holds in memory (Rank::memoryBytes), for the benchmarks.
        .def_property_readonly("memory_bytes",
                               [](const Session& s) {
                                   std::size_t bytes = 0;
                                   for (const Rank& r : s.set->ranks)
                                       bytes += r.memoryBytes();
                                   return bytes;
                               })
        .def("info_json",
             [](Session& s) {
                 std::string out;
                 runInterruptible([&](const std::atomic<bool>&, Progress&) {
                     out = traceInfoReport(*s.set, s.etWarnings).dump();
                 });
                 return out;
             })
        .def("events",
             [](Session& s, int rank, const std::string& kind) { return eventColumns(*s.set, rank, kind); })
        .def("build_graph", [](Session& s) { s.executionGraph(); })
        .def("sweep_json", &sweep);
    m.def("_load", &load, pyb::arg("paths"), pyb::arg("et"), pyb::arg("step"), pyb::arg("progress"));
}

} // namespace sl::py
