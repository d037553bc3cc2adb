#include "io/KinetoLoader.h"

#include "io/ChunkScanner.h"
#include "io/EtFolder.h"
#include "io/FileReader.h"
#include "io/GzipIndex.h"
#include "io/KinetoFastScan.h"
#include "io/LoadError.h"
#include "io/NumberParse.h"
#include "io/RankFinalizer.h"
#include "io/chakra/ChakraTraceSet.h"
#include "platform/MemoryLimits.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <filesystem>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <thread>
#include <unordered_map>

#include <simdjson.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace sl {

namespace od = simdjson::ondemand;

using namespace detail;

namespace {

// Where a value starts in the buffer (for error offsets).
const char* rawTokenStart(od::value& v) {
    return v.raw_json_token().data();
}

// Rank numbers and group sizes beyond this are treated as absent (world sizes are far smaller).
constexpr std::int64_t kMaxRank = 1 << 24;
// Message sizes beyond this (elements) are treated as unknown: bytes = nelems x 8 must not overflow.
constexpr std::int64_t kMaxNelems = std::int64_t{1} << 50;
// Fewer bytes than a Kineto event takes ("ph", "cat", "name", "pid", "tid", "ts", "dur" and
// their values): a piece's tracks reserve room for its size over this many events (more grow).
constexpr std::size_t kSmallestEventBytes = 128;

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

// Thrown by a parser of one piece of a chunked load (docs/Loader.md, "Chunked parsing") when the
// piece holds something only the whole-file parse handles exactly ("B"/"E" pairs, which may span
// pieces, and numeric pid / tid values equal to the synthetic ids of the piece's string ones): the
// load is then parsed again in one piece.
struct ChunkAbort {};

class KinetoParser {
public:
    KinetoParser(const std::string& path, const TraceBuffer& buffer, Rank& rank, const LoadOptions& options,
                 const std::function<bool(std::int64_t)>& parseProgress)
        : path_(path), whole_(&buffer), data_(buffer.data()), size_(buffer.size()), rank_(rank),
          options_(options), progress_(parseProgress) {}

    // A parser of pieces (chunked load): no whole-file buffer.
    KinetoParser(const std::string& path, Rank& rank, const LoadOptions& options,
                 const std::function<bool(std::int64_t)>& parseProgress)
        : path_(path), whole_(nullptr), data_(nullptr), size_(0), rank_(rank), options_(options),
          progress_(parseProgress) {}

    // The whole file in one piece, with exact error messages and byte offsets.
    void parse();

    // Chunked parsing (docs/Loader.md). A piece parser: only events, state kept per piece.
    void setChunkMode() { chunkMode_ = true; }
    // Lazy args (docs/Loader.md): the text parsed is the file itself (see setFileBase), so an event
    // keeps the byte range of its args and only the fields analysis reads as text go to the arena
    // (keepField).
    void setLazyArgs() { lazyArgs_ = true; }
    // Where the text being parsed starts in the file: its byte i is the file's byte fileBase + i.
    void setFileBase(std::int64_t fileBase) { fileBase_ = fileBase; }
    // The events of "[" + piece + "]". Throws on anything that is not a clean array of events.
    void parseEventsPiece(od::parser& parser, simdjson::padded_string_view text);
    // The last piece, written as {"traceEvents":[ + rest of the file (object root) or [ + rest
    // (array root): parses the events and returns where the root's remainder starts in text (the
    // token after the events array's ']'), or text.size() when nothing follows.
    std::size_t parseLastPiece(od::parser& parser, simdjson::padded_string_view text, bool rootIsArray);
    // A whole root document of the file's head or tail (its events array emptied): top-level fields.
    void parseRootPiece(od::parser& parser, simdjson::padded_string_view text);
    // Appends a piece parsed after everything absorbed so far, as if this parser had read it.
    void absorb(KinetoParser& piece);
    void markTraceEvents() { sawTraceEvents_ = true; }
    std::int64_t fastEvents() const { return fastEvents_; } // read by the fast reader (LoadReport)
    // Warnings of the whole file and the model's columns (after parse() or the last absorb()).
    void finish();
    // Threads finish() may use for the per-track work (a chunked load's threads).
    void setFinishThreads(std::size_t threads) { finishThreads_ = threads; }

private:
    [[noreturn]] void fail(const std::string& what, const char* where = nullptr) const {
        std::int64_t offset = where ? static_cast<std::int64_t>(where - data_) : -1;
        throw LoadError(path_, what, offset);
    }
    void iterateRoot(od::parser& parser, simdjson::padded_string_view text, bool eventsOnly);

    void parseRoot(od::document& doc);
    void parseEvents(od::array events, od::document& doc);
    void parseEvent(od::object event, const char* where, od::document& doc);
    void parseArgs(od::object args, ArgsFields& out, const char* where);
    // Appends "key":value to keep_ (lazy args only). parseArgs calls it for the fields analysis reads
    // as text through Rank::args (models/KernelCost, graph/SmContention, io/EtLinker,
    // analysis/BenchmarkExport, the details panel's operator shapes): ops' "Input Dims",
    // "Input type", "Concrete Inputs", "Ev Idx", "Record function id"; copies' "bytes"; kernels'
    // "grid" and "blocks per SM". A consumer that needs another field adds it to argsKeyOf
    // (io/KinetoEventFields.cpp), which both readers use.
    void keepField(std::string_view key, od::value& v);
    void parseDeviceProperties(od::array devices);
    void parseDistributedInfo(od::object info);
    std::int64_t intValue(od::value v, const char* field, const char* where);
    std::int64_t idValue(od::value v, const char* field, const char* where);
    std::int64_t stringId(std::string_view s); // a pid / tid / id string: its number or synthetic id
    std::int64_t numericId(std::int64_t n);    // a numeric pid / tid
    std::int64_t resolveId(const IdToken& token);
    // An event read by either reader enters the model (where: its '{', for messages).
    void addEvent(const EventFields& f, const char* where);
    // Whether the fast reader may read text (padded enough, valid UTF-8).
    static bool fastReadable(simdjson::padded_string_view text);
    // The text from `from` (an event the fast reader does not take) to the end, as prefix + that
    // text, for On-Demand; fileBase_ moves so that file offsets stay those of the piece.
    simdjson::padded_string_view restOnDemand(std::string_view prefix, simdjson::padded_string_view text,
                                              const char* from);
    // The events the fast reader takes, into the model; returns the step it stopped at.
    FastEventReader::Step readFast(FastEventReader& reader);
    std::size_t parseLastPieceOnDemand(od::parser& parser, simdjson::padded_string_view text,
                                       bool rootIsArray);
    std::uint32_t trackFor(const TrackKey& key);
    // Collective metadata of an event's args (record_param_comms CPU op or NCCL kernel).
    CollectiveMeta collectiveMetaFrom(const ArgsFields& args);

    const std::string& path_;
    const TraceBuffer* whole_; // the file (parse()); pieces are passed to their functions
    const char* data_;         // the text being parsed, for byte offsets in messages
    std::size_t size_;
    Rank& rank_;
    const LoadOptions& options_;
    const std::function<bool(std::int64_t)>& progress_;

