// The measured events as numpy columns: one pass to count, arrays allocated with the GIL held, one
// pass to fill them without it; strings as pandas categories (codes + one list of names), so no
// Python object is made per event (docs/Python.md, "events()").
#include "Session.h"

#include "base/Error.h"
#include "trace/EventClass.h"

#include <pybind11/numpy.h>

#include <string_view>
#include <unordered_map>

namespace sl::py {

namespace pyb = pybind11;

namespace {

// Names of all ranks as one category list: (rank, StringId) -> code.
struct Categories {
    std::vector<std::string_view> names;
    std::unordered_map<std::string_view, std::int32_t> codeOf;
    std::int32_t code(std::string_view s) {
        auto [it, fresh] = codeOf.try_emplace(s, static_cast<std::int32_t>(names.size()));
        if (fresh) names.push_back(s);
        return it->second;
    }
};

template <typename T> T* data(pyb::array_t<T>& a) {
    return a.mutable_data();
}

} // namespace

pyb::dict eventColumns(const TraceSet& set, int rankId, const std::string& kind) {
    int kindFilter = -1;
    if (!kind.empty()) {
        for (int k = 0; k < kEventKindCount; ++k)
            if (eventKindName(static_cast<EventKind>(k)) == kind) kindFilter = k;
        if (kindFilter < 0)
            throw Error(ErrorKind::Usage, std::string(), "events: no event kind '" + kind + "'");
    }
    if (rankId >= 0 && !set.findRank(rankId))
        throw Error(ErrorKind::Usage, std::string(),
                    "events: no rank " + std::to_string(rankId) + " in the set");
    auto wanted = [&](const Rank& r) { return rankId < 0 || r.rank == rankId; };
    std::size_t n = 0;
    for (const Rank& r : set.ranks)
        if (wanted(r))
            for (const Track& t : r.tracks) {
                if (kindFilter < 0) {
                    n += t.events.size();
                    continue;
                }
                for (EventKind k : t.events.kind)
                    n += static_cast<int>(k) == kindFilter ? 1 : 0;
            }
    const auto size = static_cast<pyb::ssize_t>(n);
    pyb::array_t<std::int32_t> rank(size), name(size), launchOp(size);
    pyb::array_t<std::int64_t> pid(size), tid(size), correlation(size);
    pyb::array_t<std::int8_t> cat(size), cls(size);
    pyb::array_t<double> ts(size), dur(size);
    Categories names;
    {
        pyb::gil_scoped_release release;
        std::size_t i = 0;
        auto* rk = data(rank);
        auto* nm = data(name);
        auto* lo = data(launchOp);
        auto* pd = data(pid);
        auto* td = data(tid);
        auto* co = data(correlation);
        auto* ct = data(cat);
        auto* cl = data(cls);
        auto* st = data(ts);
        auto* du = data(dur);
        const EventClassifier classifier;
        for (const Rank& r : set.ranks) {
            if (!wanted(r)) continue;
            std::vector<std::int32_t> code(r.strings.size(), -1);
            auto codeOf = [&](StringId id) {
                if (code[id] < 0) code[id] = names.code(r.strings.str(id));
                return code[id];
            };
            // The class of a (name, kind) pair, classified once.
            std::vector<std::int8_t> classOf(r.strings.size() * kEventKindCount, -1);
            for (const Track& t : r.tracks) {
                const EventColumns& ev = t.events;
                for (std::size_t e = 0; e < ev.size(); ++e) {
                    const EventKind k = ev.kind[e];
                    if (kindFilter >= 0 && static_cast<int>(k) != kindFilter) continue;
                    rk[i] = r.rank;
                    pd[i] = t.pid;
                    td[i] = t.tid;
                    nm[i] = codeOf(ev.name[e]);
                    ct[i] = static_cast<std::int8_t>(k);
                    std::int8_t& c = classOf[ev.name[e] * kEventKindCount + static_cast<std::size_t>(k)];
                    if (c < 0)
                        c = static_cast<std::int8_t>(classifier.classify(k, r.strings.str(ev.name[e])));
                    cl[i] = c;
                    st[i] = static_cast<double>(ev.start[e]) / 1000.0;
                    du[i] = static_cast<double>(ev.duration[e]) / 1000.0;
                    co[i] = ev.correlation[e];
                    // The launching op of a GPU op: the innermost op around its launch call.
                    lo[i] = -1;
                    if (t.isGpu() && ev.link[e] != kNoLink) {
                        const EventRef l = EventRef::unpack(ev.link[e]);
                        const EventColumns& host = r.tracks[l.track].events;
                        const std::int32_t parent = host.parent[l.index];
                        if (parent >= 0) lo[i] = codeOf(host.name[static_cast<std::size_t>(parent)]);
                    }
                    ++i;
                }
            }
        }
    }
    pyb::list nameList;
    for (std::string_view s : names.names)
        nameList.append(pyb::str(s.data(), s.size()));
    pyb::list kindNames, classNames;
    for (int k = 0; k < kEventKindCount; ++k)
        kindNames.append(std::string(eventKindName(static_cast<EventKind>(k))));
    for (int c = 0; c < kEventClassCount; ++c)
        classNames.append(std::string(eventClassName(static_cast<EventClass>(c))));
    pyb::dict out;
    out["rank"] = rank;
    out["pid"] = pid;
    out["tid"] = tid;
    out["name"] = name;
    out["cat"] = cat;
    out["class"] = cls;
    out["ts"] = ts;
    out["dur"] = dur;
    out["correlation"] = correlation;
    out["launch_op"] = launchOp;
    out["names"] = nameList;
    out["cat_names"] = kindNames;
    out["class_names"] = classNames;
    return out;
}

} // namespace sl::py
