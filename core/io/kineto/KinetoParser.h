#pragma once
// The Kineto JSON parser (docs/Loader.md): one parser reads a whole file, or one piece of a chunked
// load and absorbs the pieces after it in file order. Internal to io/: the loader's entry points are
// io/KinetoLoader.h. Event parsing is in KinetoParser.cpp (the hot path, kept in one translation
// unit so the fast reader's calls inline), the document around the events in KinetoDocument.cpp.
#include "io/FileReader.h"
#include "io/KinetoEventFields.h"
#include "io/KinetoFastScan.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"
#include "io/RankFinalizer.h"

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <simdjson.h>

namespace sl::kineto {

namespace od = simdjson::ondemand;
using namespace ::sl::detail;

// Where a value starts in the buffer (for error offsets).
inline const char* rawTokenStart(od::value& v) {
    return v.raw_json_token().data();
}

// Rank numbers and group sizes beyond this are treated as absent (world sizes are far smaller).
constexpr std::int64_t kMaxRank = 1 << 24;
// Message sizes beyond this (elements) are treated as unknown: bytes = nelems x 8 must not overflow.
constexpr std::int64_t kMaxNelems = std::int64_t{1} << 50;
// Fewer bytes than a Kineto event takes ("ph", "cat", "name", "pid", "tid", "ts", "dur" and
// their values): a piece's tracks reserve room for its size over this many events (more grow).
constexpr std::size_t kSmallestEventBytes = 128;

inline std::int64_t sanitizeNelems(std::int64_t n) {
    return n >= 0 && n <= kMaxNelems ? n : -1;
}
inline std::int32_t sanitizeGroupSize(std::int64_t n) {
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

inline std::string_view trimToken(std::string_view tok) {
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
    // Appends "key":value to keep_ (lazy args only). parseArgs calls it for the fields read later
    // from Rank::args: ops' "Input Dims", "Input type", "Concrete Inputs" (Rank::opShapes: the cost
    // model, the benchmark export, run comparison, the details panel), "Ev Idx", "Record function
    // id" (io/EtLinker); copies' "bytes" (models/KernelCost); kernels' "grid" and "blocks per SM"
    // (typed once by finalizeRank into Rank::kernelLaunches). A consumer that needs another field
    // adds it to argsKeyOf (io/KinetoEventFields.cpp), which both readers use.
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

} // namespace sl::kineto
