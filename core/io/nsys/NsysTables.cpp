#include "io/nsys/NsysTables.h"

#include "io/LoadError.h"
#include "trace/Collective.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace sl::nsys {

using detail::TrackKey;

namespace {

constexpr std::string_view kKernels = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr std::string_view kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr std::string_view kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";
constexpr std::string_view kGraphs = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE";
constexpr std::string_view kSyncs = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
constexpr std::string_view kEvents = "CUPTI_ACTIVITY_KIND_CUDA_EVENT";
constexpr std::string_view kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr std::string_view kNvtx = "NVTX_EVENTS";

// CUPTI writes 0xffffffff for "no stream" / "no event"; the model says -1.
std::int64_t idOrNone(const Query& q, int column) {
    if (q.isNull(column)) return -1;
    const std::int64_t v = q.integer(column);
    return v < 0 || v >= 0xffffffffLL ? -1 : v;
}

// CUPTI's copy and memory kinds (CUpti_ActivityMemcpyKind, CUpti_ActivityMemoryKind), spelled as
// Kineto spells them so that copies read the same from both loaders ("Memcpy HtoD (Pageable ->
// Device)"; the graph looks for "Pageable").
std::string_view copyKindName(std::int64_t k) {
    static constexpr std::array<std::string_view, 11> names = {
        "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"};
    return k >= 0 && k < static_cast<std::int64_t>(names.size()) ? names[static_cast<std::size_t>(k)]
                                                                 : "Unknown";
}
std::string_view memoryKindName(std::int64_t k) {
    static constexpr std::array<std::string_view, 8> names = {
        "Unknown", "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static"};
    return k >= 0 && k < static_cast<std::int64_t>(names.size()) ? names[static_cast<std::size_t>(k)]
                                                                 : "Unknown";
}

// A column of the query, or NULL when the table lacks it (so that every query has fixed indices).
std::string columnOrNull(const Database& db, std::string_view table, std::string_view column) {
    return db.hasColumn(table, column) ? std::string(column) : std::string("NULL");
}

// The sizes PyTorch's emit_nvtx writes into a range ("aten::mm, seq = 3, sizes = [[2, 3], [3, 4]]")
// as Kineto's "Input Dims", when they are plain nested lists of numbers.
std::string inputDimsArgs(std::string_view text) {
    const auto at = text.find("sizes = [");
    if (at == std::string_view::npos) return {};
    const std::size_t from = at + 8;
    int depth = 0;
    for (std::size_t i = from; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '[') {
            ++depth;
        } else if (c == ']') {
            if (--depth == 0) return "{\"Input Dims\": " + std::string(text.substr(from, i + 1 - from)) + "}";
        } else if (!std::isdigit(static_cast<unsigned char>(c)) && c != ',' && c != ' ') {
            return {};
        }
    }
    return {};
}

// What a GPU activity row becomes besides its times, stream and correlation.
struct GpuRow {
    std::string name;
    std::string args;
    std::uint32_t extra = kNoExtra;
};

// One GPU activity table: each row with a time span becomes an op on its process's (device,
// stream), named and given args by describe(query, process) from the extra columns, which follow
// the fixed five (start, end, deviceId, streamId, globalPid) and the correlation id (index 5).
// Columns the table lacks read as NULL.
template <typename Describe>
void readGpuTable(TableReader& r, std::string_view table, EventKind kind,
                  std::initializer_list<std::string_view> extraColumns, Describe describe) {
    if (!r.db.hasTable(table)) return;
    r.require(table, {"start", "end", "deviceId", "streamId", "globalPid"});
    std::string sql =
        "SELECT start, end, deviceId, streamId, globalPid, " + columnOrNull(r.db, table, "correlationId");
    for (std::string_view c : extraColumns)
        sql += ", " + (c.starts_with("name:") ? std::string(c.substr(5)) : columnOrNull(r.db, table, c));
    Query q(r.db, sql + " FROM " + std::string(table));
    while (q.step()) {
        if (q.isNull(0) || q.isNull(1) || q.integer(1) < q.integer(0)) {
            ++r.skipped;
            continue;
        }
        ProcessBuild& p = r.process(q.integer(4));
        const GpuRow row = describe(q, p);
        p.add({true, q.integer(2), idOrNone(q, 3)}, q.integer(0), q.integer(1), row.name, kind,
              q.isNull(5) ? -1 : q.integer(5), row.args, row.extra);
        ++p.gpuOps;
        r.count();
    }
}

