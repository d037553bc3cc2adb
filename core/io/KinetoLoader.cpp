#include "io/KinetoLoader.h"

#include "io/FileReader.h"
#include "io/LoadError.h"
#include "io/MemoryLimits.h"
#include "io/NumberParse.h"
#include "io/RankFinalizer.h"
#include "io/chakra/ChakraTraceSet.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <regex>
#include <thread>
#include <unordered_map>

#include <simdjson.h>

namespace sl {

namespace od = simdjson::ondemand;

using namespace detail;

namespace {

// Where a value starts in the buffer (for error offsets).
const char* rawTokenStart(od::value& v) {
    return v.raw_json_token().data();
}

// Time values the model accepts (documented limits, see also io/MemoryLimits.h): a start within
// +-kMaxAbsStartNs (about year 2096 for epoch clocks) and a duration within [0, kMaxDurationNs]
// (about 11.6 days). With these, start + duration and the difference of any two times in a set
// stay far from int64 overflow, so later stages need no overflow checks of their own.
constexpr TimeNs kMaxAbsStartNs = 4'000'000'000'000'000'000;
constexpr TimeNs kMaxDurationNs = 1'000'000'000'000'000;
// Rank numbers and group sizes beyond this are treated as absent (world sizes are far smaller).
constexpr std::int64_t kMaxRank = 1 << 24;
// Message sizes beyond this (elements) are treated as unknown: bytes = nelems x 8 must not overflow.
constexpr std::int64_t kMaxNelems = std::int64_t{1} << 50;

std::int64_t sanitizeNelems(std::int64_t n) {
    return n >= 0 && n <= kMaxNelems ? n : -1;
}
std::int32_t sanitizeGroupSize(std::int64_t n) {
    return n > 0 && n < kMaxRank ? static_cast<std::int32_t>(n) : -1;
}
template <typename Vec> void pushRank(Vec& ranks, std::int64_t r) {
    if (r >= 0 && r < kMaxRank) ranks.push_back(static_cast<std::int32_t>(r));
}

// A field's key as written between its quotes, without unescaping it into simdjson's string buffer
// (the loader's hottest path). Kineto's keys have no escapes; a key that has one matches nothing.
template <typename FieldResult> std::string_view rawKey(FieldResult& field) {
    const char* begin = field.key().value().raw();
    const char* end = begin;
    while (*end != '"')
        end += *end == '\\' ? 2 : 1;
    return {begin, static_cast<std::size_t>(end - begin)};
}

std::string_view trimToken(std::string_view tok) {
    while (!tok.empty() &&
           (tok.back() == ' ' || tok.back() == '\n' || tok.back() == '\r' || tok.back() == '\t'))
        tok.remove_suffix(1);
    return tok;
}

// Fields of one event's "args" that the model needs; the rest is kept as raw JSON text.
struct ArgsFields {
    std::int64_t correlation = -1;
    std::int64_t device = -1;
    std::int64_t stream = -1;
    bool hasCollective = false;
    std::string collectiveName;
    std::int64_t inNelems = -1;
    std::int64_t outNelems = -1;
    std::int64_t groupSize = -1;
    std::string dtype;
    std::string processGroupName;
    std::string processGroupRanks;
    bool hasSync = false;
    std::string syncKind;
    std::int64_t waitOnStream = -1;
    std::int64_t waitOnEventRecordCorrelation = -1;
    std::int64_t waitOnCudaEventId = -1;
    std::string metaName; // "name" of M events
};

class KinetoParser {
public:
    KinetoParser(const std::string& path, const TraceBuffer& buffer, Rank& rank, const LoadOptions& options,
                 const std::function<bool(std::int64_t)>& parseProgress)
        : path_(path), buffer_(buffer), rank_(rank), options_(options), progress_(parseProgress) {}

    void parse();

private:
    [[noreturn]] void fail(const std::string& what, const char* where = nullptr) const {
        std::int64_t offset = where ? static_cast<std::int64_t>(where - buffer_.data()) : -1;
        throw LoadError(path_, what, offset);
    }

    void parseRoot(od::document& doc);
    void parseEvents(od::array events, od::document& doc);
    void parseEvent(od::object event, const char* where, od::document& doc);
    void parseArgs(od::object args, ArgsFields& out, const char* where);
    void parseDeviceProperties(od::array devices);
    void parseDistributedInfo(od::object info);
    std::int64_t intValue(od::value v, const char* field, const char* where);
    std::int64_t idValue(od::value v, const char* field, const char* where);
    std::uint32_t trackFor(const TrackKey& key);
    // Collective metadata of an event's args (record_param_comms CPU op or NCCL kernel).
    CollectiveMeta collectiveMetaFrom(const ArgsFields& args);

