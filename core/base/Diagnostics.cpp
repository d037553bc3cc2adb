#include "base/Diagnostics.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace sl {

namespace {

using S = Severity;

// One row per kind, in the enum's order (checked once below and by test_Diagnostics).
const std::vector<WarnInfo> kWarnTable = {
    // Loading
    {Warn::FileLeftOut, "load_file_left_out", S::DataLoss,
     "a file could not be loaded and was left out of the set"},
    {Warn::TraceNoEvents, "trace_no_events", S::Warning, "a trace file has no events in traceEvents"},
    {Warn::UnclosedBeginEvents, "trace_unclosed_begin_events", S::DataLoss,
     "\"B\" events without a matching \"E\" were dropped"},
    {Warn::CorrelationIdReused, "correlation_id_reused", S::Warning,
     "runtime calls reuse the correlation id of an earlier call; GPU ops link to the first"},
    {Warn::GpuOpNoLaunchCall, "gpu_op_no_launch_call", S::Info,
     "GPU ops have no launch call with the same correlation id"},
    {Warn::UnknownEventCategory, "unknown_event_category", S::Info,
     "events of a category the loader does not know were kept as other"},
    {Warn::GpuOpOverlap, "gpu_op_overlap", S::Warning, "GPU ops overlap the previous op on their stream"},
    {Warn::DuplicateRank, "duplicate_rank", S::Warning,
     "two files carry the same rank id; the later one is shown under a free id"},
    {Warn::RanksMissing, "ranks_missing", S::Info, "fewer ranks were loaded than the job's world size"},
    {Warn::ClockBasesDiffer, "clock_bases_differ", S::Warning, "ranks have different clock bases"},
    {Warn::RankSpansDisjoint, "rank_spans_disjoint", S::Warning,
     "a rank's time span does not overlap the first rank's: their clocks differ"},
    {Warn::EtLinked, "et_linked", S::Info, "execution traces were linked to the ranks' CPU ops"},
    {Warn::EtNotUsed, "et_not_used", S::DataLoss, "execution traces next to the traces could not be used"},
    {Warn::EtMatchedByOrder, "et_matched_by_order", S::Warning,
     "execution trace file names do not name loaded ranks: matched to ranks by order"},
    {Warn::EtNoRank, "et_no_rank", S::DataLoss, "an execution trace has no rank left to link to; ignored"},
    {Warn::EtNoMatchingOps, "et_no_matching_ops", S::Warning,
     "no CPU op of the rank matches its execution trace (a different rank or run?)"},
    {Warn::EtCollectivesUnlinked, "et_collectives_unlinked", S::Warning,
     "collective kernels found no collective in the execution trace"},
    {Warn::EtRankWithout, "et_rank_without_trace", S::Info,
     "a rank has no execution trace: its collectives keep the Kineto sizes"},
    {Warn::EtAllToAllNotEqualized, "et_all_to_all_not_equalized", S::Warning,
     "ranks have different numbers of collective kernels: all-to-all sizes were not made equal"},
    {Warn::ChakraNoMeasuredTimes, "chakra_no_measured_times", S::Info,
     "a Chakra execution trace has durations and dependencies only, no measured timeline"},
    {Warn::ChakraCtrlDepsInvalid, "chakra_ctrl_deps_invalid", S::Warning,
     "Chakra control dependencies name missing nodes or their own node"},
    {Warn::ChakraCpuBlocked, "chakra_cpu_blocked", S::Warning,
     "Chakra CPU nodes last far longer than the GPU work they launch"},
    {Warn::ChakraCommNoSize, "chakra_comm_no_size", S::Warning,
     "Chakra communication nodes have no comm_size: replayed as plain ops"},
    {Warn::ChakraNodeNoDuration, "chakra_node_no_duration", S::Warning,
     "Chakra nodes (not collectives) have no duration: they take no time"},
    {Warn::XSpaceHostLinesShared, "xspace_host_lines_shared", S::Info,
     "host threads of an XSpace file that launch nothing are shown with its first GPU's rank"},
    {Warn::RanksByProcessOrder, "ranks_by_process_order", S::Warning,
     "a file holds several processes with GPU work and no rank in their environment: ranks follow process "
     "order"},
    {Warn::GpuOnlyRank, "gpu_only_rank", S::DataLoss,
     "a rank has no CPU-side records: GPU queues replay in stream order and host knobs cannot act"},
    // Calibration
    {Warn::CalibrationNoSize, "calibration_no_size", S::Info,
     "collective kernels have no size metadata and are not used for the alpha-beta fit"},
    {Warn::CalibrationNoSamples, "calibration_no_samples", S::Warning,
     "no collective with a known size: nothing to calibrate"},
    // The execution graph
    {Warn::RankClocksAligned, "rank_clocks_aligned", S::Warning,
     "rank clocks differ: each rank is aligned at its first event"},
    {Warn::CollectiveClockContradiction, "collective_clock_contradiction", S::Warning,
     "collective end times contradict their start times across ranks (clock offset)"},
    {Warn::CollectiveCountMismatch, "collective_count_mismatch", S::Warning,
     "collectives of a process group differ in number across ranks; extra ones keep measured durations"},
    {Warn::CollectiveUnmatched, "collective_unmatched", S::Warning,
     "collectives could not be matched across ranks (type or size differ)"},
    {Warn::CollectivePeersMissing, "collective_peers_missing", S::Info,
     "collectives have peers missing from the rank set: those arrive at their measured time"},
    {Warn::P2pPeerMissing, "p2p_peer_missing", S::Info,
     "sends / receives have their peer missing from the rank set"},
    {Warn::P2pLargeGroup, "p2p_large_group", S::Warning,
     "sends / receives in process groups of more than two ranks keep their measured durations"},
    {Warn::P2pCountMismatch, "p2p_count_mismatch", S::Warning,
     "sends and receives of a process group differ in number"},
    {Warn::P2pSizeMismatch, "p2p_size_mismatch", S::Warning, "a send and its receive differ in size"},
    {Warn::P2pNoPeer, "p2p_no_peer", S::Warning, "sends / receives name no peer in the set"},
    {Warn::P2pUnpaired, "p2p_unpaired", S::Warning, "sends / receives have no counterpart on the peer"},
    {Warn::CollectiveModelled, "collective_modelled", S::Info,
     "collectives without a duration are timed by the alpha-beta model"},
    {Warn::CollectiveTypeMismatch, "collective_type_mismatch", S::Warning,
     "collectives differ in type or size across ranks: not matched"},
    {Warn::CrossStreamWaitSkipped, "cross_stream_wait_skipped", S::Warning,
     "cross-stream waits contradict the measured times and were skipped"},
    {Warn::EventWaitSkipped, "event_wait_skipped", S::Warning,
     "event waits contradict the measured times and were skipped"},
    {Warn::GraphCycleDropped, "graph_cycle_dropped", S::Warning,
     "the graph had a cycle through inferred or collective edges: they were dropped"},
    {Warn::LaunchLatencyClamped, "launch_latency_clamped", S::Warning,
     "GPU ops start before their launch call: launch latency clamped to 0"},
    {Warn::OverlapSerialized, "overlap_serialized", S::Warning,
     "overlapping ops on one stream or thread were serialized, keeping their end times"},
    {Warn::GpuOpReplayedWithoutLaunch, "gpu_op_replayed_without_launch", S::Info,
     "GPU ops without a launch call are replayed after their stream predecessor"},
    {Warn::PrewindowQueued, "prewindow_queued", S::Info,
     "GPU ops launched before the profiler window follow their queue; queue heads keep their start"},
    {Warn::DeviceWaitInferred, "device_wait_inferred", S::Info,
     "GPU ops waited on the device for something the trace does not name"},
    {Warn::GpuClockOffsetApplied, "gpu_clock_offset_applied", S::Warning,
     "a rank's GPU timestamps run ahead of its host clock: the graph reads them less the offset"},
    {Warn::GraphNotBuilt, "graph_not_built", S::DataLoss,
     "no execution graph could be built: the summary lacks what the replay would keep as measured"},
    // The simulator
    {Warn::KnobNotSimulated, "knob_not_simulated", S::DataLoss,
     "a knob is not simulated yet and was ignored"},
    {Warn::KnobNoEffect, "knob_no_effect", S::Info, "a knob without the knob it qualifies changes nothing"},
    {Warn::SetupEditIgnored, "setup_edit_ignored", S::DataLoss,
     "a setup edit (dp.degree) could not be applied: the knob was ignored"},
    {Warn::DpNoGradientSync, "dp_no_gradient_sync", S::Warning,
     "the trace has no data parallelism: the new replicas' gradient synchronisation is not modelled"},
    {Warn::DpRanksNotCloned, "dp_ranks_not_cloned", S::DataLoss,
     "ranks of the new job have no loaded rank to clone and were left out"},
    {Warn::DpCollectivesUnplaced, "dp_collectives_unplaced", S::Warning,
     "collective kernels have members outside the recognised layout: kept as traced"},
    {Warn::DpScaleNoCollectives, "dp_scale_no_collectives", S::DataLoss,
     "dp.scale found no data-parallel collectives: nothing was re-timed"},
    {Warn::AlphaBetaCalibrated, "alpha_beta_calibrated", S::Info,
     "alpha-beta parameters that were not set are calibrated from the trace"},
    {Warn::AlphaBetaNoSize, "alpha_beta_no_size", S::Warning,
     "collective kernels without size metadata keep their measured transfer times"},
    {Warn::CommLocalityUnknown, "comm_locality_unknown", S::Warning,
     "collective kernels cross nodes differently in the new setup without a known bandwidth"},
    {Warn::CommNoInterNodeBandwidth, "comm_no_inter_node_bandwidth", S::Warning,
     "no inter-node bandwidth: collectives spanning nodes use the intra-node values"},
    {Warn::GpuTargetUnknown, "gpu_target_unknown", S::DataLoss,
     "gpu.target names a GPU (or a trace GPU) the table does not know: it was ignored"},
    {Warn::GpuTargetNoShapes, "gpu_target_no_shapes", S::Warning,
     "GPU ops without shapes or a cost model take their kernel class's median ratio"},
    {Warn::DataKnobsNoLoader, "data_knobs_no_loader", S::DataLoss,
     "the trace has no DataLoader iterator ops: data.workers / data.speedup re-time nothing"},
    {Warn::HostComputeNone, "host_compute_none", S::DataLoss,
     "host.compute found no CPU compute (every CPU op issues GPU work or dispatches it): nothing was "
     "re-timed"},
    {Warn::GpuTargetHostAsTraced, "gpu_target_host_as_traced", S::Info,
     "gpu.target keeps the traced machine's host: its share of the critical path is named"},
    {Warn::GpuTargetNoEfficiency, "gpu_target_no_efficiency", S::Warning,
     "kernels of a family without a measured efficiency on the source or target GPU keep their own"},
    {Warn::NoOverlapUnavailable, "no_overlap_unavailable", S::DataLoss,
     "comm.overlap=false could not be applied"},
    {Warn::ScheduleIncomplete, "schedule_incomplete", S::DataLoss,
     "the simulation could not schedule every node (dependency cycle)"},
    {Warn::BlockEditIgnored, "block_edit_ignored", S::DataLoss,
     "a block edit (model.layers, pp.microbatches) could not be applied: the knob was ignored"},
    {Warn::BlockEditsNotCombined, "block_edits_not_combined", S::DataLoss,
     "pp.microbatches together with model.layers is not combined yet: pp.microbatches ignored"},
    {Warn::LayerEditRounded, "layer_edit_rounded", S::Info, "the stages get whole layer blocks"},
    {Warn::BlockCopyPeersOutside, "block_copy_peers_outside", S::Warning,
     "copied collective kernels have peers outside every copied block: they do not wait for peers"},
    {Warn::BlockCopyPhantomPeers, "block_copy_phantom_peers", S::Warning,
     "copied collectives had peers outside the rank set: the copies do not wait for them"},
    {Warn::EmbeddingTablesInferred, "embedding_tables_inferred", S::Info,
     "embedding.plan without a tables file: the tables were inferred evenly from each rank's totals"},
    // Analyses
    {Warn::KnobEffectSmall, "knob_effect_small", S::Info,
     "the knobs moved the simulated step by less than 1%: the line says what holds it"},
    {Warn::CompareRanksByOrder, "compare_ranks_by_order", S::Warning,
     "the runs share no rank id: ranks are paired by their order"},
    {Warn::CompareRanksUnpaired, "compare_ranks_unpaired", S::DataLoss,
     "ranks present in one run only are left out of the comparison"},
    {Warn::CompareGpusDiffer, "compare_gpus_differ", S::Warning, "the runs ran on different GPUs"},
    {Warn::CompareNotOneProgram, "compare_not_one_program", S::DataLoss,
     "too few GPU ops align between the runs: they do not look like one program, no tables are given"},
};

bool tableInOrder() {
    for (std::size_t i = 0; i < kWarnTable.size(); ++i)
        if (static_cast<std::size_t>(kWarnTable[i].kind) != i) return false;
    return true;
}

} // namespace

