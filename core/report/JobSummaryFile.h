#pragma once
// A saved job summary read back (docs/Python.md, "Jobs larger than one machine"): the file that
// `sightline.summarize(...).save(path)` writes (jobSummaryJson), typed for the window, which shows
// the rank overview and who waited for whom of a job it could never load whole. Only the reader is
// here: the summary itself is computed rank by rank (RankSummary.h).
#include "analysis/CollectiveArrivals.h"
#include "report/RankSummary.h"

#include <string>
#include <vector>

namespace sl {

struct JobSummaryFile {
    struct Rank {
        int rank = 0;
        std::string path; // the rank's trace file, to open it in full
        double measuredUs = 0;
        double computeUs = 0, commUs = 0, exposedCommUs = 0, idleUs = 0;
        double pinnedSharePct = 0; // of the rank's own replay (its peers not loaded)
    };
    std::vector<Rank> ranks; // in the file's order
    // Who waited for whom, as collectivesJson wrote it; RankArrival::rank and RankWaiting::rank
    // index `ranks`, times in ns on the job's clock, nodes unknown (kNoNode).
    CollectiveArrivals arrivals;
    std::vector<FailedRank> missing;
    std::int64_t collectivesLeftOut = 0;
    std::int64_t pointToPointLeftOut = 0;
    bool complete = false;
};

// Reads a job summary; throws Error naming the file (Read when it cannot be read, Parse for bad
// JSON, Format for JSON that is no job summary: "PATH: not a job summary: no 'ranks'").
JobSummaryFile readJobSummaryFile(const std::string& path);

} // namespace sl
