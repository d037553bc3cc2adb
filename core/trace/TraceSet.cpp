#include "trace/TraceSet.h"

#include <algorithm>
#include <limits>

namespace sl {

std::string_view Rank::args(EventRef r) const {
    const auto& ev = tracks[r.track].events;
    return std::string_view(argsArena).substr(ev.argsOffset[r.index], ev.argsLength[r.index]);
}

ArgsText Rank::fullArgs(EventRef r) const {
    const auto& ev = tracks[r.track].events;
    if (!argsFile || r.index >= ev.argsFileLength.size()) return {args(r), {}};
    return argsFile->read(ev.argsFileOffset[r.index], ev.argsFileLength[r.index]);
}

std::optional<OpShapes> Rank::opShapes(EventRef op, bool* fromEt) const {
    if (fromEt) *fromEt = false;
    auto shapes = parseOpShapes(args(op));
    if (shapes) return shapes;
    // Recorded without shapes (io/EtLinker fills etOpShapes for ops without "Input Dims", and for
    // all_to_allv ops with them for their split sizes, which only sim/EmbeddingWhatIf reads there).
    const auto et = etOpShapes.find(op.packed());
    if (et == etOpShapes.end()) return std::nullopt;
    if (fromEt) *fromEt = true;
    return et->second;
}

std::int64_t Rank::eventCount() const {
    std::int64_t n = 0;
    for (const auto& t : tracks)
        n += static_cast<std::int64_t>(t.events.size());
    return n;
}

TimeNs Rank::firstStart() const {
    TimeNs first = std::numeric_limits<TimeNs>::max();
    for (const auto& t : tracks)
        if (t.events.size()) first = std::min(first, t.firstStart());
    return first == std::numeric_limits<TimeNs>::max() ? 0 : first;
}

TimeNs Rank::lastEnd() const {
    TimeNs last = std::numeric_limits<TimeNs>::min();
    for (const auto& t : tracks)
        if (t.events.size()) last = std::max(last, t.lastEnd());
    return last == std::numeric_limits<TimeNs>::min() ? 0 : last;
}

std::int64_t Rank::primaryDevice() const {
    for (const auto& t : tracks)
        if (t.isGpu()) return t.device();
    return 0;
}

std::string Rank::deviceName() const {
    auto dev = primaryDevice();
    for (const auto& d : devices)
        if (d.id == dev) return d.name;
    return devices.empty() ? std::string() : devices.front().name;
}

std::size_t Rank::memoryBytes() const {
    std::size_t bytes = strings.memoryBytes() + argsArena.size(); // reserved but untouched pages cost nothing
    if (argsFile) bytes += argsFile->memoryBytes();               // its cache and a gzip file's checkpoints
    for (const auto& t : tracks)
        bytes += t.events.memoryBytes() + sizeof(Track);
    bytes += collectives.capacity() * sizeof(CollectiveMeta) + syncs.capacity() * sizeof(SyncMeta);
    for (const auto& t : kernelLaunches)
        bytes += t.capacity() * sizeof(KernelLaunch);
    return bytes;
}

std::int64_t TraceSet::eventCount() const {
    std::int64_t n = 0;
    for (const auto& r : ranks)
        n += r.eventCount();
    return n;
}

const Rank* TraceSet::findRank(int rank) const {
    for (const auto& r : ranks)
        if (r.rank == rank) return &r;
    return nullptr;
}

} // namespace sl