std::string bytesArgs(const Query& q, int column) {
    return q.isNull(column) ? std::string() : "{\"bytes\": " + std::to_string(q.integer(column)) + "}";
}

void readKernels(TableReader& r) {
    const std::string name = r.column(kKernels, {"demangledName", "shortName", "name"});
    const std::string nameColumn = "name:" + (name.empty() ? std::string("NULL") : name);
    readGpuTable(r, kKernels, EventKind::Kernel,
                 {nameColumn, "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ"},
                 [&](const Query& q, ProcessBuild& p) {
                     GpuRow row;
                     row.name = name.empty() ? std::string("kernel") : std::string(r.name(q, 6));
                     if (!q.isNull(7))
                         row.args = "{\"grid\": [" + std::to_string(q.integer(7)) + ", " +
                                    std::to_string(q.integer(8)) + ", " + std::to_string(q.integer(9)) +
                                    "], \"block\": [" + std::to_string(q.integer(10)) + ", " +
                                    std::to_string(q.integer(11)) + ", " + std::to_string(q.integer(12)) +
                                    "]}";
                     if (isCollectiveKernelName(row.name)) {
                         CollectiveMeta meta;
                         meta.type = collectiveTypeFromKernelName(row.name);
                         row.extra = static_cast<std::uint32_t>(p.rank.collectives.size());
                         p.rank.collectives.push_back(std::move(meta));
                     }
                     return row;
                 });
}

void readCopiesAndSets(TableReader& r) {
    readGpuTable(r, kMemcpy, EventKind::GpuMemcpy, {"bytes", "copyKind", "srcKind", "dstKind"},
                 [](const Query& q, ProcessBuild&) {
                     return GpuRow{"Memcpy " + std::string(copyKindName(q.integer(7))) + " (" +
                                       std::string(memoryKindName(q.integer(8))) + " -> " +
                                       std::string(memoryKindName(q.integer(9))) + ")",
                                   bytesArgs(q, 6)};
                 });
    readGpuTable(r, kMemset, EventKind::GpuMemset, {"bytes", "memKind"}, [](const Query& q, ProcessBuild&) {
        return GpuRow{"Memset (" + std::string(memoryKindName(q.integer(7))) + ")", bytesArgs(q, 6)};
    });
}

// With graph-level tracing (--cuda-graph-trace=graph) a whole CUDA graph is one record, an op on
// its stream linked to its cudaGraphLaunch.
void readGraphs(TableReader& r) {
    readGpuTable(r, kGraphs, EventKind::Kernel, {"graphId"}, [](const Query& q, ProcessBuild&) {
        return GpuRow{q.isNull(6) ? "CUDA graph" : "CUDA graph " + std::to_string(q.integer(6)), {}};
    });
}

// Event records by event id, in correlation order: a wait on an event waits on its latest record
// before the wait.
struct EventRecord {
    std::int64_t correlation, stream;
};
// By (processKey, eventId): a process key can exceed 32 bits, so the two are never packed into one number.
using EventRecords = std::map<std::pair<std::int64_t, std::int64_t>, std::vector<EventRecord>>;

EventRecords readEventRecords(const TableReader& r) {
    EventRecords out;
    if (!r.db.hasTable(kEvents) || !r.db.hasColumn(kEvents, "eventId") ||
        !r.db.hasColumn(kEvents, "correlationId") || !r.db.hasColumn(kEvents, "streamId") ||
        !r.db.hasColumn(kEvents, "globalPid"))
        return out;
    Query q(r.db, "SELECT globalPid, eventId, correlationId, streamId FROM " + std::string(kEvents) +
                      " ORDER BY correlationId");
    while (q.step())
        out[{processKey(q.integer(0)), q.integer(1)}].push_back({q.integer(2), idOrNone(q, 3)});
    return out;
}

} // namespace

