// The first difference between two loads of the same trace, for the loader's tests.
#pragma once
#include "trace/TraceSet.h"

#include <string>

namespace sltest {

using namespace sl;

// The first difference between two loads of the same file ("" when none): every column of every
// track, the args text, the metadata tables, the interned strings (ids included), the counters
// and the warnings. Used to check that a file parsed in pieces gives exactly the whole-file model.
inline std::string modelDifference(const Rank& a, const Rank& b) {
    auto differ = [](const std::string& what) { return what; };
    if (a.rank != b.rank || a.worldSize != b.worldSize || a.rankFromFile != b.rankFromFile)
        return differ("rank");
    if (a.clockBaseNs != b.clockBaseNs || a.backend != b.backend) return differ("clock base / backend");
    if (a.devices.size() != b.devices.size()) return differ("device count");
    for (std::size_t i = 0; i < a.devices.size(); ++i)
        if (a.devices[i].id != b.devices[i].id || a.devices[i].name != b.devices[i].name ||
            a.devices[i].numSms != b.devices[i].numSms)
            return differ("device " + std::to_string(i));
    if (a.processGroups.size() != b.processGroups.size()) return differ("process group count");
    for (std::size_t i = 0; i < a.processGroups.size(); ++i)
        if (a.processGroups[i].name != b.processGroups[i].name ||
            a.processGroups[i].ranks != b.processGroups[i].ranks)
            return differ("process group " + std::to_string(i));
    if (a.strings.size() != b.strings.size()) return differ("string count");
    for (std::size_t i = 0; i < a.strings.size(); ++i)
        if (a.strings.str(static_cast<StringId>(i)) != b.strings.str(static_cast<StringId>(i)))
            return differ("string id " + std::to_string(i));
    if (a.tracks.size() != b.tracks.size()) return differ("track count");
    for (std::size_t t = 0; t < a.tracks.size(); ++t) {
        const Track& x = a.tracks[t];
        const Track& y = b.tracks[t];
        std::string where = "track " + std::to_string(t) + " (" + x.name + ")";
        if (x.kind != y.kind || x.pid != y.pid || x.tid != y.tid || x.name != y.name ||
            x.maxDepth != y.maxDepth)
            return differ(where);
        const EventColumns& e = x.events;
        const EventColumns& f = y.events;
        if (e.start != f.start || e.duration != f.duration || e.name != f.name || e.kind != f.kind ||
            e.depth != f.depth || e.parent != f.parent || e.correlation != f.correlation ||
            e.link != f.link || e.extra != f.extra || e.argsLength != f.argsLength)
            return differ(where + ": columns");
        for (std::size_t i = 0; i < e.size(); ++i)
            if (a.args({static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(i)}) !=
                b.args({static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(i)}))
                return differ(where + ": args of event " + std::to_string(i));
    }
    auto sameMeta = [](const CollectiveMeta& m, const CollectiveMeta& n) {
        return m.kernel.track == n.kernel.track && m.kernel.index == n.kernel.index && m.type == n.type &&
               m.hasMetadata == n.hasMetadata && m.inNelems == n.inNelems && m.outNelems == n.outNelems &&
               m.groupSize == n.groupSize && m.dtype == n.dtype && m.processGroupName == n.processGroupName &&
               m.processGroupRanks == n.processGroupRanks;
    };
    if (a.collectives.size() != b.collectives.size() || a.commCalls.size() != b.commCalls.size() ||
        a.syncs.size() != b.syncs.size())
        return differ("metadata counts");
    for (std::size_t i = 0; i < a.collectives.size(); ++i)
        if (!sameMeta(a.collectives[i], b.collectives[i])) return differ("collective " + std::to_string(i));
    for (std::size_t i = 0; i < a.commCalls.size(); ++i)
        if (!sameMeta(a.commCalls[i], b.commCalls[i])) return differ("comm call " + std::to_string(i));
    for (std::size_t i = 0; i < a.syncs.size(); ++i) {
        const SyncMeta& m = a.syncs[i];
        const SyncMeta& n = b.syncs[i];
        if (m.event.track != n.event.track || m.event.index != n.event.index || m.syncKind != n.syncKind ||
            m.waitOnStream != n.waitOnStream ||
            m.waitOnEventRecordCorrelation != n.waitOnEventRecordCorrelation ||
            m.waitOnCudaEventId != n.waitOnCudaEventId || m.stream != n.stream || m.device != n.device)
            return differ("sync " + std::to_string(i));
    }
    if (a.eventsByKind != b.eventsByKind || a.flowsByCategory != b.flowsByCategory ||
        a.unknownCategories != b.unknownCategories || a.skippedEvents != b.skippedEvents ||
        a.gpuOpsWithoutLaunch != b.gpuOpsWithoutLaunch)
        return differ("counters");
    if (a.warnings != b.warnings) return differ("warnings");
    return {};
}

} // namespace sltest