    const std::string& path_;
    const TraceBuffer& buffer_;
    Rank& rank_;
    const LoadOptions& options_;
    const std::function<bool(std::int64_t)>& progress_;

    std::unordered_map<TrackKey, std::uint32_t, TrackKeyHash> trackIndex_;
    TrackKey lastKey_{false, 0, 0};
    std::uint32_t lastTrack_ = 0xffffffffu;
    std::vector<std::vector<RawEvent>> rawByTrack_;
    std::vector<FlowPoint> flows_;
    std::unordered_map<std::string, std::int64_t> stringIds_; // non-numeric pid / tid values
    std::unordered_map<std::int64_t, std::string> processNames_;
    std::unordered_map<TrackKey, std::string, TrackKeyHash> threadNames_;
    std::unordered_map<TrackKey, std::vector<RawEvent>, TrackKeyHash> openBegins_;
    std::int64_t eventCount_ = 0;
    bool sawTraceEvents_ = false;
    std::string lastCategory_ = "\x01"; // matches no real category
    EventKind lastKind_ = EventKind::Other;
    bool lastKnown_ = false;
};

// A value quoted in an error message: at most 40 characters, printable ASCII only (the message
// stays one line whatever the file holds).
std::string quoteForMessage(std::string_view s) {
    std::string out = "\"";
    for (std::size_t i = 0; i < s.size() && i < 40; ++i) {
        auto c = static_cast<unsigned char>(s[i]);
        out.push_back(c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?');
    }
    if (s.size() > 40) out += "...";
    return out + "\"";
}

// Integer ids in args (correlation, device, stream, wait_on_stream, ...): a JSON number, a decimal
// string ("0") or a 0x hex string ("0x0", "0x7f3a2c000b70": ROCm writes HIP stream handles so);
// null means absent (-1). Anything else is an error naming the field.
std::int64_t KinetoParser::intValue(od::value v, const char* field, const char* where) {
    switch (v.type()) {
    case od::json_type::number: {
        std::int64_t i;
        if (!v.get_int64().get(i)) return i;
        std::uint64_t u;
        if (!v.get_uint64().get(u)) return static_cast<std::int64_t>(u); // 64-bit handles keep their bits
        double d = v.get_double();
        if (!std::isfinite(d) || std::fabs(d) > 9.0e18)
            fail(std::string("\"") + field + "\" is out of range", where);
        return static_cast<std::int64_t>(d);
    }
    case od::json_type::string: {
        std::string_view s = v.get_string();
        std::int64_t i = 0;
        if (parseIntegerId(s, i)) return i;
        fail(std::string("\"") + field +
                 "\" is not a number (nor a decimal or 0x hex string): " + quoteForMessage(s),
             where);
    }
    case od::json_type::null: { // the type comes from the first byte only: "nan" must not pass
        bool isNull = false;
        if (!v.is_null().get(isNull) && isNull) return -1;
        fail(std::string("\"") + field + "\" is not a number", where);
    }
    default:
        fail(std::string("\"") + field + "\" is not a number", where);
    }
}

// pid / tid: a number, or a string. Decimal and 0x hex strings are parsed; other strings ("Spans",
// "Traces": the profiler's own rows) get a stable synthetic id below -999999, whose events are skipped.
std::int64_t KinetoParser::idValue(od::value v, const char* field, const char* where) {
    if (v.type() == od::json_type::string) {
        std::string_view s = v.get_string();
        std::int64_t n = 0;
        if (parseIntegerId(s, n) && n > -1000000) return n;
        auto [it, inserted] =
            stringIds_.try_emplace(std::string(s), -1000000 - static_cast<std::int64_t>(stringIds_.size()));
        return it->second;
    }
    return intValue(v, field, where);
}

std::uint32_t KinetoParser::trackFor(const TrackKey& key) {
    if (lastTrack_ != 0xffffffffu && key == lastKey_) return lastTrack_;
    auto [it, inserted] = trackIndex_.try_emplace(key, static_cast<std::uint32_t>(rank_.tracks.size()));
    if (inserted) {
        Track t;
        t.kind = key.gpu ? TrackKind::GpuStream : TrackKind::CpuThread;
        t.pid = key.a;
        t.tid = key.b;
        rank_.tracks.push_back(std::move(t));
        rawByTrack_.emplace_back();
    }
    lastKey_ = key;
    lastTrack_ = it->second;
    return it->second;
}

void KinetoParser::parseArgs(od::object args, ArgsFields& out, const char* where) {
    for (auto field : args) {
        std::string_view key = rawKey(field);
        od::value v = field.value();
        if (key.empty()) continue;
        switch (key[0]) {
        case 'c':
            if (key == "correlation")
                out.correlation = intValue(v, "correlation", where);
            else if (key == "cuda_sync_kind") {
                out.hasSync = true;
                if (v.type() == od::json_type::string)
                    out.syncKind = std::string(std::string_view(v.get_string()));
            }
            break;
        case 'd':
            if (key == "device")
                out.device = intValue(v, "device", where);
            else if (key == "dtype" && v.type() == od::json_type::string)
                out.dtype = std::string(std::string_view(v.get_string()));
            break;
        case 's':
            if (key == "stream") out.stream = intValue(v, "stream", where);
            break;
        case 'w':
            if (key == "wait_on_stream") {
                out.hasSync = true;
                out.waitOnStream = intValue(v, "wait_on_stream", where);
            } else if (key == "wait_on_cuda_event_record_corr_id") {
                out.hasSync = true;
                out.waitOnEventRecordCorrelation = intValue(v, "wait_on_cuda_event_record_corr_id", where);
            } else if (key == "wait_on_cuda_event_id") {
                out.hasSync = true;
                out.waitOnCudaEventId = intValue(v, "wait_on_cuda_event_id", where);
            }
            break;
        case 'n':
            if (key == "name" && v.type() == od::json_type::string)
                out.metaName = std::string(std::string_view(v.get_string()));
            break;
        case 'C':
            if (key == "Collective name" && v.type() == od::json_type::string) {
                out.hasCollective = true;
                out.collectiveName = std::string(std::string_view(v.get_string()));
            }
            break;
        case 'I':
            if (key == "In msg nelems" && v.type() == od::json_type::number)
                out.inNelems = intValue(v, "In msg nelems", where);
            break;
        case 'O':
            if (key == "Out msg nelems" && v.type() == od::json_type::number)
                out.outNelems = intValue(v, "Out msg nelems", where);
            break;
        case 'G':
            if (key == "Group size" && v.type() == od::json_type::number)
                out.groupSize = intValue(v, "Group size", where);
            break;
        case 'P':
            if (key == "Process Group Name" && v.type() == od::json_type::string)
                out.processGroupName = std::string(std::string_view(v.get_string()));
            else if (key == "Process Group Ranks" && v.type() == od::json_type::string)
                out.processGroupRanks = std::string(std::string_view(v.get_string()));
            break;
        default:
            break;
        }
    }
}

CollectiveMeta KinetoParser::collectiveMetaFrom(const ArgsFields& args) {
    CollectiveMeta meta;
    if (args.hasCollective) {
        meta.hasMetadata = true;
        meta.type = collectiveTypeFromMetadata(args.collectiveName);
    }
    meta.inNelems = sanitizeNelems(args.inNelems);
    meta.outNelems = sanitizeNelems(args.outNelems);
    meta.groupSize = sanitizeGroupSize(args.groupSize);
    meta.dtype = rank_.strings.intern(args.dtype);
    meta.processGroupName = rank_.strings.intern(args.processGroupName);
    parseIntList(args.processGroupRanks, [&](std::int64_t r) { pushRank(meta.processGroupRanks, r); });
    return meta;
}

void KinetoParser::parseEvent(od::object event, const char* where, od::document& doc) {
    char ph = 0;
    // Views into simdjson's string buffer: valid until the parser reads the next document.
    std::string_view name, cat;
    bool hasName = false, hasTs = false, hasDur = false, hasPid = false, hasTid = false;
    std::int64_t pid = 0, tid = 0, flowId = -1;
    TimeNs ts = 0, dur = 0;
    ArgsFields args;
    std::uint64_t argsOffset = 0;
    std::uint32_t argsLength = 0;

    for (auto field : event) {
        std::string_view key = rawKey(field);
        od::value v = field.value();
        if (key == "ph") {
            std::string_view s;
            if (v.get_string().get(s) || s.empty())
                fail("event has a \"ph\" that is not a non-empty string", where);
            ph = s[0];
        } else if (key == "name") {
            if (v.type() != od::json_type::string) fail("event has a \"name\" that is not a string", where);
            name = v.get_string();
            hasName = true;
        } else if (key == "cat") {
            if (v.type() != od::json_type::string) fail("event has a \"cat\" that is not a string", where);
            cat = v.get_string();
        } else if (key == "ts" || key == "dur") {
            if (v.type() != od::json_type::number)
                fail(std::string("event has a \"") + std::string(key) + "\" that is not a number", where);
            TimeNs value = 0;
            if (!parseMicrosecondsToNs(trimToken(v.raw_json_token()), value))
                fail(std::string("event has an out-of-range \"") + std::string(key) + "\"", where);
            if (key == "ts") {
                if (value > kMaxAbsStartNs || value < -kMaxAbsStartNs)
                    fail("event has an out-of-range \"ts\" (more than 4e15 us from 0)", where);
                ts = value;
                hasTs = true;
            } else {
                if (value < 0) fail("event has a negative \"dur\"", where);
                if (value > kMaxDurationNs)
                    fail("event has an out-of-range \"dur\" (more than 1e12 us, about 11.6 days)", where);
                dur = value;
                hasDur = true;
            }
        } else if (key == "pid") {
            pid = idValue(v, "pid", where);
            hasPid = true;
        } else if (key == "tid") {
            tid = idValue(v, "tid", where);
            hasTid = true;
        } else if (key == "id") {
            if (v.type() == od::json_type::number)
                flowId = intValue(v, "id", where);
            else if (v.type() == od::json_type::string)
                flowId = idValue(v, "id", where);
        } else if (key == "args") {
            if (v.type() != od::json_type::object) continue; // tolerate odd args, keep the event
            const char* begin = trimToken(v.raw_json_token()).data();
            parseArgs(v.get_object(), args, where);
            const char* end = doc.current_location().value_unsafe();
            if (end && end > begin) {
                std::string_view raw(begin, static_cast<std::size_t>(end - begin));
                while (!raw.empty() && raw.back() != '}')
                    raw.remove_suffix(1);
                argsOffset = rank_.argsArena.size();
                argsLength = static_cast<std::uint32_t>(raw.size());
                rank_.argsArena.append(raw);
            }
        }
    }

    switch (ph) {
    case 'X':
    case 'B':
    case 'E':
    case 'i':
    case 'I':
        break;
    case 'M':
        if (name == "process_name" && hasPid)
            processNames_[pid] = args.metaName;
        else if (name == "thread_name" && hasPid && hasTid)
            threadNames_[{false, pid, tid}] = args.metaName;
        return;
    case 's':
    case 'f':
    case 't':
        ++rank_.flowsByCategory[std::string(cat.empty() ? "(none)" : cat)];
        if (hasPid && hasTid && hasTs && flowId >= 0 && ph != 't' &&
            (cat == "ac2g" || cat == "async_cpu_to_gpu" || cat == "async"))
            flows_.push_back({{false, pid, tid}, ts, flowId, ph == 's'});
        return;
    case 0:
        fail("event has no \"ph\" (phase)", where);
    default:
        ++rank_.skippedEvents; // counters, async spans and other phases have no place in the model
        return;
    }

    if (!hasTs) fail("event \"" + std::string(name) + "\" has no \"ts\"", where);
    if (!hasPid || !hasTid) {
        fail("event \"" + std::string(name) + "\" has no \"pid\"/\"tid\"", where);
    }
    if (ph == 'X' && !hasDur) fail("event \"" + std::string(name) + "\" has no \"dur\"", where);
    if (!hasName && ph != 'E')
        fail("event at ts " + std::to_string(ts / 1000) + " us has no \"name\"", where);
    if (cat == "Trace" || pid < -999999) { // profiler spans on synthetic "Spans"/"Traces" rows
        ++rank_.skippedEvents;
        return;
    }

    bool known = true;
    EventKind kind = EventKind::Instant;
    if (ph != 'i' && ph != 'I') {
        // A trace has a handful of categories: remember the last one instead of classifying each event.
        if (cat != lastCategory_) {
            lastCategory_.assign(cat);
            lastKind_ = eventKindFromCategory(cat, &lastKnown_);
        }
        kind = lastKind_;
        known = lastKnown_;
    }
    if (!known) {
        if (cat.empty())
            kind = EventKind::CpuOp; // uncategorised complete events: treat as CPU work
        else
            ++rank_.unknownCategories[std::string(cat)];
    }
    if (ph == 'i' || ph == 'I') dur = 0;

    TrackKey key{false, pid, tid};
    if (isGpuKind(kind)) {
        key.gpu = true;
        key.a = args.device >= 0 ? args.device : pid;
        key.b = args.stream >= 0 ? args.stream : tid;
    }
    std::uint32_t trackIdx = trackFor(key);

    if (ph == 'B' || ph == 'E') {
        auto& open = openBegins_[key];
        if (ph == 'B') {
            open.push_back({ts, 0, rank_.strings.intern(name), kind, args.correlation, argsOffset, argsLength,
                            kNoExtra});
            return;
        }
        if (open.empty()) {
            ++rank_.skippedEvents;
            return;
        }
        RawEvent begin = open.back();
        open.pop_back();
        begin.duration = std::max<TimeNs>(0, ts - begin.start);
        rawByTrack_[trackIdx].push_back(begin);
        ++rank_.eventsByKind[static_cast<int>(begin.kind)];
        ++eventCount_;
        return;
    }

    std::uint32_t extra = kNoExtra;
    if (kind == EventKind::Kernel && isCollectiveKernelName(name)) {
        CollectiveMeta meta = collectiveMetaFrom(args);
        // The kernel name knows the type even without metadata; metadata wins where it knows.
        if (meta.type == CollectiveType::Unknown) meta.type = collectiveTypeFromKernelName(name);
        extra = static_cast<std::uint32_t>(rank_.collectives.size());
        rank_.collectives.push_back(std::move(meta));
    } else if (kind == EventKind::CudaSync && args.hasSync) {
        SyncMeta meta;
        meta.syncKind = rank_.strings.intern(args.syncKind);
        meta.waitOnStream = args.waitOnStream;
        meta.waitOnEventRecordCorrelation = args.waitOnEventRecordCorrelation;
        meta.waitOnCudaEventId = args.waitOnCudaEventId;
        meta.stream = args.stream;
        meta.device = args.device >= 0 ? args.device : key.a;
        extra = static_cast<std::uint32_t>(rank_.syncs.size());
        rank_.syncs.push_back(meta);
    } else if (!key.gpu && args.hasCollective) {
        extra = static_cast<std::uint32_t>(rank_.commCalls.size());
        rank_.commCalls.push_back(collectiveMetaFrom(args));
    }

    rawByTrack_[trackIdx].push_back(
        {ts, dur, rank_.strings.intern(name), kind, args.correlation, argsOffset, argsLength, extra});
    ++rank_.eventsByKind[static_cast<int>(kind)];
    if (++eventCount_ > options_.maxEventsPerFile)
        fail("more than " + std::to_string(options_.maxEventsPerFile) +
             " events in one file (the documented maximum); split the trace or profile fewer steps");
}

void KinetoParser::parseEvents(od::array events, od::document& doc) {
    sawTraceEvents_ = true;
    std::int64_t counter = 0;
    for (auto element : events) {
        od::value v = element.value();
        const char* where = rawTokenStart(v);
        if (v.type() != od::json_type::object) fail("an entry of traceEvents is not an object", where);
        parseEvent(v.get_object(), where, doc);
        if ((++counter & 0x3fff) == 0 && progress_) {
            if (!progress_(static_cast<std::int64_t>(where - buffer_.data()))) throw LoadCancelled();
        }
    }
}

void KinetoParser::parseDeviceProperties(od::array devices) {
    for (auto element : devices) {
        od::object dev;
        if (element.get_object().get(dev)) continue;
        DeviceProperties p;
        for (auto field : dev) {
            std::string_view key = field.unescaped_key();
            od::value v = field.value();
            std::int64_t i = 0;
            if (key == "id" && !v.get_int64().get(i))
                p.id = i;
            else if (key == "name" && v.type() == od::json_type::string)
                p.name = std::string(std::string_view(v.get_string()));
            else if (key == "totalGlobalMem" && !v.get_int64().get(i))
                p.totalGlobalMem = i;
            else if (key == "computeMajor" && !v.get_int64().get(i))
                p.computeMajor = static_cast<int>(i);
            else if (key == "computeMinor" && !v.get_int64().get(i))
                p.computeMinor = static_cast<int>(i);
            else if (key == "numSms" && !v.get_int64().get(i))
                p.numSms = static_cast<int>(i);
        }
        rank_.devices.push_back(std::move(p));
    }
}

void KinetoParser::parseDistributedInfo(od::object info) {
    for (auto field : info) {
        std::string_view key = field.unescaped_key();
        od::value v = field.value();
        std::int64_t i = 0;
        if (key == "rank" && !v.get_int64().get(i) && i >= 0 && i < kMaxRank) {
            rank_.rank = static_cast<int>(i);
            rank_.rankFromFile = true;
        } else if (key == "world_size" && !v.get_int64().get(i) && i > 0 && i < kMaxRank) {
            rank_.worldSize = static_cast<int>(i);
        } else if (key == "backend" && v.type() == od::json_type::string) {
            rank_.backend = std::string(std::string_view(v.get_string()));
        } else if (key == "pg_config" && v.type() == od::json_type::array) {
            for (auto pgElement : v.get_array()) {
                od::object pg;
                if (pgElement.get_object().get(pg)) continue;
                ProcessGroup group;
                for (auto pf : pg) {
                    std::string_view pk = pf.unescaped_key();
                    od::value pv = pf.value();
                    if (pk == "pg_name" && pv.type() == od::json_type::string)
                        group.name = std::string(std::string_view(pv.get_string()));
                    else if (pk == "pg_desc" && pv.type() == od::json_type::string)
                        group.description = std::string(std::string_view(pv.get_string()));
                    else if (pk == "ranks" && pv.type() == od::json_type::array) {
                        for (auto r : pv.get_array()) {
                            std::int64_t rv = 0;
                            if (!r.get_int64().get(rv)) pushRank(group.ranks, rv);
                        }
                    } else if (pk == "ranks" && pv.type() == od::json_type::string) {
                        parseIntList(std::string_view(pv.get_string()),
                                     [&](std::int64_t r) { pushRank(group.ranks, r); });
                    }
                }
                rank_.processGroups.push_back(std::move(group));
            }
        }
    }
}

void KinetoParser::parseRoot(od::document& doc) {
    od::json_type rootType;
    if (doc.type().get(rootType)) fail("not JSON (does not start with an object or array)", buffer_.data());
    if (rootType == od::json_type::array) { // the plain Chrome "array of events" form
        parseEvents(doc.get_array(), doc);
        return;
    }
    if (rootType != od::json_type::object)
        fail("not a trace: the top level is not a JSON object", buffer_.data());
    for (auto field : doc.get_object()) {
        std::string_view key = field.unescaped_key();
        od::value v = field.value();
        if (key == "traceEvents") {
            if (v.type() != od::json_type::array) fail("\"traceEvents\" is not an array", rawTokenStart(v));
            parseEvents(v.get_array(), doc);
        } else if (key == "deviceProperties" && v.type() == od::json_type::array) {
            parseDeviceProperties(v.get_array());
        } else if (key == "distributedInfo" && v.type() == od::json_type::object) {
            parseDistributedInfo(v.get_object());
        } else if (key == "baseTimeNanoseconds" && v.type() == od::json_type::number) {
            std::int64_t base = 0;
            if (!v.get_int64().get(base)) rank_.clockBaseNs = base;
        }
    }
    if (!sawTraceEvents_) fail("not a Kineto trace: no \"traceEvents\" array");
}

// Offset of the first byte that is not part of a valid UTF-8 sequence, or -1.
std::int64_t firstInvalidUtf8(const unsigned char* p, std::size_t n) {
    std::size_t i = 0;
    while (i < n) {
        unsigned char c = p[i];
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
        if (len == 0 || i + len > n) return static_cast<std::int64_t>(i);
        std::uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1fu) : len == 3 ? (c & 0x0fu) : (c & 0x07u);
        for (std::size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xc0) != 0x80) return static_cast<std::int64_t>(i);
            cp = (cp << 6) | (p[i + k] & 0x3fu);
        }
        static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return static_cast<std::int64_t>(i);
        i += len;
    }
    return -1;
}

