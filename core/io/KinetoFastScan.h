#pragma once
// The fast reader of a chunked load (docs/Loader.md, "Fast reader"): reads a piece's JSON array of
// Kineto events byte by byte, one event at a time, without simdjson's structural index. It is
// strict: it accepts only what it reads exactly as the On-Demand parser would (every value checked
// against the JSON grammar, strings without escapes where their value is needed, integer ids), and
// stops at the first event it does not, so that the caller reads the rest with On-Demand.
#include "io/KinetoEventFields.h"

#include <string>
#include <string_view>

namespace sl::detail {

// Readable bytes the reader needs after the end of its text (it loads 16 bytes at a time).
constexpr std::size_t kFastReadPadding = 16;

class FastEventReader {
public:
    // text must be `[` events `]` (white space allowed around and between), valid UTF-8, with
    // kFastReadPadding readable bytes after its end. keepFields: collect the kept args fields
    // (lazy args; see KinetoParser::keepField).
    // moreAfterArray: text may go on after the array's ']' (the last piece: the rest of the root
    // object); End then leaves arrayEnd() just past the ']'.
    FastEventReader(std::string_view text, bool keepFields, bool moreAfterArray = false);

    enum class Step {
        Event,     // out holds the next event; kept() its kept args fields
        End,       // the array and the text have ended
        Unhandled, // an event the reader does not take: resumeAt() is where it starts
        Malformed, // not an array of objects (a missing comma, content after the array)
    };
    Step next(ScannedEvent& out);
    const char* resumeAt() const { return eventStart_; }
    const char* arrayEnd() const { return arrayEnd_; }
    // "key":value,... of the last event's kept args fields, in file order.
    std::string_view kept() const { return kept_; }

private:
    enum class State { BeforeArray, AfterEvent, Done };
    bool readSeparator(); // true: an event follows; throws on a malformed array

    const char* p_;
    const char* end_;
    const char* eventStart_ = nullptr;
    const char* arrayEnd_ = nullptr;
    bool keepFields_;
    bool moreAfterArray_;
    State state_ = State::BeforeArray;
    std::string kept_;
};

} // namespace sl::detail
