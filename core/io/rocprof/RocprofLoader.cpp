#include "io/rocprof/RocprofLoader.h"

#include "io/FileReader.h"
#include "io/LoadError.h"
#include "io/MemoryLimits.h"
#include "io/ProfilerFileSet.h"
#include "io/TimelineRankBuilder.h"

#include <simdjson.h>

#include <cctype>
#include <limits>
#include <map>
#include <unordered_map>

namespace sl {

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

constexpr std::string_view kRootKey = "rocprofiler-sdk-tool";

// A whole number, written signed or unsigned, that fits in int64.
bool wholeNumber(element v, std::int64_t& out) {
    std::int64_t i = 0;
    if (!v.get_int64().get(i)) {
        out = i;
        return true;
    }
    std::uint64_t u = 0;
    if (!v.get_uint64().get(u) && u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        out = static_cast<std::int64_t>(u);
        return true;
    }
    return false;
}

bool field(element e, std::string_view key, std::int64_t& out) {
    element v;
    return !e[key].get(v) && wholeNumber(v, out);
}

// rocprofiler-sdk writes agent, queue and stream ids as {"handle": N}.
bool handleField(element e, std::string_view key, std::int64_t& out) {
    element v;
    if (e[key].get(v)) return false;
    if (v.is_object()) return field(v, "handle", out);
    return wholeNumber(v, out);
}

std::string_view text(element e, std::string_view key) {
    std::string_view s;
    return e[key].get(s) ? std::string_view{} : s;
}

// Calls f on each element of e[key] when it is an array (a default dom::array must not be walked).
template <typename F> void forEach(element e, std::string_view key, F&& f) {
    array a;
    if (e[key].get(a)) return;
    for (element x : a)
        f(x);
}

std::size_t arraySize(element e, std::string_view key) {
    array a;
    return e[key].get(a) ? 0 : a.size();
}

std::string dims(element e, std::string_view key, const std::int64_t* divideBy = nullptr) {
    element d;
    if (e[key].get(d)) return "[]";
    std::int64_t v[3] = {1, 1, 1};
    field(d, "x", v[0]);
    field(d, "y", v[1]);
    field(d, "z", v[2]);
    std::string out = "[";
    for (int i = 0; i < 3; ++i) {
        std::int64_t n = v[i];
        // HSA's grid is in work-items; CUDA's (and the model's "grid") in blocks.
        if (divideBy && divideBy[i] > 0) n = (n + divideBy[i] - 1) / divideBy[i];
        out += (i ? "," : "") + std::to_string(n);
    }
    return out + "]";
}

struct Agent {
    bool gpu = false;
    std::int64_t device = -1; // index among GPU agents (logical_node_type_id)
    std::string name;
};

// One process entry of the document as a rank.
class ProcessReader {
public:
    ProcessReader(const std::string& file, element entry, Rank& rank, std::int64_t maxEvents)
        : file_(file), entry_(entry), rank_(rank), builder_(rank), maxEvents_(maxEvents) {}

    void read() {
        element meta;
        if (!entry_["metadata"].get(meta)) field(meta, "pid", pid_);
        readStrings();
        readAgents();
        readSymbols();
        element records;
        if (entry_["buffer_records"].get(records) || !records.is_object())
            fail("the process entry has no \"buffer_records\" object");
        forEach(records, "kernel_dispatch", [&](element r) { kernel(r); });
        forEach(records, "memory_copy", [&](element r) { copy(r); });
        forEach(records, "hip_api", [&](element r) { hostCall(r, EventKind::Runtime, "hip_api"); });
        forEach(records, "rccl_api", [&](element r) { hostCall(r, EventKind::CpuOp, "rccl_api"); });
        forEach(records, "marker_api", [&](element r) { marker(r); });
        for (std::string_view skipped : {"hsa_api", "memory_allocation", "scratch_memory"})
            rank_.skippedEvents += static_cast<std::int64_t>(arraySize(records, skipped));
    }

    bool hasGpuWork() const { return gpuOps_ > 0; }
    bool hasHostCalls() const { return hostCalls_ > 0; }
    std::int64_t pid() const { return pid_; }
    void finish() { builder_.finish(); }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw LoadError(file_, what, -1, ErrorKind::Format);
    }