    std::unordered_map<TrackKey, std::uint32_t, TrackKeyHash> trackIndex_;
    TrackKey lastKey_{false, 0, 0};
    std::uint32_t lastTrack_ = 0xffffffffu;
    std::vector<RawSegments> rawByTrack_;  // each track's events, one segment per absorbed piece
    FlowSegments flows_ = FlowSegments(1); // this parser's own flow points go to the first
    std::unordered_map<std::string, std::int64_t> stringIds_; // non-numeric pid / tid values
    std::unordered_map<std::int64_t, std::string> processNames_;
    std::unordered_map<TrackKey, std::string, TrackKeyHash> threadNames_;
    std::unordered_map<TrackKey, std::vector<RawEvent>, TrackKeyHash> openBegins_;
    std::int64_t eventCount_ = 0;
    std::int64_t fastEvents_ = 0;
    std::size_t finishThreads_ = 1;
    bool sawTraceEvents_ = false;
    struct CategoryKind {
        std::string name;
        EventKind kind = EventKind::Other;
        bool known = false;
    };
    std::vector<CategoryKind> categories_; // the categories seen, classified (at most 32)
    // The event names interned last, one per slot of a hash of their length and ends: a trace
    // repeats a few hundred names, and a hit costs one comparison instead of hashing the name.
    struct CachedName {
        std::string_view text; // the table's copy (stable)
        StringId id = StringTable::kNone;
    };
    std::array<CachedName, 256> nameCache_{};
    StringId internName(std::string_view name);
    bool chunkMode_ = false;
    // A piece's first tracks reserve room for size_ / kSmallestEventBytes events each: a doubling
    // vector would copy itself into new pages as it grows, and room not written costs no memory.
    // The first few only, as a trace may have many threads.
    static constexpr std::size_t kTracksReserved = 4;
    std::int64_t largestLowId_ = std::numeric_limits<std::int64_t>::min();
    bool lazyArgs_ = false;
    std::int64_t fileBase_ = 0;
    std::string keep_; // the kept fields of the args being parsed, reused from event to event
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
    if (v.type() == od::json_type::string) return stringId(v.get_string());
    return numericId(intValue(v, field, where));
}

std::int64_t KinetoParser::stringId(std::string_view s) {
    std::int64_t n = 0;
    if (parseIntegerId(s, n) && n > -1000000) return n;
    auto [it, inserted] =
        stringIds_.try_emplace(std::string(s), -1000000 - static_cast<std::int64_t>(stringIds_.size()));
    return it->second;
}

std::int64_t KinetoParser::numericId(std::int64_t n) {
    // Numbers in the synthetic range (negative thread ids are common): absorb() must not take one
    // for a piece's own synthetic id; the largest is all it needs to know.
    if (chunkMode_ && n <= -1000000) largestLowId_ = std::max(largestLowId_, n);
    return n;
}

StringId KinetoParser::internName(std::string_view name) {
    std::uint64_t ends = name.size();
    if (name.size() >= 8) {
        std::uint64_t head = 0, tail = 0;
        std::memcpy(&head, name.data(), 8);
        std::memcpy(&tail, name.data() + name.size() - 8, 8);
        ends ^= head * 0x9e3779b97f4a7c15u ^ tail * 0xc2b2ae3d27d4eb4fu;
    } else if (!name.empty()) {
        std::uint64_t bytes = 0;
        std::memcpy(&bytes, name.data(), name.size());
        ends ^= bytes * 0x9e3779b97f4a7c15u;
    }
    CachedName& cached = nameCache_[(ends >> 56) ^ (ends >> 24 & 0xff)];
    if (cached.id != StringTable::kNone && cached.text == name) return cached.id;
    cached.id = rank_.strings.intern(name);
    cached.text = rank_.strings.str(cached.id);
    return cached.id;
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
        rawByTrack_.emplace_back(1); // one segment: this parser's own events
        if (chunkMode_ && rawByTrack_.size() <= kTracksReserved)
            rawByTrack_.back().back().reserve(size_ / kSmallestEventBytes);
    }
    lastKey_ = key;
    lastTrack_ = it->second;
    return it->second;
}

void KinetoParser::parseArgs(od::object args, ArgsFields& out, const char* where) {
    for (auto field : args) {
        std::string_view key = rawKey(field);
        od::value v = field.value();
        switch (argsKeyOf(key)) {
        case ArgsKey::Correlation:
            out.correlation = intValue(v, "correlation", where);
            break;
        case ArgsKey::CudaSyncKind:
            out.hasSync = true;
            if (v.type() == od::json_type::string) out.syncKind = v.get_string();
            break;
        case ArgsKey::Device:
            out.device = intValue(v, "device", where);
            break;
        case ArgsKey::Dtype:
            if (v.type() == od::json_type::string) out.dtype = v.get_string();
            break;
        case ArgsKey::Stream:
            out.stream = intValue(v, "stream", where);
            break;
        case ArgsKey::WaitOnStream:
            out.hasSync = true;
            out.waitOnStream = intValue(v, "wait_on_stream", where);
            break;
        case ArgsKey::WaitOnEventRecordCorrelation:
            out.hasSync = true;
            out.waitOnEventRecordCorrelation = intValue(v, "wait_on_cuda_event_record_corr_id", where);
            break;
        case ArgsKey::WaitOnCudaEventId:
            out.hasSync = true;
            out.waitOnCudaEventId = intValue(v, "wait_on_cuda_event_id", where);
            break;
        case ArgsKey::MetaName:
            if (v.type() == od::json_type::string) out.metaName = v.get_string();
            break;
        case ArgsKey::CollectiveName:
            if (v.type() == od::json_type::string) {
                out.hasCollective = true;
                out.collectiveName = v.get_string();
            }
            break;
        case ArgsKey::InMsgNelems:
            if (v.type() == od::json_type::number) out.inNelems = intValue(v, "In msg nelems", where);
            break;
        case ArgsKey::OutMsgNelems:
            if (v.type() == od::json_type::number) out.outNelems = intValue(v, "Out msg nelems", where);
            break;
        case ArgsKey::GroupSize:
            if (v.type() == od::json_type::number) out.groupSize = intValue(v, "Group size", where);
            break;
        case ArgsKey::ProcessGroupName:
            if (v.type() == od::json_type::string) out.processGroupName = v.get_string();
            break;
        case ArgsKey::ProcessGroupRanks:
            if (v.type() == od::json_type::string) out.processGroupRanks = v.get_string();
            break;
        case ArgsKey::Kept:
            keepField(key, v);
            break;
        case ArgsKey::Other:
            break;
        }
    }
}

void KinetoParser::keepField(std::string_view key, od::value& v) {
    if (!lazyArgs_) return;
    std::string_view text;
    od::json_type type;
    if (v.type().get(type)) return;
    if (type == od::json_type::array) {
        od::array a;
        if (v.get_array().get(a) || a.raw_json().get(text)) return;
    } else if (type == od::json_type::object) {
        od::object o;
        if (v.get_object().get(o) || o.raw_json().get(text)) return;
    } else {
        text = v.raw_json_token();
    }
    if (!keep_.empty()) keep_ += ',';
    keep_ += '"';
    keep_ += key;
    keep_ += "\":";
    keep_ += trimToken(text); // raw_json() runs up to the next token
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
    // Views into simdjson's string buffer: valid until the parser reads the next document.
    EventFields f;
    for (auto field : event) {
        std::string_view key = rawKey(field);
        od::value v = field.value();
        if (key == "ph") {
            std::string_view s;
            if (v.get_string().get(s) || s.empty())
                fail("event has a \"ph\" that is not a non-empty string", where);
            f.ph = s[0];
        } else if (key == "name") {
            if (v.type() != od::json_type::string) fail("event has a \"name\" that is not a string", where);
            f.name = v.get_string();
            f.hasName = true;
        } else if (key == "cat") {
            if (v.type() != od::json_type::string) fail("event has a \"cat\" that is not a string", where);
            f.cat = v.get_string();
        } else if (key == "ts" || key == "dur") {
            if (v.type() != od::json_type::number)
                fail(std::string("event has a \"") + std::string(key) + "\" that is not a number", where);
            TimeNs value = 0;
            if (!parseMicrosecondsToNs(trimToken(v.raw_json_token()), value))
                fail(std::string("event has an out-of-range \"") + std::string(key) + "\"", where);
            if (key == "ts") {
                if (value > kMaxAbsStartNs || value < -kMaxAbsStartNs)
                    fail("event has an out-of-range \"ts\" (more than 4e15 us from 0)", where);
                f.ts = value;
                f.hasTs = true;
            } else {
                if (value < 0) fail("event has a negative \"dur\"", where);
                if (value > kMaxDurationNs)
                    fail("event has an out-of-range \"dur\" (more than 1e12 us, about 11.6 days)", where);
                f.dur = value;
                f.hasDur = true;
            }
        } else if (key == "pid") {
            f.pid = idValue(v, "pid", where);
            f.hasPid = true;
        } else if (key == "tid") {
            f.tid = idValue(v, "tid", where);
            f.hasTid = true;
        } else if (key == "id") {
            if (v.type() == od::json_type::number)
                f.flowId = intValue(v, "id", where);
            else if (v.type() == od::json_type::string)
                f.flowId = idValue(v, "id", where);
        } else if (key == "args") {
            if (v.type() != od::json_type::object) continue; // tolerate odd args, keep the event
            const char* begin = trimToken(v.raw_json_token()).data();
            keep_.clear();
            parseArgs(v.get_object(), f.args, where);
            const char* end = doc.current_location().value_unsafe();
            if (end && end > begin) {
                std::string_view raw(begin, static_cast<std::size_t>(end - begin));
                while (!raw.empty() && raw.back() != '}')
                    raw.remove_suffix(1);
                f.argsText = raw.data();
                f.argsSize = static_cast<std::uint32_t>(raw.size());
                f.kept = keep_;
            }
        }
    }
    addEvent(f, where);
}