void readGpuWork(TableReader& r) {
    readKernels(r);
    readCopiesAndSets(r);
    readGraphs(r);
}

void readSyncs(TableReader& r) {
    if (!r.db.hasTable(kSyncs)) return;
    r.require(kSyncs, {"start", "end", "deviceId", "streamId", "globalPid", "correlationId"});
    const EventRecords records = readEventRecords(r);
    Query q(r.db, "SELECT start, end, deviceId, streamId, globalPid, correlationId, " +
                      columnOrNull(r.db, kSyncs, "eventId") + " FROM " + std::string(kSyncs));
    while (q.step()) {
        auto it = r.processes.find(processKey(q.integer(4)));
        if (it == r.processes.end() || q.isNull(0) || q.isNull(1) || q.integer(1) < q.integer(0)) {
            ++r.skipped;
            continue;
        }
        ProcessBuild& p = it->second;
        const std::int64_t correlation = q.integer(5);
        auto call = p.syncCalls.find(correlation);
        if (call == p.syncCalls.end()) { // a copy's implicit synchronization: the graph knows those
            ++r.skipped;
            continue;
        }
        const std::int64_t device = q.integer(2), stream = idOrNone(q, 3), event = idOrNone(q, 6);
        SyncMeta meta;
        meta.device = device;
        const EventRecord* record = nullptr;
        if (event >= 0) {
            auto rec = records.find({processKey(q.integer(4)), event});
            if (rec != records.end())
                for (const EventRecord& e : rec->second)
                    if (e.correlation < correlation) record = &e;
        }
        std::string_view kind;
        switch (call->second) {
        case RuntimeApi::StreamWaitEvent:
            kind = "Stream Wait Event";
            meta.stream = stream;
            break;
        case RuntimeApi::EventSynchronize:
            kind = "Event Sync";
            break;
        case RuntimeApi::StreamSynchronize:
            kind = "Stream Sync";
            meta.waitOnStream = stream;
            break;
        default:
            kind = "Context Sync";
            break;
        }
        if (record) {
            meta.waitOnStream = record->stream;
            meta.waitOnEventRecordCorrelation = record->correlation;
        }
        meta.syncKind = p.rank.strings.intern(kind);
        const auto extra = static_cast<std::uint32_t>(p.rank.syncs.size());
        p.rank.syncs.push_back(meta);
        p.add({true, device, stream}, q.integer(0), q.integer(1), kind, EventKind::CudaSync, correlation, {},
              extra);
        r.count();
    }
}

