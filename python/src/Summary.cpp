// The two halves of sightline.summarize (docs/Python.md, "Jobs larger than one machine"): a task
// per rank file (its summary, report/RankSummary.h) and the reduce of the summaries.
#include "Interrupt.h"
#include "Session.h"

#include "io/KinetoLoader.h"
#include "report/RankSummary.h"
#include "report/ToolSetup.h"
#include "sim/Simulator.h"

#include <pybind11/stl.h>

namespace sl::py {

namespace pyb = pybind11;

namespace {

std::string rankSummary(const std::string& path, int step) {
    std::string out;
    runInterruptible([&](const std::atomic<bool>& cancel, Progress&) {
        LoadOptions options;
        options.threads = 1; // one task per rank file: the cluster's workers are the parallelism
        options.progress = [&](std::int64_t, std::int64_t) { return !cancel.load(); };
        TraceSet set = loadTraceSet({path}, options);
        if (set.ranks.size() != 1)
            throw Error(ErrorKind::Usage, path,
                        "holds " + std::to_string(set.ranks.size()) +
                            " ranks; a rank summary takes one rank's file");
        const ExecutionGraph g = buildGraphForPaths(set, {path}, step, Warnings{});
        SimOptions so;
        so.cancel = &cancel;
        const SimResult replay = simulate(g, SimKnobs{}, so);
        out = rankSummaryJson(g, replay).dump();
    });
    return out;
}

std::string jobSummary(const std::vector<std::string>& summaries,
                       const std::vector<std::pair<std::string, std::string>>& failures) {
    std::vector<nlohmann::json> ranks;
    for (const auto& s : summaries)
        ranks.push_back(nlohmann::json::parse(s));
    std::vector<FailedRank> failed;
    for (const auto& [path, error] : failures)
        failed.push_back({path, error});
    pyb::gil_scoped_release release;
    return jobSummaryJson(std::move(ranks), failed).dump();
}

} // namespace

void bindSummary(pyb::module_& m) {
    m.def("_rank_summary", &rankSummary, pyb::arg("path"), pyb::arg("step") = -1);
    m.def("_job_summary", &jobSummary);
}

} // namespace sl::py