const std::vector<WarnInfo>& warnTable() {
    static const bool ordered = tableInOrder();
    if (!ordered) throw std::logic_error("kWarnTable is not in the order of enum Warn");
    return kWarnTable;
}

const WarnInfo& warnInfo(Warn kind) {
    return warnTable().at(static_cast<std::size_t>(kind));
}

std::optional<Warn> warnByKey(std::string_view key) {
    for (const WarnInfo& w : warnTable())
        if (w.key == key) return w.kind;
    return std::nullopt;
}

const char* severityName(Severity s) {
    switch (s) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::DataLoss:
        return "data_loss";
    }
    return "warning";
}

void Warnings::add(Warn kind, std::string text, std::int64_t n) {
    items_.push_back({kind, n, std::move(text), {}});
}

void Warnings::addForKnob(std::string knob, Warn kind, std::string text, std::int64_t n) {
    items_.push_back({kind, n, std::move(text), std::move(knob)});
}

void Warnings::append(const Warnings& other, std::string_view prefix) {
    if (&other == this) {
        const Warnings copy = other;
        append(copy, prefix);
        return;
    }
    for (const Warning& w : other.items_)
        items_.push_back({w.kind, w.count, std::string(prefix) + w.text, w.knob});
}

void Warnings::prepend(const Warnings& other) {
    std::vector<Warning> items = other.items_;
    items.insert(items.end(), items_.begin(), items_.end());
    items_ = std::move(items);
}

