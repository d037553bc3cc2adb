#include "io/xspace/XSpaceLoader.h"

#include "io/FileReader.h"
#include "io/LoadError.h"
#include "io/MemoryLimits.h"
#include "io/ProfilerFileSet.h"
#include "io/TimelineRankBuilder.h"
#include "io/xspace/XSpaceStats.h"
#include "trace/RuntimeApi.h"

#include <io/xspace/xplane.pb.h>

#include <google/protobuf/stubs/logging.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <map>
#include <memory>
#include <unordered_map>

namespace sl {

namespace {

namespace pb = sightline::xspace;

constexpr std::string_view kGpuPlanePrefix = "/device:GPU:";
constexpr std::string_view kHostPlane = "/host:CPU";

// The reader reports bad input itself: protobuf's own log lines would be a second message.
void silenceProtobufLog() {
    static const bool once = [] {
        google::protobuf::SetLogHandler(nullptr);
        return true;
    }();
    (void)once;
}

// N of "/device:GPU:N", or -1.
std::int64_t gpuOrdinal(const std::string& planeName) {
    if (!planeName.starts_with(kGpuPlanePrefix)) return -1;
    std::int64_t n = -1;
    const char* b = planeName.data() + kGpuPlanePrefix.size();
    const char* e = planeName.data() + planeName.size();
    auto [p, ec] = std::from_chars(b, e, n);
    return ec == std::errc() && p == e && n >= 0 ? n : -1;
}

// XSpace times: a line's start in ns plus an event's offset in ps.
TimeNs psToNs(std::int64_t ps) {
    return ps / 1000;
}

bool isStreamLine(const pb::XLine& line) {
    return line.name().starts_with("Stream #") || line.display_name().starts_with("Stream #");
}

EventKind gpuKind(const pb::XLine& line, const std::string& name, const XEventStats& stats) {
    if (stats.has("memcpy_details") || line.name().find("Memcpy") != std::string::npos ||
        name.starts_with("Memcpy") || name.starts_with("memcpy"))
        return EventKind::GpuMemcpy;
    if (stats.has("memset_details") || name.starts_with("Memset") || name.starts_with("memset"))
        return EventKind::GpuMemset;
    return EventKind::Kernel;
}

EventKind hostKind(const std::string& name) {
    if (runtimeApi(name) != RuntimeApi::Other) return EventKind::Runtime;
    // Every other CUDA / HIP runtime or driver entry point (cudaGetDevice, hipMalloc, cuCtxGetCurrent).
    const std::size_t prefix = name.starts_with("cuda") ? 4 : name.starts_with("hip") ? 3 : 0;
    if (prefix > 0 && name.size() > prefix && std::isupper(static_cast<unsigned char>(name[prefix])))
        return EventKind::Runtime;
    if (name.size() > 2 && name.starts_with("cu") && std::isupper(static_cast<unsigned char>(name[2])))
        return EventKind::Driver;
    if (name.starts_with("$")) return EventKind::PythonFunction;
    return EventKind::CpuOp;
}

bool isStepMarker(const std::string& name, const XEventStats& stats) {
    return name == "StepMarker" || name == "train_step" || stats.has("step_num");
}

// "grid:11,16,2 block:256,1,1 ..." -> [11,16,2]; empty when absent.
std::vector<std::int64_t> dimsAfter(std::string_view details, std::string_view key) {
    std::vector<std::int64_t> out;
    auto at = details.find(key);
    if (at == std::string_view::npos) return out;
    const char* p = details.data() + at + key.size();
    const char* end = details.data() + details.size();
    for (int i = 0; i < 3 && p < end; ++i) {
        std::int64_t v = 0;
        auto [q, ec] = std::from_chars(p, end, v);
        if (ec != std::errc()) break;
        out.push_back(v);
        p = q;
        if (p < end && *p == ',') ++p;
    }
    return out;
}

struct GpuPlane {
    const pb::XPlane* plane = nullptr;
    std::int64_t ordinal = -1;
    std::int64_t streamEvents = 0;
};

class SpaceReader {
public:
    SpaceReader(const std::string& name, const pb::XSpace& space, const LoadOptions& options)
        : name_(name), space_(space), options_(options) {}

