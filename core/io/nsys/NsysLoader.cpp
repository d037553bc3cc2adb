#include "io/nsys/NsysLoader.h"

#include "io/FileReader.h"
#include "io/LoadError.h"
#include "io/RankFinalizer.h"
#include "io/nsys/NsysDatabase.h"
#include "io/nsys/NsysTables.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <set>

// One Nsight Systems export -> one rank per process with GPU work (docs/Formats.md, "Nsight
// Systems"). The tables are read in io/nsys/NsysTables.cpp; here the file is checked, the shared
// tables (strings, processes, threads, GPUs, environment) read and the ranks numbered and finished.
namespace sl {

using namespace nsys;

std::string NsysExportInfo::profiler() const {
    std::string out = "NVIDIA Nsight Systems";
    if (!productVersion.empty()) out += " " + productVersion;
    if (!schemaVersion.empty()) out += " (export schema " + schemaVersion + ")";
    return out;
}

namespace {

// Tables only an Nsight Systems export has; a SQLite file with none of them is another program's.
bool isNsysExport(const Database& db) {
    if (!db.hasTable("StringIds")) return false;
    for (const auto& [table, columns] : db.tables())
        if (table.starts_with("CUPTI_ACTIVITY_KIND_") || table == "META_DATA_EXPORT" ||
            table == "EXPORT_META_DATA" || table == "NVTX_EVENTS" || table.starts_with("TARGET_INFO_"))
            return true;
    return false;
}

NsysExportInfo exportInfo(const Database& db) {
    NsysExportInfo info;
    for (const char* table : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
        if (!db.hasColumn(table, "name") || !db.hasColumn(table, "value")) continue;
        Query q(db, std::string("SELECT name, value FROM ") + table);
        while (q.step()) {
            if (q.text(0) == "EXPORT_PRODUCT_VERSION") info.productVersion = q.text(1);
            if (q.text(0) == "EXPORT_SCHEMA_VERSION") info.schemaVersion = q.text(1);
        }
    }
    return info;
}

std::unordered_map<std::int64_t, std::string> readStrings(const Database& db) {
    std::unordered_map<std::int64_t, std::string> out;
    if (!db.hasColumn("StringIds", "id") || !db.hasColumn("StringIds", "value"))
        throw LoadError(ErrorKind::Format, db.name(), "table StringIds has no id or value column");
    out.reserve(static_cast<std::size_t>(db.rowCount("StringIds")));
    Query q(db, "SELECT id, value FROM StringIds");
    while (q.step())
        out.emplace(q.integer(0), std::string(q.text(1)));
    return out;
}

void readNames(const Database& db, const std::unordered_map<std::int64_t, std::string>& strings,
               std::map<std::int64_t, ProcessBuild>& processes) {
    if (db.hasColumn("PROCESSES", "globalPid") && db.hasColumn("PROCESSES", "name")) {
        Query q(db, "SELECT globalPid, name FROM PROCESSES");
        while (q.step()) {
            auto it = processes.find(processKey(q.integer(0)));
            if (it != processes.end()) it->second.processNames[it->second.pid] = q.text(1);
        }
    }
    if (db.hasColumn("ThreadNames", "globalTid") && db.hasColumn("ThreadNames", "nameId")) {
        Query q(db, "SELECT globalTid, nameId FROM ThreadNames");
        while (q.step()) {
            auto it = processes.find(processKey(q.integer(0)));
            auto name = strings.find(q.integer(1));
            if (it != processes.end() && name != strings.end())
                it->second.threadNames[{false, it->second.pid, tidOf(q.integer(0))}] = name->second;
        }
    }
}

// The GPUs of TARGET_INFO_GPU, by device id.
std::map<std::int64_t, DeviceProperties> readDevices(const Database& db) {
    std::map<std::int64_t, DeviceProperties> out;
    const char* t = "TARGET_INFO_GPU";
    const char* id = db.hasColumn(t, "id") ? "id" : db.hasColumn(t, "cuDevice") ? "cuDevice" : nullptr;
    if (!id || !db.hasColumn(t, "name")) return out;
    auto col = [&](const char* c) { return std::string(db.hasColumn(t, c) ? c : "NULL"); };
    Query q(db, std::string("SELECT ") + id + ", name, " + col("totalMemory") + ", " + col("smCount") + ", " +
                    col("computeMajor") + ", " + col("computeMinor") + " FROM " + t);
    while (q.step()) {
        DeviceProperties d;
        d.id = q.integer(0);
        d.name = q.text(1);
        d.totalGlobalMem = q.integer(2);
        d.numSms = static_cast<int>(q.integer(3));
        d.computeMajor = static_cast<int>(q.integer(4));
        d.computeMinor = static_cast<int>(q.integer(5));
        out.emplace(d.id, std::move(d));
    }
    return out;
}

// Rank and world size from each process's recorded environment, when the export has a table of
// (globalPid, name, value) rows: torchrun's RANK / WORLD_SIZE, MPI's and Slurm's names, LOCAL_RANK last.
struct EnvRank {
    int rank = -1;
    int worldSize = -1;
};
std::map<std::int64_t, EnvRank> readEnvironmentRanks(const Database& db) {
    std::map<std::int64_t, EnvRank> out;
    static constexpr std::string_view rankNames[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                                     "SLURM_PROCID", "LOCAL_RANK"};
    static constexpr std::string_view sizeNames[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                                     "SLURM_NTASKS"};
    for (const auto& [table, columns] : db.tables()) {
        if (!columns.count("globalPid") || !columns.count("name") || !columns.count("value")) continue;
        std::map<std::int64_t, std::pair<std::size_t, int>> best; // process -> (priority, rank)
        Query q(db, "SELECT globalPid, name, value FROM \"" + table + "\"");
        while (q.step()) {
            const std::string_view name = q.text(1), value = q.text(2);
            int v = -1;
            auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
            if (ec != std::errc() || p != value.data() + value.size() || v < 0) continue;
            const std::int64_t key = processKey(q.integer(0));
            for (std::size_t i = 0; i < std::size(rankNames); ++i)
                if (name == rankNames[i] && (!best.count(key) || best[key].first > i)) best[key] = {i, v};
            for (std::string_view s : sizeNames)
                if (name == s) out[key].worldSize = v;
        }
        for (const auto& [key, pr] : best)
            out[key].rank = pr.second;
    }
    return out;
}

bool hasHostRecords(const Rank& rank) {
    return rank.eventsByKind[static_cast<std::size_t>(EventKind::Runtime)] +
               rank.eventsByKind[static_cast<std::size_t>(EventKind::Driver)] >
           0;
}

std::vector<Rank> loadNsys(Database db, std::int64_t fileBytes, int loadOrder, const LoadOptions& options) {
    const std::string& name = db.name();
    if (!isNsysExport(db))
        throw LoadError(
            ErrorKind::Format, name,
            "an SQLite database, but not an Nsight Systems export (no StringIds and CUPTI_ACTIVITY_KIND_* "
            "tables; export a report with `nsys export --type sqlite`)");
    const NsysExportInfo info = exportInfo(db);
    const auto strings = readStrings(db);
    std::map<std::int64_t, ProcessBuild> processes;
    TableReader reader{db, strings, processes, options.maxEventsPerFile};
    auto progress = [&](int step) {
        if (options.progress && !options.progress(2 * fileBytes * step / 4, 2 * fileBytes))
            throw LoadCancelled();
    };
    readGpuWork(reader);
    progress(1);
    if (processes.empty())
        throw LoadError(
            ErrorKind::Format, name,
            "no GPU work in this Nsight Systems export (no kernel, copy or set records; was the run "
            "profiled with --trace=cuda?)");
    readCpuSide(reader);
    progress(2);
    readSyncs(reader);
    readNames(db, strings, processes);
    const auto devices = readDevices(db);
    const auto env = readEnvironmentRanks(db);
    progress(3);

    // Ranks: from the environment when every process has one, else from the file name for a
    // single process, else in process order (said).
    bool allFromEnv = true;
    for (const auto& [key, p] : processes)
        allFromEnv = allFromEnv && env.count(key) && env.at(key).rank >= 0;
    const int fromName = processes.size() == 1 ? rankFromFileName(name) : -1;
    std::vector<Rank> ranks;
    int order = 0;
    std::string byOrder;
    for (auto& [key, p] : processes) {
        Rank& rank = p.rank;
        rank.sourcePath = name;
        rank.fileBytes = fileBytes;
        rank.format = "nsys-sqlite";
        rank.profiler = info.profiler();
        if (allFromEnv) {
            rank.rank = env.at(key).rank;
            rank.rankFromFile = true;
        } else {
            rank.rank = fromName >= 0 ? fromName : loadOrder + order;
            if (processes.size() > 1)
                byOrder += (byOrder.empty() ? "" : ", ") + std::string("pid ") + std::to_string(p.pid) +
                           " -> rank " + std::to_string(rank.rank);
        }
        if (auto e = env.find(key); e != env.end()) rank.worldSize = e->second.worldSize;
        std::set<std::int64_t> used;
        for (const Track& t : rank.tracks)
            if (t.isGpu()) used.insert(t.device());
        for (std::int64_t d : used)
            if (auto it = devices.find(d); it != devices.end()) rank.devices.push_back(it->second);
        rank.skippedEvents = order == 0 ? reader.skipped : 0; // rows of the file, counted once
        detail::FlowSegments flows; // nsys links by correlation id only: no flow events
        finalizeRank(rank, detail::ParsedRank{p.raw, flows, p.processNames, p.threadNames},
                     static_cast<std::size_t>(std::max(1, options.threads)));
        if (!hasHostRecords(rank))
            rank.warnings.add(
                Warn::GpuOnlyRank,
                "rank " + std::to_string(rank.rank) + " has no CUDA runtime or driver calls in " + name +
                    " (GPU-only): GPU queues replay in stream order from their measured heads, and "
                    "knobs that act on the host (cpu.*, launch.latency_us, host.*, data.*) cannot act");
        ranks.push_back(std::move(rank));
        ++order;
    }
    if (!byOrder.empty())
        ranks.front().warnings.add(
            Warn::RanksByProcessOrder,
            name + " holds " + std::to_string(processes.size()) +
                " processes with GPU work and no RANK in their recorded environment: ranks "
                "follow process order (" +
                byOrder + ")");
    progress(4);
    return ranks;
}

} // namespace

std::vector<Rank> loadNsysFile(const std::string& path, int loadOrder, const LoadOptions& options) {
    // A compressed export (.sqlite.gz) is inflated into memory; a plain one is read where it lies.
    if (std::ifstream in(path, std::ios::binary); in) {
        char magic[2] = {};
        in.read(magic, 2);
        if (in.gcount() == 2 && magic[0] == '\x1f' && magic[1] == '\x8b') {
            const TraceBuffer bytes = readTraceFile(path);
            return loadNsys(Database::openBytes({bytes.data(), bytes.size()}, path),
                            static_cast<std::int64_t>(bytes.size()), loadOrder, options);
        }
    }
    return loadNsys(Database::openFile(path), std::max<std::int64_t>(0, fileSizeOnDisk(path)), loadOrder,
                    options);
}

std::vector<Rank> loadNsysBytes(std::string_view bytes, const std::string& name, int loadOrder,
                                const LoadOptions& options) {
    const TraceBuffer plain = decodeTraceBytes(name, bytes);
    return loadNsys(Database::openBytes({plain.data(), plain.size()}, name),
                    static_cast<std::int64_t>(plain.size()), loadOrder, options);
}

} // namespace sl