// For string errors of simdjson's first stage: the first raw control character inside a string, or
// the opening quote of a string that is never closed; -1 when not found.
std::int64_t stringProblemOffset(const char* p, std::size_t n) {
    bool inString = false;
    std::size_t opened = 0;
    for (std::size_t i = 0; i < n; ++i) {
        char c = p[i];
        if (!inString) {
            if (c == '"') {
                inString = true;
                opened = i;
            }
        } else if (c == '\\') {
            ++i;
        } else if (c == '"') {
            inString = false;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            return static_cast<std::int64_t>(i);
        }
    }
    return inString ? static_cast<std::int64_t>(opened) : -1;
}

void KinetoParser::parse() {
    const char* data = buffer_.data();
    const std::size_t size = buffer_.size();
    std::size_t skip = 0;
    if (size >= 3 && static_cast<unsigned char>(data[0]) == 0xef &&
        static_cast<unsigned char>(data[1]) == 0xbb && static_cast<unsigned char>(data[2]) == 0xbf)
        skip = 3; // a UTF-8 byte order mark, written by some Windows tools
    else if (size >= 2 &&
             ((static_cast<unsigned char>(data[0]) == 0xff && static_cast<unsigned char>(data[1]) == 0xfe) ||
              (static_cast<unsigned char>(data[0]) == 0xfe && static_cast<unsigned char>(data[1]) == 0xff) ||
              (data[0] != 0 && data[1] == 0) || (data[0] == 0 && data[1] != 0)))
        fail("the file is UTF-16 (or binary), not UTF-8 JSON", data);

    // The raw args text is a fraction of the file; reserving the file size costs address space only
    // (pages are touched as they are written) and saves the copies of a doubling string.
    rank_.argsArena.reserve(buffer_.size());
    od::parser parser;
    // simdjson's document is only valid while the parser lives; all values are copied out.
    try {
        od::document doc = parser.iterate(buffer_.view(skip));
        try {
            parseRoot(doc);
            // Ensure nothing but white space follows the root value (catches concatenated garbage).
            const char* loc = nullptr;
            if (!doc.current_location().get(loc) && loc && loc < buffer_.data() + buffer_.size())
                fail("unexpected content after the end of the JSON document", loc);
        } catch (const simdjson::simdjson_error& e) {
            const char* loc = nullptr;
            if (doc.current_location().get(loc)) loc = nullptr;
            if (e.error() == simdjson::INCOMPLETE_ARRAY_OR_OBJECT)
                fail("truncated JSON: the file ends inside an object or array", data + size);
            if (e.error() == simdjson::DEPTH_ERROR)
                fail("invalid JSON: nested deeper than " + std::to_string(parser.max_depth()) + " levels",
                     loc);
            std::string what =
                e.error() == simdjson::TAPE_ERROR ? "invalid or truncated JSON" : "invalid JSON";
            fail(what + " (" + simdjson::error_message(e.error()) + ")", loc);
        }
    } catch (const simdjson::simdjson_error& e) {
        // Errors of simdjson's first stage carry no position: find it here (only on this path).
        std::int64_t offset = -1;
        std::string what = std::string("invalid JSON (") + simdjson::error_message(e.error()) + ")";
        switch (e.error()) {
        case simdjson::UTF8_ERROR:
            offset = firstInvalidUtf8(reinterpret_cast<const unsigned char*>(data), size);
            what = "invalid UTF-8 in the JSON text";
            break;
        case simdjson::UNESCAPED_CHARS:
            offset = stringProblemOffset(data, size);
            what = "invalid JSON: a control character inside a string";
            break;
        case simdjson::UNCLOSED_STRING:
            offset = stringProblemOffset(data, size);
            what = "invalid or truncated JSON: a string is never closed";
            break;
        case simdjson::EMPTY:
            what = "no JSON in the file (only white space)";
            break;
        case simdjson::CAPACITY:
            what = "file is larger than 4 GiB of JSON, the most the parser accepts";
            break;
        default:
            break;
        }
        throw LoadError(path_, what, offset);
    }
    if (eventCount_ == 0 && rank_.tracks.empty()) {
        // A trace with no events at all is valid but useless; say so rather than show nothing.
        rank_.warnings.push_back(path_ + ": no events in traceEvents");
    }
    for (auto& [key, open] : openBegins_)
        if (!open.empty())
            rank_.warnings.push_back(std::to_string(open.size()) + " \"B\" events without an \"E\"");

    finalizeRank(rank_, {rawByTrack_, flows_, processNames_, threadNames_});
}