// An id of the fast reader as idValue / intValue give it (the same synthetic ids, in the same order).
std::int64_t KinetoParser::resolveId(const IdToken& token) {
    if (token.isString) return stringId(token.text);
    return token.slot == IdToken::FlowId ? token.number : numericId(token.number);
}

void KinetoParser::addEvent(const EventFields& f, const char* where) {
    const char ph = f.ph;
    const std::string_view name = f.name, cat = f.cat;
    const bool hasName = f.hasName, hasTs = f.hasTs, hasDur = f.hasDur, hasPid = f.hasPid, hasTid = f.hasTid;
    const std::int64_t pid = f.pid, tid = f.tid, flowId = f.flowId;
    const TimeNs ts = f.ts;
    TimeNs dur = f.dur;
    const ArgsFields& args = f.args;
    std::uint64_t argsOffset = 0, fileOffset = 0;
    std::uint32_t argsLength = 0, fileLength = 0;
    if (f.argsText) {
        if (!lazyArgs_) {
            argsOffset = rank_.argsArena.size();
            argsLength = f.argsSize;
            rank_.argsArena.append(f.argsText, f.argsSize);
        } else {
            // The whole object stays in the file; the fields analysis reads come here.
            fileOffset = static_cast<std::uint64_t>(fileBase_ + (f.argsText - data_));
            fileLength = f.argsSize;
            if (!f.kept.empty()) {
                argsOffset = rank_.argsArena.size();
                argsLength = static_cast<std::uint32_t>(f.kept.size() + 2);
                rank_.argsArena += '{';
                rank_.argsArena += f.kept;
                rank_.argsArena += '}';
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
            flows_.front().push_back({pid, tid, ts, flowId});
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
        // A trace has a handful of categories, interleaved (cpu_op, cuda_runtime, kernel, ...):
        // each is classified once and found again by a short linear search.
        const CategoryKind* hit = nullptr;
        for (const CategoryKind& c : categories_)
            if (c.name == cat) {
                hit = &c;
                break;
            }
        if (!hit) {
            CategoryKind c;
            c.name.assign(cat);
            c.kind = eventKindFromCategory(cat, &c.known);
            if (categories_.size() >= 32) categories_.erase(categories_.begin()); // not a Kineto trace
            categories_.push_back(std::move(c));
            hit = &categories_.back();
        }
        kind = hit->kind;
        known = hit->known;
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
        if (chunkMode_) throw ChunkAbort{}; // a pair may span two pieces
        auto& open = openBegins_[key];
        if (ph == 'B') {
            open.push_back({ts, 0, internName(name), kind, args.correlation, argsOffset, argsLength, kNoExtra,
                            fileOffset, fileLength});
            return;
        }
        if (open.empty()) {
            ++rank_.skippedEvents;
            return;
        }
        RawEvent begin = open.back();
        open.pop_back();
        begin.duration = std::max<TimeNs>(0, ts - begin.start);
        rawByTrack_[trackIdx].back().push_back(begin);
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

    rawByTrack_[trackIdx].back().push_back({ts, dur, internName(name), kind, args.correlation, argsOffset,
                                            argsLength, extra, fileOffset, fileLength});
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
            if (!progress_(static_cast<std::int64_t>(where - data_))) throw LoadCancelled();
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
    if (doc.type().get(rootType)) fail("not JSON (does not start with an object or array)", data_);
    if (rootType == od::json_type::array) { // the plain Chrome "array of events" form
        parseEvents(doc.get_array(), doc);
        return;
    }
    if (rootType != od::json_type::object) fail("not a trace: the top level is not a JSON object", data_);
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
    const char* data = data_;
    const std::size_t size = size_;
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
    rank_.argsArena.reserve(size);
    od::parser parser;
    // simdjson's document is only valid while the parser lives; all values are copied out.
    try {
        od::document doc = parser.iterate(whole_->view(skip));
        try {
            parseRoot(doc);
            // Ensure nothing but white space follows the root value (catches concatenated garbage).
            const char* loc = nullptr;
            if (!doc.current_location().get(loc) && loc && loc < data + size)
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
    finish();
}

void KinetoParser::finish() {
    if (eventCount_ == 0 && rank_.tracks.empty()) {
        // A trace with no events at all is valid but useless; say so rather than show nothing.
        rank_.warnings.push_back(path_ + ": no events in traceEvents");
    }
    for (auto& [key, open] : openBegins_)
        if (!open.empty())
            rank_.warnings.push_back(std::to_string(open.size()) + " \"B\" events without an \"E\"");

    finalizeRank(rank_, {rawByTrack_, flows_, processNames_, threadNames_}, finishThreads_);
}

// Pieces of a chunked load: any simdjson error propagates (the caller then parses the whole file,
// which words the error); data_ / size_ point at the piece.
void KinetoParser::iterateRoot(od::parser& parser, simdjson::padded_string_view text, bool eventsOnly) {
    data_ = text.data();
    size_ = text.size();
    od::document doc = parser.iterate(text);
    if (eventsOnly)
        parseEvents(doc.get_array(), doc);
    else
        parseRoot(doc);
    const char* loc = nullptr;
    if (!doc.current_location().get(loc) && loc && loc < data_ + size_)
        fail("unexpected content after the end of the JSON document", loc);
}

void KinetoParser::parseEventsPiece(od::parser& parser, simdjson::padded_string_view text) {
    data_ = text.data();
    size_ = text.size();
    if (!fastReadable(text)) {
        iterateRoot(parser, text, true);
        return;
    }
    sawTraceEvents_ = true;
    FastEventReader reader(text, lazyArgs_);
    switch (readFast(reader)) {
    case FastEventReader::Step::End:
        return;
    case FastEventReader::Step::Unhandled:
        iterateRoot(parser, restOnDemand("[", text, reader.resumeAt()), true);
        return;
    default:
        fail("a piece of the events array is not a list of objects", reader.resumeAt());
    }
}

FastEventReader::Step KinetoParser::readFast(FastEventReader& reader) {
    ScannedEvent event;
    std::int64_t counter = 0;
    for (;;) {
        const FastEventReader::Step step = reader.next(event);
        if (step != FastEventReader::Step::Event) return step;
        EventFields& f = event.fields;
        for (std::uint8_t i = 0; i < event.idCount; ++i) {
            const IdToken& token = event.ids[i];
            const std::int64_t id = resolveId(token);
            (token.slot == IdToken::Pid ? f.pid : token.slot == IdToken::Tid ? f.tid : f.flowId) = id;
        }
        f.kept = reader.kept();
        addEvent(f, event.where);
        ++fastEvents_;
        if ((++counter & 0x3fff) == 0 && progress_) {
            if (!progress_(static_cast<std::int64_t>(event.where - data_))) throw LoadCancelled();
        }
    }
}

bool KinetoParser::fastReadable(simdjson::padded_string_view text) {
    // Invalid UTF-8 anywhere fails On-Demand's first stage: such a piece goes to it whole.
    return text.padding() >= kFastReadPadding && simdjson::validate_utf8(text.data(), text.size());
}

simdjson::padded_string_view KinetoParser::restOnDemand(std::string_view prefix,
                                                        simdjson::padded_string_view text, const char* from) {
    thread_local std::string rest;
    const auto skipped = static_cast<std::size_t>(from - text.data());
    rest.assign(prefix);
    rest.append(from, text.size() - skipped);
    const std::size_t length = rest.size();
    rest.resize(length + simdjson::SIMDJSON_PADDING, '\0');
    fileBase_ += static_cast<std::int64_t>(skipped) - static_cast<std::int64_t>(prefix.size());
    return simdjson::padded_string_view(rest.data(), length, rest.size());
}

void KinetoParser::parseRootPiece(od::parser& parser, simdjson::padded_string_view text) {
    iterateRoot(parser, text, false);
}

std::size_t KinetoParser::parseLastPiece(od::parser& parser, simdjson::padded_string_view text,
                                         bool rootIsArray) {
    data_ = text.data();
    size_ = text.size();
    // The events by the fast reader (docs/Loader.md, "Fast reader"), from the array's '['.
    const std::string_view prefix = rootIsArray ? "[" : "{\"traceEvents\":[";
    if (std::string_view(text).substr(0, prefix.size()) != prefix || !fastReadable(text))
        return parseLastPieceOnDemand(parser, text, rootIsArray);
    sawTraceEvents_ = true;
    const std::size_t arrayAt = prefix.size() - 1;
    FastEventReader reader(std::string_view(text.data() + arrayAt, text.size() - arrayAt), lazyArgs_, true);
    switch (readFast(reader)) {
    case FastEventReader::Step::End: {
        // Where the root's remainder starts: the token after the ']' (as On-Demand's location).
        const std::size_t tail = std::string_view(text).find_first_not_of(
            " \n\r\t", static_cast<std::size_t>(reader.arrayEnd() - data_));
        return tail == std::string_view::npos ? text.size() : tail;
    }
    case FastEventReader::Step::Unhandled: {
        // The rest from that event, read by On-Demand as prefix + rest (offsets mapped back).
        const std::int64_t fileBaseBefore = fileBase_;
        const simdjson::padded_string_view rest = restOnDemand(prefix, text, reader.resumeAt());
        const std::size_t tail = parseLastPieceOnDemand(parser, rest, rootIsArray);
        return tail >= rest.size()
                   ? text.size()
                   : static_cast<std::size_t>(static_cast<std::int64_t>(tail) + fileBase_ - fileBaseBefore);
    }
    default:
        fail("the events array is not a list of objects", reader.resumeAt());
    }
}

std::size_t KinetoParser::parseLastPieceOnDemand(od::parser& parser, simdjson::padded_string_view text,
                                                 bool rootIsArray) {
    data_ = text.data();
    size_ = text.size();
    od::document doc = parser.iterate(text);
    if (rootIsArray) {
        parseEvents(doc.get_array(), doc);
    } else {
        // The piece's first field is the events array (written so by the caller); the rest of the
        // root object is the file's tail, parsed separately by parseRootPiece().
        for (auto field : doc.get_object()) {
            parseEvents(field.value().get_array(), doc);
            break;
        }
    }
    const char* loc = nullptr;
    if (doc.current_location().get(loc) || !loc || loc >= data_ + size_) return text.size();
    return static_cast<std::size_t>(loc - data_);
}

void KinetoParser::absorb(KinetoParser& piece) {
    Rank& from = piece.rank_;
    // Synthetic ids of string pid / tid values, numbered in order of first appearance as the
    // whole-file parse numbers them: the piece's own numbering is mapped onto this parser's. A piece
    // that also holds a number equal to one of its synthetic ids is ambiguous: parse the whole file.
    std::vector<std::int64_t> idMap(piece.stringIds_.size());
    if (piece.largestLowId_ > -1000000 - static_cast<std::int64_t>(idMap.size())) throw ChunkAbort{};
    {
        std::vector<const std::string*> byLocal(piece.stringIds_.size());
        for (const auto& [text, id] : piece.stringIds_)
            byLocal[static_cast<std::size_t>(-1000000 - id)] = &text;
        for (std::size_t i = 0; i < byLocal.size(); ++i)
            idMap[i] =
                stringIds_.try_emplace(*byLocal[i], -1000000 - static_cast<std::int64_t>(stringIds_.size()))
                    .first->second;
    }
    auto remap = [&](std::int64_t id) {
        if (id > -1000000) return id;
        auto local = static_cast<std::size_t>(-1000000 - id);
        return local < idMap.size() ? idMap[local] : id;
    };
    // Interned strings: a piece's table lists its strings in order of first use, so interning them
    // piece by piece gives the ids the whole-file parse gives.
    std::vector<StringId> names(from.strings.size());
    for (std::size_t i = 0; i < names.size(); ++i)
        names[i] = rank_.strings.intern(from.strings.str(static_cast<StringId>(i)));
    auto name = [&](StringId id) { return id < names.size() ? names[id] : id; };

    const std::uint64_t argsBase = rank_.argsArena.size();
    rank_.argsArena.append(from.argsArena);
    std::string().swap(from.argsArena);
    const auto collectivesBase = static_cast<std::uint32_t>(rank_.collectives.size());
    const auto syncsBase = static_cast<std::uint32_t>(rank_.syncs.size());
    const auto commCallsBase = static_cast<std::uint32_t>(rank_.commCalls.size());
    for (auto& meta : from.collectives) {
        meta.dtype = name(meta.dtype);
        meta.processGroupName = name(meta.processGroupName);
        rank_.collectives.push_back(std::move(meta));
    }
    for (auto& meta : from.syncs) {
        meta.syncKind = name(meta.syncKind);
        rank_.syncs.push_back(meta);
    }
    for (auto& meta : from.commCalls) {
        meta.dtype = name(meta.dtype);
        meta.processGroupName = name(meta.processGroupName);
        rank_.commCalls.push_back(std::move(meta));
    }
    // Tracks in order of first appearance, as trackFor() creates them.
    for (std::size_t t = 0; t < from.tracks.size(); ++t) {
        const Track& track = from.tracks[t];
        std::uint32_t into = trackFor({track.isGpu(), remap(track.pid), remap(track.tid)});
        // The piece's events go straight into the columns (renumbered in place first): the raw
        // events of the whole file never exist at once (docs/Loader.md, "Memory"). finish() sorts.
        for (auto& segment : piece.rawByTrack_[t]) {
            for (RawEvent& e : segment) {
                e.name = name(e.name);
                if (e.argsLength > 0) e.argsOffset += argsBase;
                if (e.extra != kNoExtra)
                    e.extra += e.kind == EventKind::Kernel     ? collectivesBase
                               : e.kind == EventKind::CudaSync ? syncsBase
                                                               : commCallsBase;
            }
            appendRawEvents(rank_.tracks[into].events, segment, lazyArgs_);
        }
        RawSegments().swap(piece.rawByTrack_[t]);
    }
    for (auto& segment : piece.flows_) {
        for (FlowPoint& f : segment) {
            f.pid = remap(f.pid);
            f.tid = remap(f.tid);
        }
        if (!segment.empty()) flows_.push_back(std::move(segment));
    }
    for (auto& [pid, text] : piece.processNames_)
        processNames_[remap(pid)] = std::move(text);
    for (auto& [key, text] : piece.threadNames_)
        threadNames_[{key.gpu, remap(key.a), remap(key.b)}] = std::move(text);
    rank_.skippedEvents += from.skippedEvents;
    for (std::size_t k = 0; k < from.eventsByKind.size(); ++k)
        rank_.eventsByKind[k] += from.eventsByKind[k];
    for (const auto& [category, count] : from.unknownCategories)
        rank_.unknownCategories[category] += count;
    for (const auto& [category, count] : from.flowsByCategory)
        rank_.flowsByCategory[category] += count;
    eventCount_ += piece.eventCount_;
    fastEvents_ += piece.fastEvents_;
    if (eventCount_ > options_.maxEventsPerFile)
        fail("more than " + std::to_string(options_.maxEventsPerFile) +
             " events in one file (the documented maximum); split the trace or profile fewer steps");
}

// A file's args are read back from it on demand (docs/Loader.md, "Lazy args"): a plain file with
// pread, a gzip file through its inflate checkpoints; null for bytes in memory.
using LazyArgs = std::shared_ptr<const LazyArgsFile>;

// tryPieces: parse in pieces when the file is large enough (false when that was tried already).
// lazy: buffer holds the contents of the file at lazy->path() as it is on disk.
Rank loadKinetoBuffer(const std::string& path, const TraceBuffer& buffer, std::int64_t disk, int loadOrder,
                      const LoadOptions& options, bool tryPieces = true, const LazyArgs& lazy = nullptr);

// A rank before parsing, and after: the rank number from the file name unless the file said it.
Rank newRank(const std::string& path, std::int64_t bytes, int loadOrder) {
    Rank rank;
    rank.sourcePath = path;
    rank.fileBytes = bytes;
    rank.rank = loadOrder;
    return rank;
}
void settleRank(Rank& rank, const std::string& path, std::int64_t disk, const LoadOptions& options) {
    if (!rank.rankFromFile) {
        int fromName = rankFromFileName(path);
        if (fromName >= 0) rank.rank = fromName;
    }
    if (options.progress && !options.progress(2 * disk, 2 * disk)) throw LoadCancelled();
}

// Chunked parsing (docs/Loader.md, "Chunked parsing").
// Reads bytes [offset, offset + len) of the uncompressed file into dst.
using ReadAt = std::function<void(std::int64_t offset, std::size_t len, char* dst)>;

// simdjson's index for a piece is about 4 bytes per byte: smaller pieces, less memory per thread.
constexpr std::int64_t kDefaultPieceBytes = 2 << 20;
constexpr std::size_t kHeadBytes = 1 << 20; // the events array must start within this
constexpr std::size_t kCutWindow = 1 << 16; // searched for an event start at each cut
constexpr std::size_t kCutProbe = 1 << 12;  // read first, as it usually holds one

// prefix + file[offset, offset + len) + suffix, followed by simdjson's padding, in buf (reused
// from piece to piece, so its pages are touched once).
simdjson::padded_string_view makePiece(std::string& buf, std::string_view prefix, const ReadAt& read,
                                       std::int64_t offset, std::size_t len, std::string_view suffix) {
    const std::size_t n = prefix.size() + len + suffix.size();
    if (buf.size() < n + simdjson::SIMDJSON_PADDING) buf.resize(n + simdjson::SIMDJSON_PADDING);
    std::memcpy(buf.data(), prefix.data(), prefix.size());
    if (len > 0) read(offset, len, buf.data() + prefix.size());
    std::memcpy(buf.data() + prefix.size() + len, suffix.data(), suffix.size());
    std::memset(buf.data() + n, 0, simdjson::SIMDJSON_PADDING);
    return simdjson::padded_string_view(buf.data(), n, n + simdjson::SIMDJSON_PADDING);
}

// Where the pieces start and end in the file.
struct PiecePlan {
    bool rootIsArray = false;
    std::int64_t headEnd = 0; // just past the events array's '['
    std::int64_t skip = 0;    // byte order mark
    std::vector<std::int64_t> starts, ends;
};

// The events array in the file's head (its first kHeadBytes): fills rootIsArray, skip and headEnd;
// false for a head the whole-file parse must see (UTF-16, binary, no events array found).
bool planHead(std::string_view head, PiecePlan& plan) {
    if (head.size() < 3) return false;
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(head[i]); };
    if (byte(0) == 0xef && byte(1) == 0xbb && byte(2) == 0xbf) plan.skip = 3;
    // UTF-16 and binary files: the whole-file parse says what they are.
    if (byte(0) == 0 || byte(1) == 0 || byte(0) == 0xff || byte(0) == 0xfe) return false;
    chunk::EventsArray events = chunk::findEventsArray(head.substr(static_cast<std::size_t>(plan.skip)));
    if (events.open == chunk::kNotFound) return false;
    plan.rootIsArray = events.rootIsArray;
    plan.headEnd = plan.skip + static_cast<std::int64_t>(events.open) + 1;
    return true;
}

std::optional<PiecePlan> planPieces(std::int64_t size, const ReadAt& read, std::int64_t pieceBytes) {
    if (size < 2 * pieceBytes) return std::nullopt;
    std::string head(static_cast<std::size_t>(std::min<std::int64_t>(size, kHeadBytes)), '\0');
    read(0, head.size(), head.data());
    PiecePlan plan;
    if (!planHead(head, plan)) return std::nullopt;
    plan.starts.push_back(plan.headEnd);
    const std::int64_t span = size - plan.headEnd;
    const std::int64_t count = span / pieceBytes;
    std::string window;
    for (std::int64_t k = 1; k < count; ++k) {
        // Never before the previous cut (its search may have run past this one's place).
        const std::int64_t at = std::max(plan.headEnd + span / count * k, plan.starts.back() + 1);
        if (at >= size) break;
        // The first few KB settle most cuts. Their answer is the whole window's when they hold a
        // newline (both scans start after it) and an event start (the scan stops at the first).
        window.resize(static_cast<std::size_t>(std::min<std::int64_t>(kCutProbe, size - at)));
        read(at, window.size(), window.data());
        std::size_t open = chunk::findEventStart(window);
        if (open == chunk::kNotFound || window.find('\n') == std::string::npos) {
            window.resize(static_cast<std::size_t>(std::min<std::int64_t>(kCutWindow, size - at)));
            read(at, window.size(), window.data());
            open = chunk::findEventStart(window);
        }
        if (open == chunk::kNotFound) continue; // one piece fewer
        plan.ends.push_back(at + static_cast<std::int64_t>(window.rfind(',', open)));
        plan.starts.push_back(at + static_cast<std::int64_t>(open));
    }
    plan.ends.push_back(size); // the last piece runs to the end of the file
    if (plan.starts.size() < 2) return std::nullopt;
    return plan;
}

// The root's fields before the events array (the array emptied), into the merging parser.
void parseHead(KinetoParser& whole, od::parser& parser, std::string& buf, const PiecePlan& plan,
               const ReadAt& read) {
    if (plan.rootIsArray)
        whole.markTraceEvents();
    else
        whole.parseRootPiece(parser, makePiece(buf, "", read, plan.skip,
                                               static_cast<std::size_t>(plan.headEnd - plan.skip), "]}"));
}

// Threads a load uses: options.threads, or one per core.
std::size_t loadThreads(const LoadOptions& options) {
    return options.threads > 0 ? static_cast<std::size_t>(options.threads)
                               : std::max(1u, std::thread::hardware_concurrency());
}

// Runs merge (parses the pieces and merges them into whole, returns how many there were), then
// finishes the model; nothing when anything but a cancellation failed (the caller then parses the
// whole file, which words the error).
std::optional<Rank> finishChunkedLoad(Rank& rank, KinetoParser& whole, const std::string& path,
                                      std::int64_t disk, const LoadOptions& options,
                                      const std::function<std::size_t()>& merge) {
    std::size_t pieces = 0;
    try {
        pieces = merge();
#if defined(__GLIBC__)
        // The merged pieces' memory stayed in the malloc arenas of the threads that parsed them,
        // for the next pieces (no page faults on it again); the model's finish, the load's peak,
        // goes without it.
        malloc_trim(0);
#endif
        whole.setFinishThreads(loadThreads(options));
        whole.finish();
#if defined(__GLIBC__)
        // The finish's own buffers (sort orders, the launch index) went back to malloc, which keeps
        // them; give them back to the system.
        malloc_trim(0);
#endif
    } catch (const LoadCancelled&) {
        throw;
    } catch (...) {
        if (options.report) options.report->reparsed = true;
        return std::nullopt;
    }
    if (options.report) {
        options.report->pieces = static_cast<int>(pieces);
        options.report->fastEvents = whole.fastEvents();
    }
    settleRank(rank, path, disk, options);
    return std::move(rank);
}

// The worker threads of a chunked load: when the load ends, however it ends, stop is set (under
// mutex, where the workers wait on wake) and they are joined.
class WorkerThreads {
public:
    WorkerThreads(std::atomic<bool>& stop, std::mutex& mutex, std::condition_variable& wake)
        : stop_(stop), mutex_(mutex), wake_(wake) {}
    WorkerThreads(const WorkerThreads&) = delete;
    WorkerThreads& operator=(const WorkerThreads&) = delete;
    void start(std::size_t count, const std::function<void()>& work) {
        for (std::size_t t = 0; t < count; ++t)
            pool_.emplace_back(work);
    }
    ~WorkerThreads() { stop(); }
    // Stops and joins the workers now (their parsers' memory goes before the model is finished).
    void stop() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (auto& t : pool_)
            t.join();
        pool_.clear();
    }

private:
    std::atomic<bool>& stop_;
    std::mutex& mutex_;
    std::condition_variable& wake_;
    std::vector<std::thread> pool_;
};

// The args text and the columns grow with the file. After each merged piece, those about to run
// out of room get room for their share of the whole file, projected from the part merged so far
// (scale: the file's size over the bytes merged). A doubling vector would copy itself over and
// over (the tracks first seen after the first piece did), and the copies' pages stay resident in
// malloc's heap; room reserved and not written costs nothing.
void reserveForFile(Rank& rank, double scale, bool lazy) {
    scale *= 1.05;
    std::size_t projected = 0;
    // Less room left than a sixteenth of the projection: several pieces' worth.
    auto shortOfRoom = [&](std::size_t size, std::size_t capacity) {
        projected = static_cast<std::size_t>(static_cast<double>(size) * scale);
        return capacity < projected && capacity - size < projected / 16;
    };
    if (shortOfRoom(rank.argsArena.size(), rank.argsArena.capacity())) rank.argsArena.reserve(projected);
    for (auto& track : rank.tracks) {
        EventColumns& ev = track.events;
        if (!shortOfRoom(ev.size(), ev.start.capacity())) continue;
        ev.reserve(projected);
        if (lazy) {
            ev.argsFileOffset.reserve(projected);
            ev.argsFileLength.reserve(projected);
        }
    }
}

// Parses the file in pieces on options.threads threads; the caller parses the whole file when
// this returns nothing (a piece that does not parse, a file too small to cut, or a file whose
// head is not a plain Kineto object). Throws only LoadCancelled.
// lazy: read() reads the plain file at lazy->path().
std::optional<Rank> loadInPieces(const std::string& path, std::int64_t size, const ReadAt& read,
                                 std::int64_t disk, int loadOrder, const LoadOptions& options,
                                 const LazyArgs& lazy) {
    const std::int64_t pieceBytes = options.chunkBytes > 0 ? options.chunkBytes : kDefaultPieceBytes;
    std::optional<PiecePlan> planned;
    try {
        planned = planPieces(size, read, pieceBytes);
    } catch (const LoadError&) {
        return std::nullopt; // a read error: the whole-file read reports it
    }
    if (!planned) return std::nullopt;
    const PiecePlan& plan = *planned;
    const std::size_t pieces = plan.starts.size();

    struct Piece {
        Rank rank;
        std::unique_ptr<KinetoParser> parser;
        std::exception_ptr error;
        std::int64_t tailAt = 0; // last piece: where the root's remainder starts in the file
    };
    std::vector<std::unique_ptr<Piece>> done(pieces);
    constexpr std::size_t kMaxJoined = 4; // a piece that does not parse is joined with at most this many
    std::mutex mutex;
    std::condition_variable ready;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    const std::function<bool(std::int64_t)> keepGoing = [&](std::int64_t) { return !stop.load(); };
    const std::string_view lastPrefix = plan.rootIsArray ? "[" : "{\"traceEvents\":[";

    // Parses pieces first..last as one piece (last > first when a cut between them was wrong).
    auto parseRange = [&](od::parser& parser, std::string& buf, std::size_t first, std::size_t last) {
        auto piece = std::make_unique<Piece>();
        try {
            piece->parser = std::make_unique<KinetoParser>(path, piece->rank, options, keepGoing);
            piece->parser->setChunkMode();
            if (lazy) piece->parser->setLazyArgs();
            const auto len = static_cast<std::size_t>(plan.ends[last] - plan.starts[first]);
            if (last + 1 < pieces) {
                piece->parser->setFileBase(plan.starts[first] - 1); // after the "[" put in front
                piece->parser->parseEventsPiece(parser,
                                                makePiece(buf, "[", read, plan.starts[first], len, "]"));
            } else {
                piece->parser->setFileBase(plan.starts[first] - static_cast<std::int64_t>(lastPrefix.size()));
                auto text = makePiece(buf, lastPrefix, read, plan.starts[first], len, "");
                std::size_t tail = piece->parser->parseLastPiece(parser, text, plan.rootIsArray);
                piece->tailAt = plan.starts[first] + static_cast<std::int64_t>(tail) -
                                static_cast<std::int64_t>(lastPrefix.size());
            }
        } catch (...) {
            piece->error = std::current_exception();
        }
        return piece;
    };
    // Parsed pieces wait for the merge in file order: a worker does not run further ahead of it
    // than this, so that a slow merge does not pile up parsed pieces (docs/Loader.md, "Memory").
    std::size_t merged = 0; // pieces absorbed so far (under mutex)
    std::size_t ahead = 1;  // set below: the threads' pieces plus those a rejoin takes
    std::condition_variable room;
    auto worker = [&] {
        od::parser parser;
        std::string buf;
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= pieces || stop) return;
            {
                std::unique_lock lock(mutex);
                room.wait(lock, [&] { return stop || i < merged + ahead; });
            }
            if (stop) return;
            auto piece = parseRange(parser, buf, i, i);
            {
                std::lock_guard lock(mutex);
                done[i] = std::move(piece);
            }
            ready.notify_all();
        }
    };
    const std::size_t threads = std::min(loadThreads(options), pieces);
    ahead = threads + kMaxJoined;
    WorkerThreads pool(stop, mutex, room);
    pool.start(threads, worker);

    Rank rank = newRank(path, size, loadOrder);
    rank.argsFile = lazy;
    KinetoParser whole(path, rank, options, keepGoing);
    if (lazy) whole.setLazyArgs();
    return finishChunkedLoad(rank, whole, path, disk, options, [&] {
        od::parser parser;
        std::string buf;
        parseHead(whole, parser, buf, plan, read);
        // The pieces in file order, each merged (and freed) as soon as it and those before are done.
        // A piece starts where the one before it ended, after that one parsed: its start is a real
        // event boundary. When it does not parse, its end (the next cut) may be wrong: it is parsed
        // again together with the next piece, a few times at most, before the whole file is.
        auto take = [&](std::size_t i) {
            std::unique_lock lock(mutex);
            ready.wait(lock, [&] { return done[i] != nullptr; });
            return std::move(done[i]);
        };
        auto onlyBadCut = [](const std::exception_ptr& error) {
            try {
                std::rethrow_exception(error);
            } catch (const ChunkAbort&) {
                return false;
            } catch (const LoadCancelled&) {
                return false;
            } catch (...) {
                return true;
            }
        };
        std::int64_t tailAt = size;
        for (std::size_t i = 0; i < pieces;) {
            std::unique_ptr<Piece> piece = take(i);
            std::size_t last = i;
            while (piece->error && onlyBadCut(piece->error) && last + 1 < pieces && last - i < kMaxJoined) {
                take(++last); // parsed from a wrong start: not used
                piece = parseRange(parser, buf, i, last);
                if (options.report) ++options.report->rejoined;
            }
            if (piece->error) std::rethrow_exception(piece->error);
            whole.absorb(*piece->parser);
            reserveForFile(rank,
                           static_cast<double>(size) / static_cast<double>(plan.ends[last] - plan.starts[0]),
                           lazy != nullptr);
            if (last + 1 == pieces) tailAt = piece->tailAt;
            piece.reset(); // before the workers go on: the next pieces reuse its memory
            if (options.progress &&
                !options.progress(static_cast<std::int64_t>(2.0 * static_cast<double>(disk) *
                                                            static_cast<double>(plan.ends[last]) /
                                                            static_cast<double>(size)),
                                  2 * disk))
                throw LoadCancelled();
            i = last + 1;
            {
                std::lock_guard lock(mutex);
                merged = i;
            }
            room.notify_all();
        }
        // The root's fields after the events array.
        whole.parseRootPiece(parser, makePiece(buf, plan.rootIsArray ? "[]" : "{\"traceEvents\":[]", read,
                                               tailAt, static_cast<std::size_t>(size - tailAt), ""));
        pool.stop(); // the workers' parsers and buffers go before the model is finished
        return pieces;
    });
}

// A gzip file parsed in pieces as it is inflated (docs/Loader.md, "Gzip"): a producer thread
// inflates blocks (GzipBlocks), this thread cuts them into pieces at event starts as they arrive,
// workers parse the pieces, and this thread merges them in file order. Only the pieces in flight
// are in memory, never the inflated file. Returns nothing when the whole file must be parsed
// instead (a head that is not a plain Kineto object, a piece that does not parse, corrupt gzip:
// the whole-file parse words every error), with *small set when the file turned out smaller than
// two pieces (its inflated bytes, to parse whole without inflating again) and then *lazy to read
// its args back through the inflate checkpoints. Throws only LoadCancelled.
std::optional<Rank> loadGzipInPieces(const std::string& path, std::int64_t disk, int loadOrder,
                                     const LoadOptions& options, std::int64_t maxBytes,
                                     std::optional<TraceBuffer>& small, LazyArgs& lazy) {
    const std::int64_t pieceBytes = options.chunkBytes > 0 ? options.chunkBytes : kDefaultPieceBytes;
    std::atomic<bool> stop{false};
    GzipBlocks in;
    // Progress counts compressed bytes read; parsing follows a few pieces behind.
    ByteProgressFn readProgress = [&](std::int64_t done) {
        return !stop && (!options.progress || options.progress(2 * done, 2 * disk));
    };
    // The inflate records checkpoints (complete when the data has ended) for reading args back.
    auto index = std::make_shared<GzipIndex>();
    if (!in.open(path, maxBytes, readProgress, index)) return std::nullopt;
    const LazyArgs fileArgs = std::make_shared<const LazyArgsFile>(path, in.stamp(), index);
    std::string pending;        // inflated bytes from file offset pendingAt on
    std::int64_t pendingAt = 0; // (uncompressed) file offset of pending[0]
    bool ended = false;
    auto fill = [&](std::size_t want) { // until pending holds want bytes or the data ends
        while (!ended && pending.size() < want)
            ended = !in.next(pending);
    };
    PiecePlan plan;
    try {
        fill(static_cast<std::size_t>(2 * pieceBytes));
    } catch (const LoadError&) {
        return std::nullopt;
    }
    if (ended && pending.size() < static_cast<std::size_t>(2 * pieceBytes)) {
        const std::size_t n = pending.size();
        pending.resize(n + simdjson::SIMDJSON_PADDING, '\0');
        small.emplace(std::move(pending), n);
        lazy = fileArgs;
        return std::nullopt;
    }
    if (!planHead(std::string_view(pending).substr(0, kHeadBytes), plan)) return std::nullopt;
    ReadAt fromPending = [&](std::int64_t offset, std::size_t len, char* dst) {
        std::memcpy(dst, pending.data() + (offset - pendingAt), len);
    };

    struct Piece {
        Rank rank;
        std::unique_ptr<KinetoParser> parser;
        std::exception_ptr error;
        std::string text; // "[" + events + "]" (or the last piece's prefix + rest), padded
        std::size_t length = 0;
        bool last = false;
        std::size_t tail = 0; // last piece: where the root's remainder starts in text
        std::int64_t end = 0; // where the piece ends in the inflated file
        bool done = false;
    };
    std::deque<std::unique_ptr<Piece>> inFlight; // cut, not merged yet, in file order
    std::deque<Piece*> jobs;
    std::mutex mutex;
    std::condition_variable changed;
    const std::function<bool(std::int64_t)> keepGoing = [&](std::int64_t) { return !stop.load(); };
    const std::string_view lastPrefix = plan.rootIsArray ? "[" : "{\"traceEvents\":[";
    auto worker = [&] {
        od::parser parser;
        for (;;) {
            Piece* p = nullptr;
            {
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return stop || !jobs.empty(); });
                if (stop) return;
                p = jobs.front();
                jobs.pop_front();
            }
            try {
                p->parser->setChunkMode();
                auto text = simdjson::padded_string_view(p->text.data(), p->length, p->text.size());
                if (p->last)
                    p->tail = p->parser->parseLastPiece(parser, text, plan.rootIsArray);
                else
                    p->parser->parseEventsPiece(parser, text);
            } catch (...) {
                p->error = std::current_exception();
            }
            if (!p->last) std::string().swap(p->text);
            {
                std::lock_guard lock(mutex);
                p->done = true;
            }
            changed.notify_all();
        }
    };
    const std::size_t threads = loadThreads(options);
    WorkerThreads pool(stop, mutex, changed);
    pool.start(threads, worker);

    Rank rank = newRank(path, 0, loadOrder);
    rank.argsFile = fileArgs; // its index is complete once the data has ended, before the load returns
    std::size_t pieceCount = 0;
    KinetoParser whole(path, rank, options, keepGoing);
    whole.setLazyArgs();
    return finishChunkedLoad(rank, whole, path, disk, options, [&] {
        od::parser parser;
        std::string buf;
        parseHead(whole, parser, buf, plan, fromPending);
        auto submit = [&](std::string_view prefix, std::int64_t from, std::size_t len,
                          std::string_view suffix, bool last) {
            auto p = std::make_unique<Piece>();
            p->parser = std::make_unique<KinetoParser>(path, p->rank, options, keepGoing);
            p->parser->setLazyArgs();
            p->parser->setFileBase(from - static_cast<std::int64_t>(prefix.size()));
            p->text.reserve(prefix.size() + len + suffix.size() + simdjson::SIMDJSON_PADDING);
            makePiece(p->text, prefix, fromPending, from, len, suffix);
            p->length = prefix.size() + len + suffix.size();
            p->end = from + static_cast<std::int64_t>(len);
            p->last = last;
            std::lock_guard lock(mutex);
            jobs.push_back(p.get());
            inFlight.push_back(std::move(p));
            ++pieceCount;
            changed.notify_all();
        };
        // Merges the oldest piece when it is parsed (waiting for it when wait); false when it is not.
        auto mergeFront = [&](bool wait) {
            std::unique_ptr<Piece> p;
            {
                std::unique_lock lock(mutex);
                if (inFlight.empty()) return false;
                if (wait) changed.wait(lock, [&] { return inFlight.front()->done; });
                if (!inFlight.front()->done) return false;
                p = std::move(inFlight.front());
                inFlight.pop_front();
            }
            if (p->error) std::rethrow_exception(p->error);
            whole.absorb(*p->parser);
            // The size the gzip trailer states (exact for one member) scales the share merged so far.
            if (in.statedSize() > p->end)
                reserveForFile(rank, static_cast<double>(in.statedSize()) / static_cast<double>(p->end),
                               true);
            if (p->last)
                whole.parseRootPiece(parser,
                                     makePiece(
                                         buf, plan.rootIsArray ? "[]" : "{\"traceEvents\":[]",
                                         [&](std::int64_t offset, std::size_t len, char* dst) {
                                             std::memcpy(dst, p->text.data() + offset, len);
                                         },
                                         static_cast<std::int64_t>(p->tail), p->length - p->tail, ""));
            p.reset();
            return true;
        };
        std::int64_t start = plan.headEnd;
        std::int64_t probe = start + pieceBytes; // where the next cut is looked for
        std::string window;
        for (;;) {
            fill(static_cast<std::size_t>(probe - pendingAt) + kCutWindow);
            const std::int64_t end = pendingAt + static_cast<std::int64_t>(pending.size());
            // The window is shorter only at the end of the data.
            const std::size_t open =
                probe >= end ? chunk::kNotFound
                             : chunk::findEventStart(window.assign(
                                   pending, static_cast<std::size_t>(probe - pendingAt),
                                   std::min<std::size_t>(kCutWindow, static_cast<std::size_t>(end - probe))));
            if (open == chunk::kNotFound) {
                if (ended && end - probe <= static_cast<std::int64_t>(kCutWindow)) { // no cut left
                    submit(lastPrefix, start, static_cast<std::size_t>(end - start), "", true);
                    rank.fileBytes = end;
                    break;
                }
                probe += static_cast<std::int64_t>(kCutWindow); // a longer piece
                continue;
            }
            const std::int64_t cutEnd = probe + static_cast<std::int64_t>(window.rfind(',', open));
            submit("[", start, static_cast<std::size_t>(cutEnd - start), "]", false);
            start = probe + static_cast<std::int64_t>(open);
            probe = start + pieceBytes;
            pending.erase(0, static_cast<std::size_t>(start - pendingAt));
            pendingAt = start;
            while (inFlight.size() > threads) // bounded: the pieces parsed ahead wait for the merge
                mergeFront(true);
            while (mergeFront(false)) {
            }
        }
        std::string().swap(pending);
        while (mergeFront(true)) {
        }
        pool.stop();
        return pieceCount;
    });
}