    void readStrings() {
        element strings;
        if (entry_["strings"].get(strings)) fail("the process entry has no \"strings\" table");
        forEach(strings, "buffer_records", [&](element kind) {
            std::vector<std::string> ops;
            forEach(kind, "operations", [&](element op) {
                std::string_view s;
                ops.emplace_back(op.get(s) ? std::string_view{} : s);
            });
            kindNames_.emplace_back(text(kind, "kind"));
            operations_.push_back(std::move(ops));
        });
        // ROCTx messages, by the correlation id of the marker call.
        forEach(strings, "marker_api", [&](element m) {
            std::int64_t key = -1;
            if (field(m, "key", key)) markerText_[key] = std::string(text(m, "value"));
        });
    }

    void readAgents() {
        std::int64_t gpus = 0;
        forEach(entry_, "agents", [&](element a) {
            std::int64_t handle = -1, type = 0;
            if (!handleField(a, "id", handle)) return;
            field(a, "type", type);
            Agent agent;
            agent.gpu = type == 2; // ROCPROFILER_AGENT_TYPE_GPU
            agent.name = std::string(text(a, "product_name"));
            if (agent.name.empty()) agent.name = std::string(text(a, "name"));
            if (agent.gpu) {
                std::int64_t logical = -1;
                agent.device = field(a, "logical_node_type_id", logical) && logical >= 0 ? logical : gpus;
                ++gpus;
                DeviceProperties d;
                d.id = agent.device;
                d.name = agent.name;
                std::int64_t cus = 0;
                if (field(a, "cu_count", cus) && cus > 0 && cus < (1 << 20)) d.numSms = static_cast<int>(cus);
                devices_[agent.device] = std::move(d);
            }
            agents_[handle] = std::move(agent);
        });
    }

    void readSymbols() {
        forEach(entry_, "kernel_symbols", [&](element s) {
            std::int64_t id = -1;
            if (!field(s, "kernel_id", id)) return;
            std::string_view name = text(s, "formatted_kernel_name");
            if (name.empty()) name = text(s, "demangled_kernel_name");
            if (name.empty()) name = text(s, "kernel_name");
            kernelNames_[id] = std::string(name);
        });
    }

    std::string_view operationName(std::int64_t kind, std::int64_t op) const {
        if (kind < 0 || static_cast<std::size_t>(kind) >= operations_.size()) return {};
        const auto& ops = operations_[static_cast<std::size_t>(kind)];
        return op >= 0 && static_cast<std::size_t>(op) < ops.size()
                   ? std::string_view(ops[static_cast<std::size_t>(op)])
                   : std::string_view{};
    }
    std::string_view kindName(std::int64_t kind) const {
        return kind >= 0 && static_cast<std::size_t>(kind) < kindNames_.size()
                   ? std::string_view(kindNames_[static_cast<std::size_t>(kind)])
                   : std::string_view{};
    }

    // Start, duration and correlation of a record; a record without them is an error.
    struct Times {
        TimeNs start = 0, duration = 0;
        std::int64_t correlation = -1;
    };
    Times times(element r, std::string_view table) {
        if (++events_ > maxEvents_)
            throw LoadError(file_, "more than " + std::to_string(maxEvents_) + " records", -1,
                            ErrorKind::Limit);
        Times t;
        std::int64_t end = 0;
        if (!field(r, "start_timestamp", t.start) || !field(r, "end_timestamp", end))
            fail("a " + std::string(table) +
                 " record lacks start_timestamp / end_timestamp, or one is not a whole number below 2^63");
        if (end < t.start) fail("a " + std::string(table) + " record ends before it starts");
        t.duration = end - t.start;
        element c;
        if (!r["correlation_id"].get(c)) {
            if (c.is_object())
                field(c, "internal", t.correlation);
            else
                wholeNumber(c, t.correlation);
        }
        return t;
    }

    const Agent& agent(std::int64_t handle, std::string_view table) const {
        auto it = agents_.find(handle);
        if (it == agents_.end())
            fail("a " + std::string(table) + " record names agent " + std::to_string(handle) +
                 ", which \"agents\" lacks");
        return it->second;
    }

