// sightline.Result: one simulation of a session's graph and what the CLI prints of it (simulate
// --json, critical-path --json, collectives --json, report), from the same core functions.
#include "Interrupt.h"
#include "Session.h"

#include "analysis/CollectiveArrivals.h"
#include "analysis/CriticalPath.h"
#include "base/Rounding.h"
#include "report/CollectivesReport.h"
#include "report/ComparisonReport.h"
#include "report/PathReport.h"
#include "report/Report.h"
#include "sim/Simulator.h"
#include "trace/EventClass.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>

namespace sl::py {

namespace pyb = pybind11;

namespace {

struct Result {
    std::shared_ptr<Session> session;
    std::shared_ptr<const ExecutionGraph> graph;
    SimKnobs knobs;
    SimResult result;
    std::optional<SimResult> replay; // with knobs set: what the knobs moved

    std::string json() const {
        ReportInputs inputs;
        inputs.graph = graph.get();
        inputs.result = &result;
        inputs.knobs = knobs;
        inputs.replay = replay ? &*replay : nullptr;
        return buildReport(inputs).numbers.dump();
    }
};

std::shared_ptr<Result> simulateSession(const std::shared_ptr<Session>& s, const pyb::object& knobMap) {
    auto r = std::make_shared<Result>();
    r->session = s;
    r->knobs = knobsFrom(knobMap); // a bad knob never reaches the simulator
    r->graph = s->executionGraph();
    runInterruptible([&](const std::atomic<bool>& cancel, Progress&) {
        SimOptions options;
        options.cancel = &cancel;
        r->result = simulate(*r->graph, r->knobs, options);
        if (!r->knobs.isReplay() && !cancel) {
            options.timeline = false;
            r->replay = simulate(*r->graph, SimKnobs{}, options);
        }
    });
    return r;
}

// The simulated timeline of the loaded ranks: one row per graph node.
pyb::dict nodeColumns(const Result& r) {
    const ExecutionGraph& g = *r.graph;
    const auto n = static_cast<pyb::ssize_t>(g.nodes.size());
    pyb::array_t<std::int32_t> rank(n), name(n);
    pyb::array_t<std::int8_t> cls(n);
    pyb::array_t<double> ts(n), dur(n), measuredTs(n), measuredDur(n);
    std::vector<std::string_view> names;
    {
        pyb::gil_scoped_release release;
        std::unordered_map<std::string_view, std::int32_t> codeOf;
        const EventClassifier classifier;
        auto* rk = rank.mutable_data();
        auto* nm = name.mutable_data();
        auto* cl = cls.mutable_data();
        auto* st = ts.mutable_data();
        auto* du = dur.mutable_data();
        auto* ms = measuredTs.mutable_data();
        auto* md = measuredDur.mutable_data();
        for (NodeId i = 0; i < g.nodes.size(); ++i) {
            const GraphNode& node = g.nodes[i];
            const Rank& rk0 = g.rankOf(i);
            const std::string_view nmv = g.nodeName(i);
            auto [it, fresh] = codeOf.try_emplace(nmv, static_cast<std::int32_t>(names.size()));
            if (fresh) names.push_back(nmv);
            rk[i] = rk0.rank;
            nm[i] = it->second;
            const EventKind k = rk0.tracks[node.event.track].events.kind[node.event.index];
            cl[i] = static_cast<std::int8_t>(classifier.classify(k, nmv));
            const NodeTiming& t = r.result.nodes[i];
            st[i] = static_cast<double>(t.start) / 1000.0;
            du[i] = static_cast<double>(t.end - t.start) / 1000.0;
            ms[i] = static_cast<double>(g.measuredStart(i)) / 1000.0;
            md[i] = static_cast<double>(g.measuredEnd(i) - g.measuredStart(i)) / 1000.0;
        }
    }
    pyb::list nameList, classNames;
    for (std::string_view s : names)
        nameList.append(pyb::str(s.data(), s.size()));
    for (int c = 0; c < kEventClassCount; ++c)
        classNames.append(std::string(eventClassName(static_cast<EventClass>(c))));
    pyb::dict out;
    out["rank"] = rank;
    out["name"] = name;
    out["class"] = cls;
    out["ts"] = ts;
    out["dur"] = dur;
    out["measured_ts"] = measuredTs;
    out["measured_dur"] = measuredDur;
    out["names"] = nameList;
    out["class_names"] = classNames;
    return out;
}

std::string compareSessions(const std::shared_ptr<Session>& before, const std::shared_ptr<Session>& after,
                            const pyb::object& knobMap, bool predict) {
    const SimKnobs knobs = knobsFrom(knobMap);
    requireMeasuredRun(*before->set, before->paths.front());
    requireMeasuredRun(*after->set, after->paths.front());
    auto gBefore = before->executionGraph();
    auto gAfter = after->executionGraph();
    std::string out;
    runInterruptible([&](const std::atomic<bool>&, Progress&) {
        const ComparedRuns runs =
            compareLoadedRuns(*gBefore, *gAfter, before->paths.front(), after->paths.front(), knobs, predict);
        const ComparisonSource src{before->paths, after->paths, before->step};
        out = comparisonJson(runs.comparison, src, runs.prediction ? &*runs.prediction : nullptr, &knobs, 0)
                  .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    });
    return out;
}

} // namespace

void bindResult(pyb::module_& m) {
    pyb::class_<Result, std::shared_ptr<Result>>(m, "_Result")
        .def_property_readonly("iteration_us",
                               [](const Result& r) { return us(r.result.simulatedIteration); })
        .def_property_readonly("complete", [](const Result& r) { return r.result.complete; })
        .def("json", &Result::json)
        .def("critical_path_json",
             [](const Result& r) {
                 const CriticalPath cp = criticalPathFrom(*r.graph, r.result, r.result.last());
                 return criticalPathJson(*r.graph, r.result, cp).dump();
             })
        .def("collectives_json",
             [](const Result& r) { return collectivesJson(*r.graph, collectiveArrivals(*r.graph)).dump(); })
        .def("events", &nodeColumns)
        .def("report", [](const Result& r, const std::string& path) {
            const std::optional<ReportFormat> format = reportFormatOf(path);
            if (!format)
                throw Error(ErrorKind::Usage, std::string(),
                            path + ": cannot tell the format from the extension (use .html, .json or .csv)");
            ReportInputs inputs;
            inputs.graph = r.graph.get();
            inputs.result = &r.result;
            inputs.knobs = r.knobs;
            inputs.source = ReportSource{r.session->paths, r.session->step};
            inputs.generator = "the sightline Python module";
            writeReportFile(path, buildReport(inputs), *format);
        });
    m.def("_simulate", &simulateSession);
    m.def("_compare", &compareSessions);
}

} // namespace sl::py
