#pragma once
// A job summarised rank by rank (docs/Python.md, "Jobs larger than one machine"): each rank's file
// is loaded and summarised alone (rankSummaryJson, small), and the summaries are reduced into the
// job view (jobSummaryJson) without any rank's events: the per-rank breakdown and pinned share,
// kernel time by class, and who waited for whom at every collective, exactly as `collectives --json`
// computes it on the whole set (both end in settleArrivals, analysis/CollectiveArrivals.h).
#include "graph/ExecutionGraph.h"
#include "sim/Simulator.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sl {

// The summary of the one rank of `graph` (a graph of a set of one rank) with its replay: {rank,
// path, world_size, clock_base_ns, measured_start_ns, report (of the rank's `simulate --json` ranks[]
// entry what the rank decides alone: measured_us, measured (the breakdown and by_class_us, less the
// wait / transfer split), unexplained_wait_us, unexplained_gpu_wait_us, prewindow_ops,
// typical_launch_latency_us; and under "alone" what needs the peers, as the rank's own replay has
// it: simulated_us, pinned_share_pct, pinned_us, largest_pin, measured_comm_wait_us, ...),
// groups[{metadata, group, group_ranks, group_size}] (each process group once), collectives[{key,
// type, bytes, g (its index in groups), arrival_ns, start_ns, end_ns}] (times on the rank's clock),
// point_to_point[{key, send, bytes, g, eff_start_ns, arrival_ns, start_ns, end_ns}] (sends and
// receives with a process group), point_to_point_unkeyed (those without one)}.
nlohmann::json rankSummaryJson(const ExecutionGraph& graph, const SimResult& replay);

// A rank that could not be summarised: its file and the error's line.
struct FailedRank {
    std::string path;
    std::string error;
};

// The job view of rank summaries (any order): {ranks[] (each summary's report with rank and path),
// by_class_us (GPU time per kernel class summed over the ranks, measured), collectives (the
// `collectives --json` object of the collectives whose every participant was summarised),
// collectives_left_out (those with a participant missing), point_to_point_left_out (sends and
// receives not paired), missing[{path, error}], complete (nothing failed or left out)}.
// Throws Error (kind Usage) when two summaries name the same rank.
nlohmann::json jobSummaryJson(std::vector<nlohmann::json> ranks, const std::vector<FailedRank>& failed);

} // namespace sl