// The most uncompressed JSON one file may hold within a memory budget (see platform/MemoryLimits.h).
// perJsonByte: kWholeParseMemoryPerJsonByte for a file read whole.
std::int64_t perFileLimit(std::int64_t budget, double perJsonByte = kMemoryPerJsonByte) {
    if (budget < 0) return kMaxUncompressedBytes;
    return std::min(kMaxUncompressedBytes,
                    static_cast<std::int64_t>(static_cast<double>(budget) / perJsonByte));
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
    bool triedPieces = false;
    LazyArgs lazy;
    std::optional<TraceBuffer> small;
    if (BlockFile file; file.open(path)) {
        // A plain file: events keep the byte range of their args, read back on demand.
        lazy = std::make_shared<const LazyArgsFile>(path, file.stamp());
        if (file.size() <= perFileLimit(budget)) {
            // Read piece by piece: only the pieces being parsed are in memory.
            ReadAt read = [&](std::int64_t offset, std::size_t len, char* dst) {
                file.read(offset, len, dst);
            };
            if (auto rank = loadInPieces(path, file.size(), read, disk, loadOrder, options, lazy))
                return std::move(*rank);
            triedPieces = true;
        }
    } else {
        // gzip: inflated in a producer thread and parsed in pieces as the data comes.
        if (auto rank = loadGzipInPieces(path, disk, loadOrder, options, perFileLimit(budget), small, lazy))
            return std::move(*rank);
        triedPieces = true;
    }
    // The whole text, its index and the model at once (platform/MemoryLimits.h, limit 4).
    if (!small) checkMemoryForWholeParse(path, estimateUncompressedBytes(path), budget);
    // A gzip file parsed whole after its pieces failed is inflated again, with new checkpoints.
    std::shared_ptr<GzipIndex> index;
    const FileStamp stampBefore = FileStamp::ofPath(path);
    if (!lazy && !small) index = std::make_shared<GzipIndex>();
    TraceBuffer buffer = small
                             ? std::move(*small)
                             : readTraceFile(path, readProgress,
                                             perFileLimit(budget, kWholeParseMemoryPerJsonByte), index.get());
    if (index && index->finished()) lazy = std::make_shared<const LazyArgsFile>(path, stampBefore, index);
    // The whole-file read is the file the args are read back from only if it did not change in between.
    if (lazy && (FileStamp::ofPath(path) != lazy->stamp() ||
                 buffer.size() != (lazy->contents() ? lazy->contents()->size()
                                                    : static_cast<std::uint64_t>(lazy->stamp().size))))
        lazy = nullptr;
    return loadKinetoBuffer(path, buffer, disk, loadOrder, options, !triedPieces, lazy);
}