    void kernel(element r) {
        const Times t = times(r, "kernel_dispatch");
        element info;
        if (r["dispatch_info"].get(info)) fail("a kernel_dispatch record has no dispatch_info");
        std::int64_t agentHandle = -1, queue = -1, kernelId = -1, dispatch = -1;
        if (!handleField(info, "agent_id", agentHandle) || !handleField(info, "queue_id", queue) ||
            !field(info, "kernel_id", kernelId))
            fail("a kernel_dispatch record lacks agent_id, queue_id or kernel_id");
        field(info, "dispatch_id", dispatch);
        const Agent& a = agent(agentHandle, "kernel_dispatch");
        auto name = kernelNames_.find(kernelId);
        const std::string kernelName = name != kernelNames_.end() && !name->second.empty()
                                           ? name->second
                                           : "kernel " + std::to_string(kernelId);
        std::int64_t wg[3] = {1, 1, 1};
        element w;
        if (!info["workgroup_size"].get(w)) {
            field(w, "x", wg[0]);
            field(w, "y", wg[1]);
            field(w, "z", wg[2]);
        }
        std::string args =
            "{\"correlation\":" + std::to_string(t.correlation) + ",\"device\":" + std::to_string(a.device) +
            ",\"queue\":" + std::to_string(queue) + ",\"kernel_id\":" + std::to_string(kernelId) +
            ",\"dispatch_id\":" + std::to_string(dispatch) + ",\"grid\":" + dims(info, "grid_size", wg) +
            ",\"block\":" + dims(info, "workgroup_size") + "}";
        builder_.add(builder_.gpuStream(a.device, queue), t.start, t.duration, kernelName, EventKind::Kernel,
                     t.correlation, args);
        ++gpuOps_;
    }

    void copy(element r) {
        const Times t = times(r, "memory_copy");
        std::int64_t kind = -1, op = -1, src = -1, dst = -1, bytes = -1;
        field(r, "kind", kind);
        field(r, "operation", op);
        if (!handleField(r, "src_agent_id", src) || !handleField(r, "dst_agent_id", dst))
            fail("a memory_copy record lacks src_agent_id or dst_agent_id");
        field(r, "bytes", bytes);
        const Agent& from = agent(src, "memory_copy");
        const Agent& to = agent(dst, "memory_copy");
        if (!from.gpu && !to.gpu) {
            ++rank_.skippedEvents; // host to host: no GPU queue takes part
            return;
        }
        const std::int64_t device = to.gpu ? to.device : from.device;
        const char* direction = from.gpu ? (to.gpu ? "DtoD" : "DtoH") : "HtoD";
        std::string args = "{\"correlation\":" + std::to_string(t.correlation) +
                           ",\"device\":" + std::to_string(device) + ",\"bytes\":" + std::to_string(bytes) +
                           ",\"operation\":\"" + std::string(operationName(kind, op)) + "\"}";
        const std::int64_t stream = kRocprofCopyStreamBase + (from.gpu ? 1 : 0) + (to.gpu ? 2 : 0);
        builder_.add(builder_.gpuStream(device, stream), t.start, t.duration,
                     std::string("Memcpy ") + direction, EventKind::GpuMemcpy, t.correlation, args);
        ++gpuOps_;
    }

    void hostCall(element r, EventKind kind, std::string_view table) {
        const Times t = times(r, table);
        std::int64_t k = -1, op = -1, tid = 0;
        field(r, "kind", k);
        field(r, "operation", op);
        field(r, "thread_id", tid);
        std::string_view name = operationName(k, op);
        const std::string fallback = std::string(table) + " " + std::to_string(op);
        builder_.add(builder_.cpuThread(pid_, tid), t.start, t.duration, name.empty() ? fallback : name, kind,
                     t.correlation, "{\"correlation\":" + std::to_string(t.correlation) + "}");
        ++hostCalls_;
    }

    void marker(element r) {
        const Times t = times(r, "marker_api");
        std::int64_t k = -1, op = -1, tid = 0;
        field(r, "kind", k);
        field(r, "operation", op);
        field(r, "thread_id", tid);
        // Thread / device naming and profiler control calls are not ranges.
        if (kindName(k) != "MARKER_CORE_API" && kindName(k) != "MARKER_CORE_RANGE_API") {
            ++rank_.skippedEvents;
            return;
        }
        auto message = markerText_.find(t.correlation);
        std::string name = message != markerText_.end() && !message->second.empty()
                               ? message->second
                               : std::string(operationName(k, op));
        builder_.add(builder_.cpuThread(pid_, tid), t.start, t.duration, name, EventKind::UserAnnotation);
    }

public:
    void addDevicesTo(Rank& rank) const {
        for (const auto& [id, d] : devices_)
            rank.devices.push_back(d);
    }

private:
    const std::string& file_;
    element entry_;
    Rank& rank_;
    TimelineRankBuilder builder_;
    std::int64_t maxEvents_;
    std::int64_t pid_ = 0;
    std::int64_t events_ = 0, gpuOps_ = 0, hostCalls_ = 0;
    std::vector<std::string> kindNames_;
    std::vector<std::vector<std::string>> operations_;
    std::unordered_map<std::int64_t, std::string> markerText_;
    std::unordered_map<std::int64_t, Agent> agents_;
    std::map<std::int64_t, DeviceProperties> devices_;
    std::unordered_map<std::int64_t, std::string> kernelNames_;
};