    std::vector<Rank> ranks(int firstRank) {
        const pb::XPlane* host = nullptr;
        std::vector<GpuPlane> gpus;
        for (const auto& plane : space_.planes()) {
            if (plane.name() == kHostPlane) host = &plane;
            const std::int64_t n = gpuOrdinal(plane.name());
            if (n < 0) continue;
            GpuPlane g{&plane, n, 0};
            for (const auto& line : plane.lines())
                if (isStreamLine(line)) g.streamEvents += line.events_size();
            if (g.streamEvents > 0) gpus.push_back(g);
        }
        if (gpus.empty()) {
            if (!host) fail("no \"/device:GPU:N\" or \"/host:CPU\" plane: not an XLA profiler XSpace");
            fail("no GPU plane with events on a \"Stream #\" line (a CPU- or TPU-only profile)");
        }
        std::sort(gpus.begin(), gpus.end(),
                  [](const GpuPlane& a, const GpuPlane& b) { return a.ordinal < b.ordinal; });
        std::vector<Rank> ranks(gpus.size());
        std::vector<std::unique_ptr<TimelineRankBuilder>> builders;
        for (std::size_t i = 0; i < gpus.size(); ++i) {
            Rank& r = ranks[i];
            r.rank = firstRank + static_cast<int>(i);
            r.sourcePath = name_;
            r.fileBytes = static_cast<std::int64_t>(space_.ByteSizeLong());
            r.backend = "xspace";
            r.format = "xspace";
            r.profiler = "JAX / TensorFlow profiler (XSpace)";
            r.devices.push_back(deviceOf(*gpus[i].plane, gpus[i].ordinal));
            builders.push_back(std::make_unique<TimelineRankBuilder>(r));
            readGpuPlane(*gpus[i].plane, gpus[i].ordinal, *builders.back(), i);
        }
        if (host) {
            std::size_t shared = 0;
            const StatNames names(*host);
            for (const auto& line : host->lines()) {
                const std::size_t owner = ownerOf(names, line, shared);
                readHostLine(*host, names, line, *builders[owner]);
            }
            if (shared > 0 && gpus.size() > 1)
                ranks.front().warnings.add(
                    Warn::XSpaceHostLinesShared,
                    name_ + ": " + std::to_string(shared) +
                        " host threads launch no GPU work; they are shown with the first GPU's rank",
                    static_cast<std::int64_t>(shared));
        }
        for (std::size_t i = 0; i < ranks.size(); ++i) {
            builders[i]->finish();
            if (!host)
                ranks[i].warnings.add(
                    Warn::GpuOnlyRank,
                    name_ + ": no \"/host:CPU\" plane: loaded GPU-only, without launch calls; "
                            "GPU streams replay in stream order and host-side knobs cannot act");
        }
        return ranks;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw LoadError(name_, what, -1, ErrorKind::Format);
    }

    void count() {
        if (++events_ > options_.maxEventsPerFile)
            throw LoadError(name_, "more than " + std::to_string(options_.maxEventsPerFile) + " events", -1,
                            ErrorKind::Limit);
    }

    DeviceProperties deviceOf(const pb::XPlane& plane, std::int64_t ordinal) const {
        DeviceProperties d;
        d.id = ordinal;
        const StatNames names(plane);
        const XEventStats stats(names, plane.stats(), nullptr);
        d.name = stats.text("device_name");
        if (d.name.empty() && !stats.text("device_vendor").empty())
            d.name = stats.text("device_vendor") + " GPU";
        d.numSms = static_cast<int>(std::clamp<std::int64_t>(stats.integer("core_count", 0), 0, 1 << 20));
        d.totalGlobalMem = std::max<std::int64_t>(0, stats.integer("memory_size", 0));
        d.computeMajor =
            static_cast<int>(std::clamp<std::int64_t>(stats.integer("compute_cap_major", 0), 0, 1000));
        d.computeMinor =
            static_cast<int>(std::clamp<std::int64_t>(stats.integer("compute_cap_minor", 0), 0, 1000));
        return d;
    }

