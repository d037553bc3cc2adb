#include "io/kineto/KinetoParser.h"

#include "io/NumberParse.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace sl::kineto {

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

namespace {

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
} // namespace

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
        rank_.warnings.add(Warn::TraceNoEvents, path_ + ": no events in traceEvents");
    }
    for (auto& [key, open] : openBegins_)
        if (!open.empty())
            rank_.warnings.add(Warn::UnclosedBeginEvents,
                               std::to_string(open.size()) + " \"B\" events without an \"E\"",
                               static_cast<std::int64_t>(open.size()));

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

} // namespace sl::kineto