namespace {

// Older exports write some runtime calls twice, an outer and an inner row with the same correlation
// id ("cudaMemcpy" around "cudaMemcpy_v3020"): the correlations that repeat on a thread.
std::set<std::pair<std::int64_t, std::int64_t>> repeatedCalls(const TableReader& r) {
    std::set<std::pair<std::int64_t, std::int64_t>> out;
    if (!r.db.hasColumn(kRuntime, "correlationId")) return out;
    Query q(r.db, "SELECT globalTid, correlationId FROM " + std::string(kRuntime) +
                      " GROUP BY globalTid, correlationId HAVING count(*) > 1");
    while (q.step())
        out.emplace(q.integer(0), q.integer(1));
    return out;
}

void readRuntimeCalls(TableReader& r) {
    if (!r.db.hasTable(kRuntime)) return;
    r.require(kRuntime, {"start", "end", "globalTid"});
    const std::string name = r.column(kRuntime, {"nameId", "name"});
    const auto repeated = repeatedCalls(r);
    struct Outer {
        TimeNs start, end;
        std::string name;
    };
    std::map<std::pair<std::int64_t, std::int64_t>, Outer> outer; // of the repeated ones: the longest row
    Query q(r.db, "SELECT start, end, globalTid, " + columnOrNull(r.db, kRuntime, "correlationId") + ", " +
                      (name.empty() ? "NULL" : name) + " FROM " + std::string(kRuntime));
    auto add = [&](ProcessBuild& p, std::int64_t globalTid, TimeNs start, TimeNs end, std::string_view call,
                   std::int64_t correlation) {
        // Driver API calls (cuLaunchKernel, cuMemcpyHtoDAsync) share the table with the runtime's.
        const bool driver = call.starts_with("cu") && !call.starts_with("cuda");
        const RuntimeApi api = runtimeApi(call);
        if (api == RuntimeApi::StreamWaitEvent || api == RuntimeApi::EventSynchronize ||
            api == RuntimeApi::StreamSynchronize || api == RuntimeApi::DeviceSynchronize)
            p.syncCalls.emplace(correlation, api);
        p.add({false, p.pid, tidOf(globalTid)}, start, end, call,
              driver ? EventKind::Driver : EventKind::Runtime, correlation);
        r.count();
    };
    while (q.step()) {
        auto it = r.processes.find(processKey(q.integer(2)));
        if (it == r.processes.end()) continue; // a process without GPU work is no rank
        if (q.isNull(0) || q.isNull(1) || q.integer(1) < q.integer(0)) {
            ++r.skipped;
            continue;
        }
        const std::string_view call = name.empty() ? std::string_view("cuda call") : r.name(q, 4);
        const std::int64_t correlation = q.isNull(3) ? -1 : q.integer(3);
        const std::pair<std::int64_t, std::int64_t> key{q.integer(2), correlation};
        if (!repeated.count(key)) {
            add(it->second, q.integer(2), q.integer(0), q.integer(1), call, correlation);
            continue;
        }
        ++r.skipped;
        auto [o, added] = outer.try_emplace(key, Outer{q.integer(0), q.integer(1), std::string(call)});
        if (!added && q.integer(1) - q.integer(0) > o->second.end - o->second.start)
            o->second = {q.integer(0), q.integer(1), std::string(call)};
    }
    for (const auto& [key, o] : outer) {
        --r.skipped; // one row of each repeated call is kept
        add(r.processes.at(processKey(key.first)), key.first, o.start, o.end, o.name, key.second);
    }
}

} // namespace

void readCpuSide(TableReader& r) {
    readRuntimeCalls(r);
    if (!r.db.hasTable(kNvtx)) return;
    r.require(kNvtx, {"start", "end", "eventType", "globalTid"});
    // Push/pop ranges (nested per thread, as CPU annotations); domains name the NCCL ranges. The
    // type numbers from the export's own enum table when it has one.
    std::int64_t pushPop = 59, domainCreate = 75;
    if (r.db.hasTable("ENUM_NSYS_EVENT_TYPE") && r.db.hasColumn("ENUM_NSYS_EVENT_TYPE", "id") &&
        r.db.hasColumn("ENUM_NSYS_EVENT_TYPE", "name")) {
        Query e(r.db, "SELECT id, name FROM ENUM_NSYS_EVENT_TYPE");
        while (e.step()) {
            if (e.text(1) == "NvtxPushPopRange") pushPop = e.integer(0);
            if (e.text(1) == "NvtxDomainCreate") domainCreate = e.integer(0);
        }
    }
    const std::string text = columnOrNull(r.db, kNvtx, "text"), textId = columnOrNull(r.db, kNvtx, "textId"),
                      domain = columnOrNull(r.db, kNvtx, "domainId");
    std::unordered_map<std::int64_t, std::string> domains;
    {
        Query d(r.db, "SELECT " + domain + ", " + text + " FROM " + std::string(kNvtx) +
                          " WHERE eventType = " + std::to_string(domainCreate));
        while (d.step())
            domains[d.integer(0)] = std::string(d.text(1));
    }
    Query q(r.db, "SELECT start, end, globalTid, " + text + ", " + textId + ", " + domain + " FROM " +
                      std::string(kNvtx) + " WHERE eventType = " + std::to_string(pushPop));
    while (q.step()) {
        auto it = r.processes.find(processKey(q.integer(2)));
        if (it == r.processes.end()) continue;
        if (q.isNull(0) || q.isNull(1) || q.integer(1) < q.integer(0)) {
            ++r.skipped; // a range still open when the profiler stopped
            continue;
        }
        ProcessBuild& p = it->second;
        std::string_view label = !q.isNull(3)   ? q.text(3)
                                 : !q.isNull(4) ? r.name(q, 4)
                                                : std::string_view("range");
        auto dom = q.isNull(5) ? domains.end() : domains.find(q.integer(5));
        const bool nccl = (dom != domains.end() && dom->second == "NCCL") || label.starts_with("nccl");
        EventKind kind = EventKind::UserAnnotation;
        std::string args;
        std::uint32_t extra = kNoExtra;
        if (!nccl && label.find("::") != std::string_view::npos) {
            // PyTorch's emit_nvtx ranges are its ops: "aten::mm, seq = 3, sizes = [...]".
            kind = EventKind::CpuOp;
            args = inputDimsArgs(label);
            label = label.substr(0, label.find(", "));
        } else if (nccl) {
            // NCCL's ranges name the collective call that encloses the kernel's launch: its type, no size.
            CollectiveMeta meta;
            meta.type = collectiveTypeFromMetadata(label.substr(label.starts_with("nccl") ? 4 : 0));
            if (meta.type != CollectiveType::Unknown) {
                extra = static_cast<std::uint32_t>(p.rank.commCalls.size());
                p.rank.commCalls.push_back(std::move(meta));
            }
        }
        p.add({false, p.pid, tidOf(q.integer(2))}, q.integer(0), q.integer(1), label, kind, -1, args, extra);
        r.count();
    }
}