    const pb::XEventMetadata* metadataOf(const pb::XPlane& plane, const pb::XEvent& e) const {
        auto it = plane.event_metadata().find(e.metadata_id());
        return it == plane.event_metadata().end() ? nullptr : &it->second;
    }
    std::string eventName(const pb::XEventMetadata* m, const pb::XEvent& e) const {
        if (!m) return "event " + std::to_string(e.metadata_id());
        return !m->name().empty() ? m->name() : m->display_name();
    }
    // Start and duration of an event; an event that repeats without times (num_occurrences, an
    // aggregated line) has none and is skipped.
    bool times(const pb::XLine& line, const pb::XEvent& e, TimeNs& start, TimeNs& duration) const {
        if (e.data_case() != pb::XEvent::kOffsetPs) return false;
        constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max() / 4;
        if (line.timestamp_ns() < 0 || line.timestamp_ns() > kMax || e.offset_ps() < 0 || e.duration_ps() < 0)
            fail("line \"" + line.name() + "\" has an event at a negative or overflowing time");
        start = line.timestamp_ns() + psToNs(e.offset_ps());
        duration = psToNs(e.duration_ps());
        if (start > kMax) fail("line \"" + line.name() + "\" has an event at an overflowing time");
        return true;
    }

    void readGpuPlane(const pb::XPlane& plane, std::int64_t ordinal, TimelineRankBuilder& b,
                      std::size_t rankIndex) {
        const StatNames names(plane);
        for (const auto& line : plane.lines()) {
            if (!isStreamLine(line)) continue; // derived lines repeat the stream events
            const std::uint32_t track = b.gpuStream(ordinal, line.id());
            for (const auto& e : line.events()) {
                count();
                TimeNs start = 0, duration = 0;
                if (!times(line, e, start, duration)) continue;
                const pb::XEventMetadata* m = metadataOf(plane, e);
                const XEventStats stats(names, e.stats(), m);
                const std::string name = eventName(m, e);
                const std::int64_t correlation = stats.integer("correlation_id", -1);
                ArgsWriter args;
                if (correlation >= 0) {
                    args.number("correlation", correlation);
                    rankOfCorrelation_.emplace(correlation, rankIndex);
                }
                args.number("device", ordinal);
                args.number("stream", line.id());
                for (const char* key :
                     {"hlo_op", "hlo_module", "tf_op", "kernel_details", "memcpy_details", "name"})
                    if (stats.has(key)) args.text(key, stats.text(key));
                const std::string details = stats.text("kernel_details");
                if (auto grid = dimsAfter(details, "grid:"); !grid.empty()) args.numbers("grid", grid);
                if (auto block = dimsAfter(details, "block:"); !block.empty()) args.numbers("block", block);
                if (const std::string copy = stats.text("memcpy_details"); !copy.empty())
                    if (auto bytes = dimsAfter(copy, "num_bytes:"); !bytes.empty())
                        args.number("bytes", bytes.front());
                b.add(track, start, duration, name, gpuKind(line, name, stats), correlation, args.done());
            }
        }
    }

    // The rank whose GPU work most of the line's calls launched; the first rank when none.
    std::size_t ownerOf(const StatNames& names, const pb::XLine& line, std::size_t& shared) const {
        std::map<std::size_t, std::int64_t> votes;
        for (const auto& e : line.events()) {
            const XEventStats stats(names, e.stats(), nullptr);
            auto it = rankOfCorrelation_.find(stats.integer("correlation_id", -1));
            if (it != rankOfCorrelation_.end()) ++votes[it->second];
        }
        if (votes.empty()) {
            ++shared;
            return 0;
        }
        return std::max_element(votes.begin(), votes.end(),
                                [](const auto& a, const auto& b) { return a.second < b.second; })
            ->first;
    }

    void readHostLine(const pb::XPlane& host, const StatNames& names, const pb::XLine& line,
                      TimelineRankBuilder& b) {
        const std::string& threadName = line.display_name().empty() ? line.name() : line.display_name();
        const std::uint32_t track = b.cpuThread(0, line.id(), threadName);
        for (const auto& e : line.events()) {
            count();
            TimeNs start = 0, duration = 0;
            if (!times(line, e, start, duration)) continue;
            const pb::XEventMetadata* m = metadataOf(host, e);
            const XEventStats stats(names, e.stats(), m);
            std::string name = eventName(m, e);
            EventKind kind = hostKind(name);
            const std::int64_t correlation = stats.integer("correlation_id", -1);
            // TensorFlow's collector names a launch call after the kernel or copy it launched.
            if (kind == EventKind::CpuOp && correlation >= 0 && rankOfCorrelation_.count(correlation))
                kind = EventKind::Runtime;
            ArgsWriter args;
            if (correlation >= 0) args.number("correlation", correlation);
            for (const char* key : {"hlo_op", "hlo_module", "tf_op", "program_id", "run_id", "group_id"})
                if (stats.has(key)) args.text(key, stats.text(key));
            if (isStepMarker(name, stats)) {
                args.text("step_marker", name);
                const std::int64_t step = stats.integer("step_num", steps_);
                ++steps_;
                name = "ProfilerStep#" + std::to_string(step);
                kind = EventKind::UserAnnotation;
            }
            b.add(track, start, duration, name, kind, isRuntimeCall(kind) ? correlation : -1, args.done());
        }
    }