std::vector<Rank> rocprofRanks(const std::string& name, const TraceBuffer& buffer, int firstRank,
                               const LoadOptions& options) {
    if (!looksLikeRocprofJson(std::string_view(buffer.data(), std::min<std::size_t>(buffer.size(), 4096))))
        throw LoadError(name, "not rocprofv3 JSON (no \"rocprofiler-sdk-tool\" object at the start)", -1,
                        ErrorKind::Format);
    simdjson::dom::parser parser;
    element doc;
    if (auto err = parser.parse(buffer.data(), buffer.size(), false).get(doc))
        throw LoadError(name, std::string("invalid JSON: ") + simdjson::error_message(err));
    array processes;
    if (doc[kRootKey].get(processes))
        throw LoadError(name, "\"rocprofiler-sdk-tool\" is not an array of processes", -1, ErrorKind::Format);
    const int named = rankFromFileName(name);
    int next = named >= 0 ? named : firstRank;
    std::vector<Rank> ranks;
    for (element entry : processes) {
        if (!entry.is_object())
            throw LoadError(name, "a process entry is not an object", -1, ErrorKind::Format);
        Rank rank;
        rank.sourcePath = name;
        rank.fileBytes = static_cast<std::int64_t>(buffer.size());
        rank.backend = "rocprofv3";
        rank.format = "rocprofv3";
        rank.profiler = "rocprofv3 (rocprofiler-sdk)";
        ProcessReader reader(name, entry, rank, options.maxEventsPerFile);
        reader.read();
        if (!reader.hasGpuWork()) continue; // a process that never touched a GPU is no rank
        reader.addDevicesTo(rank);
        rank.rank = next++;
        rank.rankFromFile = named >= 0;
        reader.finish();
        if (!reader.hasHostCalls())
            rank.warnings.add(
                Warn::GpuOnlyRank,
                name + ": no HIP API records (rocprofv3 ran without --hip-trace / --runtime-trace): "
                       "loaded GPU-only, without launch calls; GPU queues replay in stream order "
                       "and host-side knobs cannot act");
        ranks.push_back(std::move(rank));
    }
    if (ranks.empty())
        throw LoadError(name, "no process with GPU work (no kernel_dispatch or memory_copy records)", -1,
                        ErrorKind::Format);
    return ranks;
}

} // namespace

bool looksLikeRocprofJson(std::string_view head) {
    std::size_t i = 0;
    auto skipSpace = [&] {
        while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i])))
            ++i;
    };
    skipSpace();
    if (i >= head.size() || head[i] != '{') return false;
    ++i;
    skipSpace();
    const std::string quoted = "\"" + std::string(kRootKey) + "\"";
    return head.substr(i, quoted.size()) == quoted;
}

bool isRocprofFile(const std::string& path) {
    return looksLikeRocprofJson(readFileHead(path, 256));
}

namespace {

// A JSON file (plain or gzip) that is rocprofv3's: what a folder of them is made of.
bool isRocprofJsonFile(const std::string& p) {
    return (p.ends_with(".json") || p.ends_with(".json.gz")) && isRocprofFile(p);
}

} // namespace

bool isRocprofInput(const std::vector<std::string>& paths) {
    return allProfilerInputs(paths, isRocprofJsonFile);
}

std::vector<Rank> loadRocprofFile(const std::string& path, int firstRank, const LoadOptions& options) {
    return rocprofRanks(path, readWholeProfilerFile(path, options), firstRank, options);
}

std::vector<Rank> loadRocprofBytes(std::string_view bytes, const std::string& name, int firstRank,
                                   const LoadOptions& options) {
    return rocprofRanks(name, decodeWholeProfilerBytes(bytes, name, options), firstRank, options);
}

TraceSet loadRocprofTraceSet(const std::vector<std::string>& paths, const LoadOptions& options) {
    return loadProfilerFileSet(expandProfilerFolders(paths, isRocprofJsonFile), options, loadRocprofFile);
}

} // namespace sl
