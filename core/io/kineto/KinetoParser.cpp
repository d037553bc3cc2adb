#include "io/kineto/KinetoParser.h"

#include "io/NumberParse.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace sl::kineto {

namespace {

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

} // namespace

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

} // namespace sl::kineto