Rank loadKinetoBuffer(const std::string& path, const TraceBuffer& buffer, std::int64_t disk, int loadOrder,
                      const LoadOptions& options);

// The most uncompressed JSON one file may hold within a memory budget (see io/MemoryLimits.h).
std::int64_t perFileLimit(std::int64_t budget) {
    if (budget < 0) return kMaxUncompressedBytes;
    return std::min(kMaxUncompressedBytes,
                    static_cast<std::int64_t>(static_cast<double>(budget) / kMemoryPerJsonByte));
}

} // namespace

int rankFromFileName(const std::string& path) {
    std::string base = std::filesystem::path(path).filename().string();
    static const std::regex patterns[] = {
        std::regex(R"((?:^|[^a-z])rank[-_]?(\d+))", std::regex::icase),
        std::regex(R"((?:^|[^a-z])worker[-_]?(\d+))", std::regex::icase),
    };
    for (const auto& re : patterns) {
        std::smatch m;
        if (std::regex_search(base, m, re)) {
            try {
                long v = std::stol(m[1].str());
                if (v >= 0 && v < (1 << 24)) return static_cast<int>(v);
            } catch (...) {
            }
        }
    }
    return -1;
}

Rank loadKinetoFile(const std::string& path, int loadOrder, const LoadOptions& options) {
    std::int64_t disk = std::max<std::int64_t>(fileSizeOnDisk(path), 0);
    ByteProgressFn readProgress;
    if (options.progress) readProgress = [&](std::int64_t done) { return options.progress(done, 2 * disk); };
    std::int64_t budget = memoryBudgetBytes(options.memoryLimitBytes);
    checkMemoryForLoad({path}, path, budget);
    TraceBuffer buffer = readTraceFile(path, readProgress, perFileLimit(budget));
    return loadKinetoBuffer(path, buffer, disk, loadOrder, options);
}

