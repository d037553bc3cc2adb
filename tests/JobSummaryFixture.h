#pragma once
// A saved job summary made in one process with the core calls each `sightline.summarize` task and
// its reduce make (python/src/Summary.cpp): a rank summary per rank file, then the job view.
#include "io/KinetoLoader.h"
#include "report/RankSummary.h"
#include "report/ToolSetup.h"
#include "sim/Simulator.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sltest {

inline nlohmann::json summarizeJob(const std::string& folder,
                                   const std::vector<sl::FailedRank>& failed = {}) {
    std::vector<nlohmann::json> ranks;
    for (const std::string& file : sl::expandTracePaths({folder})) {
        const sl::TraceSet one = sl::loadTraceSet({file});
        const sl::ExecutionGraph g = sl::buildGraphForPaths(one, {file}, -1, sl::Warnings{});
        ranks.push_back(sl::rankSummaryJson(g, sl::simulate(g, sl::SimKnobs{})));
    }
    return sl::jobSummaryJson(std::move(ranks), failed);
}

} // namespace sltest