    const std::string& name_;
    const pb::XSpace& space_;
    const LoadOptions& options_;
    std::int64_t events_ = 0;
    std::int64_t steps_ = 0;
    // The rank (index) of each GPU event's correlation id.
    std::unordered_map<std::int64_t, std::size_t> rankOfCorrelation_;
};

std::vector<Rank> xspaceRanks(const std::string& name, const TraceBuffer& buffer, int firstRank,
                              const LoadOptions& options) {
    silenceProtobufLog();
    if (buffer.size() == 0) throw LoadError(name, "empty file", -1, ErrorKind::Format);
    if (buffer.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw LoadError(name, "larger than 2 GiB, the most a protobuf message may be", -1, ErrorKind::Limit);
    if (!looksLikeXSpace(std::string_view(buffer.data(), std::min<std::size_t>(buffer.size(), 64))))
        throw LoadError(name, "not an XSpace protobuf (it does not start with a plane)", 0,
                        ErrorKind::Format);
    pb::XSpace space;
    if (!space.ParseFromArray(buffer.data(), static_cast<int>(buffer.size())))
        throw LoadError(name, "corrupt or truncated protobuf: the XSpace message does not parse");
    SpaceReader reader(name, space, options);
    return reader.ranks(firstRank);
}

bool xspaceName(const std::string& p) {
    return p.ends_with(".xplane.pb") || p.ends_with(".xplane.pb.gz");
}

} // namespace

bool looksLikeXSpace(std::string_view head) {
    // Field 1 (planes), wire type 2: tag byte 0x0a, then the plane's length as a varint.
    if (head.size() < 3 || static_cast<unsigned char>(head[0]) != 0x0a) return false;
    std::size_t i = 1;
    while (i < head.size() && i < 11 && (static_cast<unsigned char>(head[i]) & 0x80))
        ++i;
    if (i >= head.size() - 1 || i >= 11) return false;
    // The plane's first field: id (1, varint), name (2), lines (3), event_metadata (4),
    // stat_metadata (5) or stats (6), all length-delimited but the id.
    const auto tag = static_cast<unsigned char>(head[i + 1]);
    return tag == 0x08 || tag == 0x12 || tag == 0x1a || tag == 0x22 || tag == 0x2a || tag == 0x32;
}

bool isXSpaceFile(const std::string& path) {
    // By name: a file XLA's profiler named is read as XSpace, so that a damaged one is reported as
    // such. By content: another protobuf file name (.pb) whose start is a plane.
    if (xspaceName(path)) return true;
    return (path.ends_with(".pb") || path.ends_with(".pb.gz")) && looksLikeXSpace(readFileHead(path, 64));
}

bool isXSpaceInput(const std::vector<std::string>& paths) {
    return allProfilerInputs(paths, isXSpaceFile);
}

std::vector<Rank> loadXSpaceFile(const std::string& path, int firstRank, const LoadOptions& options) {
    return xspaceRanks(path, readWholeProfilerFile(path, options), firstRank, options);
}

std::vector<Rank> loadXSpaceBytes(std::string_view bytes, const std::string& name, int firstRank,
                                  const LoadOptions& options) {
    return xspaceRanks(name, decodeWholeProfilerBytes(bytes, name, options), firstRank, options);
}

TraceSet loadXSpaceTraceSet(const std::vector<std::string>& paths, const LoadOptions& options) {
    return loadProfilerFileSet(expandProfilerFolders(paths, isXSpaceFile), options, loadXSpaceFile);
}

} // namespace sl