Rank loadKinetoBytes(std::string_view bytes, const std::string& name, int loadOrder,
                     const LoadOptions& options) {
    TraceBuffer buffer =
        decodeTraceBytes(name, bytes, perFileLimit(memoryBudgetBytes(options.memoryLimitBytes)));
    return loadKinetoBuffer(name, buffer, static_cast<std::int64_t>(bytes.size()), loadOrder, options);
}

namespace {

Rank loadKinetoBuffer(const std::string& path, const TraceBuffer& buffer, std::int64_t disk, int loadOrder,
                      const LoadOptions& options) {
    Rank rank;
    rank.sourcePath = path;
    rank.fileBytes = static_cast<std::int64_t>(buffer.size());
    rank.rank = loadOrder;
    std::function<bool(std::int64_t)> parseProgress;
    if (options.progress) {
        double scale = buffer.size() ? static_cast<double>(disk) / static_cast<double>(buffer.size()) : 0.0;
        parseProgress = [&, scale](std::int64_t parsed) {
            return options.progress(disk + static_cast<std::int64_t>(static_cast<double>(parsed) * scale),
                                    2 * disk);
        };
    }
    KinetoParser parser(path, buffer, rank, options, parseProgress);
    parser.parse();
    if (!rank.rankFromFile) {
        int fromName = rankFromFileName(path);
        if (fromName >= 0) rank.rank = fromName;
    }
    if (options.progress && !options.progress(2 * disk, 2 * disk)) throw LoadCancelled();
    return rank;
}

} // namespace