std::int64_t Warnings::count(Warn kind) const {
    std::int64_t n = 0;
    for (const Warning& w : items_)
        if (w.kind == kind) n += w.count;
    return n;
}

bool Warnings::has(Warn kind) const {
    return std::any_of(items_.begin(), items_.end(), [kind](const Warning& w) { return w.kind == kind; });
}

std::vector<std::string> Warnings::lines() const {
    std::vector<std::string> out;
    out.reserve(items_.size());
    for (const Warning& w : items_)
        out.push_back(w.text);
    return out;
}

std::vector<Warnings::Stat> Warnings::stats() const {
    std::vector<Stat> byKind(warnTable().size());
    for (const Warning& w : items_) {
        Stat& s = byKind[static_cast<std::size_t>(w.kind)];
        if (s.occurrences++ == 0) s.example = w.text;
        s.count += w.count;
    }
    std::vector<Stat> out;
    for (std::size_t i = 0; i < byKind.size(); ++i)
        if (byKind[i].occurrences > 0) {
            byKind[i].kind = static_cast<Warn>(i);
            out.push_back(std::move(byKind[i]));
        }
    return out;
}

std::string statsTable(const std::vector<Warnings::Stat>& stats) {
    if (stats.empty()) return "no warnings\n";
    std::size_t keyWidth = 3;
    for (const auto& s : stats)
        keyWidth = std::max(keyWidth, warnInfo(s.kind).key.size());
    std::string out;
    char buf[128];
    std::snprintf(buf, sizeof buf, "%-*s  %-9s  %10s  ", static_cast<int>(keyWidth), "key", "severity",
                  "count");
    out += std::string(buf) + "message\n";
    for (const auto& s : stats) {
        const WarnInfo& info = warnInfo(s.kind);
        std::snprintf(buf, sizeof buf, "%-*s  %-9s  %10lld  ", static_cast<int>(keyWidth),
                      std::string(info.key).c_str(), severityName(info.severity),
                      static_cast<long long>(s.count));
        out += buf;
        out += std::string(info.message) + "\n";
        out += std::string(keyWidth + 25, ' ') + "e.g. " + s.example + "\n";
    }
    return out;
}

} // namespace sl