ProcessBuild& TableReader::process(std::int64_t globalId) {
    auto [it, added] = processes.try_emplace(processKey(globalId));
    if (added) it->second.pid = pidOf(globalId);
    return it->second;
}

std::string_view TableReader::name(const Query& q, int column) const {
    if (q.isNull(column)) return "(unnamed)";
    // An id into StringIds, else text; SQLite types the value per row.
    if (!q.isInteger(column)) return q.text(column);
    auto it = strings.find(q.integer(column));
    return it != strings.end() ? std::string_view(it->second) : std::string_view("(unknown name)");
}

std::string TableReader::column(std::string_view table, std::initializer_list<std::string_view> names) const {
    for (std::string_view n : names)
        if (db.hasColumn(table, n)) return std::string(n);
    return {};
}

void TableReader::require(std::string_view table, std::initializer_list<std::string_view> names) const {
    for (std::string_view n : names)
        if (!db.hasColumn(table, n))
            throw LoadError(ErrorKind::Format, db.name(),
                            "table " + std::string(table) + " has no column " + std::string(n) +
                                " (an Nsight Systems export of a version this reader does not know?)");
}

void TableReader::count() {
    if (++total > maxEvents)
        throw LoadError(ErrorKind::Limit, db.name(),
                        "more than " + std::to_string(maxEvents) +
                            " events in one file (the documented maximum); export a shorter range");
}

void ProcessBuild::add(const TrackKey& key, TimeNs start, TimeNs end, std::string_view name, EventKind kind,
                       std::int64_t correlation, std::string_view args, std::uint32_t extra) {
    auto [it, added] = trackOf.try_emplace(key, static_cast<std::uint32_t>(rank.tracks.size()));
    if (added) {
        Track t;
        t.kind = key.gpu ? TrackKind::GpuStream : TrackKind::CpuThread;
        t.pid = key.a;
        t.tid = key.b;
        rank.tracks.push_back(std::move(t));
        raw.emplace_back(1);
    }
    const std::uint64_t argsOffset = rank.argsArena.size();
    rank.argsArena.append(args);
    raw[it->second].front().push_back({start, end - start, rank.strings.intern(name), kind, correlation,
                                       argsOffset, static_cast<std::uint32_t>(args.size()), extra, 0, 0});
    ++rank.eventsByKind[static_cast<std::size_t>(kind)];
    ++events;
}

} // namespace sl::nsys