std::vector<std::string> expandTracePaths(const std::vector<std::string>& paths) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    for (const auto& p : paths) {
        std::error_code ec;
        auto status = fs::status(p, ec);
        if (ec || !fs::exists(status)) throw LoadError(p, "no such file or folder");
        if (!fs::is_directory(status)) {
            files.push_back(p);
            continue;
        }
        std::vector<std::string> found;
        for (const auto& entry : fs::directory_iterator(p, ec)) {
            std::string name = entry.path().filename().string();
            auto endsWith = [&](std::string_view suffix) {
                return name.size() >= suffix.size() &&
                       name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
            };
            if (entry.is_regular_file(ec) && (endsWith(".json") || endsWith(".json.gz")) &&
                !endsWith(".et.json") && !endsWith(".et.json.gz"))
                found.push_back(entry.path().string());
        }
        if (ec) throw LoadError(p, "cannot list folder: " + ec.message());
        if (found.empty()) throw LoadError(p, "folder contains no trace files (*.json, *.json.gz)");
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    if (files.empty()) throw LoadError("(no input)", "no trace files given");
    return files;
}

TraceSet loadTraceSet(const std::vector<std::string>& paths, const LoadOptions& options) {
    // Chakra execution traces (.et files or folders of them) load through their own reader.
    if (isChakraInput(paths)) return loadChakraTraceSet(paths, options);
    std::vector<std::string> files = expandTracePaths(paths);
    checkMemoryForLoad(files, paths.front(), memoryBudgetBytes(options.memoryLimitBytes));
    std::vector<std::int64_t> disk(files.size());
    std::int64_t total = 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
        disk[i] = std::max<std::int64_t>(fileSizeOnDisk(files[i]), 0);
        total += 2 * disk[i];
    }

    std::vector<Rank> ranks(files.size());
    std::vector<std::exception_ptr> errors(files.size());
    std::vector<std::atomic<std::int64_t>> done(files.size());
    std::atomic<std::int64_t> doneSum{0};
    std::atomic<bool> cancelled{false};
    std::mutex progressMutex;
    std::atomic<std::size_t> next{0};

    auto worker = [&] {
        for (;;) {
            std::size_t i = next.fetch_add(1);
            if (i >= files.size() || cancelled) return;
            LoadOptions fileOptions = options;
            if (options.progress) {
                fileOptions.progress = [&, i](std::int64_t d, std::int64_t) {
                    std::int64_t prev = done[i].exchange(d);
                    std::int64_t sum = doneSum.fetch_add(d - prev) + (d - prev);
                    std::lock_guard lock(progressMutex);
                    if (cancelled) return false;
                    if (!options.progress(sum, total)) {
                        cancelled = true;
                        return false;
                    }
                    return true;
                };
            }
            try {
                ranks[i] = loadKinetoFile(files[i], static_cast<int>(i), fileOptions);
            } catch (...) {
                errors[i] = std::current_exception();
                // Stop the others early, the set fails anyway (unless bad files are left out).
                if (options.progress && !options.skipBadFiles) cancelled = true;
            }
        }
    };
    unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    std::size_t threads = options.threads > 0 ? static_cast<std::size_t>(options.threads) : hw;
    threads = std::min(threads, files.size());
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& t : pool)
        t.join();
    std::vector<std::string> leftOut;
    if (options.skipBadFiles && !cancelled) {
        std::vector<Rank> good;
        for (std::size_t i = 0; i < files.size(); ++i) {
            if (!errors[i]) {
                good.push_back(std::move(ranks[i]));
                continue;
            }
            try {
                std::rethrow_exception(errors[i]);
            } catch (const std::exception& e) {
                leftOut.push_back(std::string(e.what()) + " (this file was left out)");
            }
        }
        if (!good.empty()) {
            ranks = std::move(good);
            std::fill(errors.begin(), errors.end(), nullptr);
        }
    }
    for (auto& e : errors)
        if (e && !cancelled) std::rethrow_exception(e);
    for (auto& e : errors) {
        if (!e) continue;
        try {
            std::rethrow_exception(e);
        } catch (const LoadCancelled&) {
        } catch (...) {
            throw; // a real error wins over the cancellation it caused
        }
    }
    if (cancelled) throw LoadCancelled();

    TraceSet set;
    set.ranks = std::move(ranks);
    finalizeTraceSet(set);
    set.warnings.insert(set.warnings.begin(), leftOut.begin(), leftOut.end());
    return set;
}

} // namespace sl