Rank loadKinetoBytes(std::string_view bytes, const std::string& name, int loadOrder,
                     const LoadOptions& options) {
    TraceBuffer buffer =
        decodeTraceBytes(name, bytes, perFileLimit(memoryBudgetBytes(options.memoryLimitBytes)));
    return loadKinetoBuffer(name, buffer, static_cast<std::int64_t>(bytes.size()), loadOrder, options);
}

namespace {

Rank loadKinetoBuffer(const std::string& path, const TraceBuffer& buffer, std::int64_t disk, int loadOrder,
                      const LoadOptions& options, bool tryPieces, const LazyArgs& lazy) {
    // Inflated gzip and bytes in memory are parsed in pieces too (the parser's index stays small).
    ReadAt read = [&](std::int64_t offset, std::size_t len, char* dst) {
        std::memcpy(dst, buffer.data() + offset, len);
    };
    if (tryPieces) {
        if (auto pieces = loadInPieces(path, static_cast<std::int64_t>(buffer.size()), read, disk, loadOrder,
                                       options, lazy))
            return std::move(*pieces);
    }
    Rank rank = newRank(path, static_cast<std::int64_t>(buffer.size()), loadOrder);
    std::function<bool(std::int64_t)> parseProgress;
    if (options.progress) {
        double scale = buffer.size() ? static_cast<double>(disk) / static_cast<double>(buffer.size()) : 0.0;
        parseProgress = [&, scale](std::int64_t parsed) {
            return options.progress(disk + static_cast<std::int64_t>(static_cast<double>(parsed) * scale),
                                    2 * disk);
        };
    }
    rank.argsFile = lazy;
    KinetoParser parser(path, buffer, rank, options, parseProgress);
    if (lazy) parser.setLazyArgs(); // the buffer is the file from byte 0: file base 0
    parser.parse();
    settleRank(rank, path, disk, options);
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
        // A run folder (kineto/ and et/ inside, as ../shared/traces/dlrm-8rank-v100): its Kineto traces.
        if (found.empty() && isRunFolder(p)) {
            auto inner = expandTracePaths({(fs::path(p) / "kineto").string()});
            files.insert(files.end(), inner.begin(), inner.end());
            continue;
        }
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
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t allThreads = options.threads > 0 ? static_cast<std::size_t>(options.threads) : hw;

    auto worker = [&] {
        for (;;) {
            std::size_t i = next.fetch_add(1);
            if (i >= files.size() || cancelled) return;
            LoadOptions fileOptions = options;
            // The threads left over when there are fewer files than threads parse pieces of a file.
            fileOptions.threads = static_cast<int>(std::max<std::size_t>(1, allThreads / files.size()));
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
    std::size_t threads = std::min(allThreads, files.size());
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
