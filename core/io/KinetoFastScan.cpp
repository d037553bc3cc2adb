#include "io/KinetoFastScan.h"

#include "io/NumberParse.h"

#include <simdjson.h>

#include <cstring>
#include <type_traits>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sl::detail {

namespace {

// Thrown for anything the reader does not read exactly as the On-Demand parser would; On-Demand then
// reads the rest of the piece. Never escapes FastEventReader::next.
struct Unhandled {};

[[noreturn]] void unhandled() {
    throw Unhandled{};
}

constexpr int kMaxDepth = 256; // deeper values are left to On-Demand

bool isSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isHex(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

class Cursor {
public:
    Cursor(const char* p, const char* end, bool keepFields, std::string& kept)
        : p_(p), end_(end), keepFields_(keepFields), kept_(kept) {}
    const char* position() const { return p_; }

    char peek() const {
        if (p_ >= end_) unhandled();
        return *p_;
    }
    char take() {
        char c = peek();
        ++p_;
        return c;
    }
    void expect(char c) {
        if (take() != c) unhandled();
    }
    void skipSpace() {
        // Every JSON white space byte is <= ' ': one comparison for the common case (compact JSON).
        // Reading *p_ at end_ is covered by the padding.
        while (static_cast<unsigned char>(*p_) <= ' ' && p_ < end_ && isSpace(*p_))
            ++p_;
    }

    // p_ is after an opening quote: moves past the closing one and returns the text between.
    // escaped tells whether it holds a backslash escape (checked for form, not unescaped).
    std::string_view scanString(bool& escaped) {
        const char* begin = p_;
        escaped = false;
        for (;;) {
#if defined(__SSE2__)
            // 16 bytes at a time: a quote, a backslash or a control character (<= 0x1f) stops.
            // Reading up to 15 bytes past end_ is covered by kFastReadPadding.
            const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p_));
            const __m128i quote = _mm_cmpeq_epi8(bytes, _mm_set1_epi8('"'));
            const __m128i backslash = _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\'));
            const __m128i control =
                _mm_cmpeq_epi8(_mm_max_epu8(bytes, _mm_set1_epi8(0x1f)), _mm_set1_epi8(0x1f));
            const int mask = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control));
            if (mask == 0) {
                p_ += 16;
                if (p_ >= end_) unhandled();
                continue;
            }
            p_ += __builtin_ctz(static_cast<unsigned>(mask));
#else
            while (p_ < end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20)
                ++p_;
#endif
            if (p_ >= end_) unhandled();
            const char c = *p_;
            if (c == '"') {
                std::string_view s(begin, static_cast<std::size_t>(p_ - begin));
                ++p_;
                return s;
            }
            if (c != '\\') unhandled(); // a raw control character: not JSON
            escaped = true;
            if (end_ - p_ < 2) unhandled();
            switch (p_[1]) {
            case '"':
            case '\\':
            case '/':
            case 'b':
            case 'f':
            case 'n':
            case 'r':
            case 't':
                p_ += 2;
                break;
            case 'u':
                if (end_ - p_ < 6 || !isHex(p_[2]) || !isHex(p_[3]) || !isHex(p_[4]) || !isHex(p_[5]))
                    unhandled();
                p_ += 6;
                break;
            default:
                unhandled();
            }
        }
    }

    // A string value whose text is needed: escapes are left to On-Demand, which unescapes.
    std::string_view plainString() {
        expect('"');
        bool escaped = false;
        std::string_view s = scanString(escaped);
        if (escaped) unhandled();
        return s;
    }

    // The digits at p_ added to value (value * 10^n + digits); false when value would pass max
    // (p_ then stops within the digits). Eight at a time while value is small enough not to overflow.
    bool addDigits(std::uint64_t& value, std::uint64_t max) {
        std::uint64_t eight = 0;
        while (value < 10'000'000'000u && end_ - p_ >= 8 && parseEightDigits(p_, eight)) {
            value = value * 100'000'000u + eight;
            p_ += 8;
            if (value > max) return false;
        }
        for (; p_ < end_ && isDigit(*p_); ++p_) {
            const auto digit = static_cast<std::uint64_t>(*p_ - '0');
            // Below 10^18, value * 10 + 9 cannot wrap; above, the exact (slow) test.
            if (value >= 1'000'000'000'000'000'000u && value > (max - digit) / 10) return false;
            value = value * 10 + digit;
            if (value > max) return false;
        }
        return true;
    }
    bool atDelimiter() const {
        return p_ >= end_ || isSpace(*p_) || *p_ == ',' || *p_ == '}' || *p_ == ']';
    }

    // A JSON number per the grammar; integer tells there is no fraction and no exponent.
    std::string_view scanNumber(bool& integer) {
        const char* begin = p_;
        integer = true;
        if (p_ < end_ && *p_ == '-') ++p_;
        if (p_ >= end_) unhandled();
        if (*p_ == '0') {
            ++p_;
        } else if (isDigit(*p_)) {
            p_ = skipDigits(p_, end_);
        } else {
            unhandled();
        }
        if (p_ < end_ && *p_ == '.') {
            integer = false;
            ++p_;
            if (p_ >= end_ || !isDigit(*p_)) unhandled();
            p_ = skipDigits(p_, end_);
        }
        if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
            integer = false;
            ++p_;
            if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
            if (p_ >= end_ || !isDigit(*p_)) unhandled();
            while (p_ < end_ && isDigit(*p_))
                ++p_;
        }
        // A number ends at white space or structure ("12abc" is left to On-Demand).
        if (!atDelimiter()) unhandled();
        return {begin, static_cast<std::size_t>(p_ - begin)};
    }

    void literal(const char* word, std::size_t length) {
        if (static_cast<std::size_t>(end_ - p_) < length || std::memcmp(p_, word, length) != 0) unhandled();
        p_ += length;
        if (!atDelimiter()) unhandled();
    }

    // An object at p_, checked: onField(key) reads each value (the key as written, escapes and all:
    // an escaped key matches no known key, as in KinetoParser's rawKey).
    template <typename OnField> void readObject(OnField onField) {
        expect('{');
        skipSpace();
        if (peek() == '}') {
            ++p_;
            return;
        }
        for (;;) {
            expect('"');
            bool escaped = false;
            const std::string_view key = scanString(escaped);
            skipSpace();
            expect(':');
            skipSpace();
            onField(key);
            skipSpace();
            const char c = take();
            if (c == '}') return;
            if (c != ',') unhandled();
            skipSpace();
        }
    }

    // Any JSON value, checked and skipped.
    void skipValue(int depth) {
        switch (peek()) {
        case '"': {
            ++p_;
            bool escaped = false;
            scanString(escaped);
            return;
        }
        case '{':
            if (depth >= kMaxDepth) unhandled();
            readObject([&](std::string_view) { skipValue(depth + 1); });
            return;
        case '[': {
            if (depth >= kMaxDepth) unhandled();
            ++p_;
            skipSpace();
            if (peek() == ']') {
                ++p_;
                return;
            }
            for (;;) {
                skipValue(depth + 1);
                skipSpace();
                char c = take();
                if (c == ']') return;
                if (c != ',') unhandled();
                skipSpace();
            }
        }
        case 't':
            literal("true", 4);
            return;
        case 'f':
            literal("false", 5);
            return;
        case 'n':
            literal("null", 4);
            return;
        default: {
            bool integer = false;
            scanNumber(integer);
            return;
        }
        }
    }

    // A JSON integer that fits in 64 bits (values of 2^63 and above keep their bits, as On-Demand's
    // get_uint64 does); fractions and exponents are left to On-Demand.
    std::int64_t integerToken() {
        const bool negative = p_ < end_ && *p_ == '-';
        if (negative) ++p_;
        if (p_ >= end_ || !isDigit(*p_)) unhandled();
        std::uint64_t value = 0;
        if (*p_ == '0')
            ++p_;
        else if (!addDigits(value, UINT64_MAX))
            unhandled();
        if (!atDelimiter()) unhandled(); // a fraction, an exponent or garbage
        if (negative) {
            if (value > static_cast<std::uint64_t>(INT64_MAX) + 1) unhandled();
            return value == static_cast<std::uint64_t>(INT64_MAX) + 1 ? INT64_MIN
                                                                      : -static_cast<std::int64_t>(value);
        }
        return static_cast<std::int64_t>(value);
    }

    // KinetoParser::intValue: a number, a decimal or 0x hex string, or null (-1).
    std::int64_t intValue() {
        char c = peek();
        if (c == '"') {
            std::int64_t value = 0;
            if (!parseIntegerId(plainString(), value)) unhandled();
            return value;
        }
        if (c == 'n') {
            literal("null", 4);
            return -1;
        }
        if (c == '-' || isDigit(c)) return integerToken();
        unhandled();
    }

    bool atNumber() {
        char c = peek();
        return c == '-' || isDigit(c);
    }

    // A field read when it is a string (and ignored otherwise), as parseArgs does.
    void stringIfString(std::string_view& out) {
        if (peek() == '"')
            out = plainString();
        else
            skipValue(1);
    }
    void intIfNumber(std::int64_t& out) {
        if (atNumber())
            out = integerToken();
        else
            skipValue(1);
    }

    // pid, tid and id: resolved in order when the event enters the model.
    void idToken(ScannedEvent& event, IdToken::Slot slot) {
        IdToken token;
        token.slot = slot;
        if (peek() == '"') {
            token.isString = true;
            token.text = plainString();
        } else {
            token.number = intValue();
        }
        if (event.idCount == 3) unhandled(); // repeated keys: left to On-Demand
        event.ids[event.idCount++] = token;
    }

    // A kept args field: its value is checked and skipped, and "key":value appended to kept_ as
    // KinetoParser::keepField writes it (lazy args only).
    void keptValue(std::string_view key) {
        const char* begin = p_;
        skipValue(1);
        if (!keepFields_) return;
        if (!kept_.empty()) kept_ += ',';
        kept_ += '"';
        kept_ += key;
        kept_ += "\":";
        kept_.append(begin, static_cast<std::size_t>(p_ - begin));
    }

    void scanArgs(ArgsFields& out) {
        readObject([&](std::string_view key) { argsField(key, out); });
    }

    // One args field, as KinetoParser::parseArgs reads it (the same key table, io/KinetoEventFields.h).
    void argsField(std::string_view key, ArgsFields& out) {
        switch (argsKeyOf(key)) {
        case ArgsKey::Correlation:
            out.correlation = intValue();
            return;
        case ArgsKey::CudaSyncKind:
            out.hasSync = true;
            stringIfString(out.syncKind);
            return;
        case ArgsKey::Device:
            out.device = intValue();
            return;
        case ArgsKey::Dtype:
            stringIfString(out.dtype);
            return;
        case ArgsKey::Stream:
            out.stream = intValue();
            return;
        case ArgsKey::WaitOnStream:
            out.hasSync = true;
            out.waitOnStream = intValue();
            return;
        case ArgsKey::WaitOnEventRecordCorrelation:
            out.hasSync = true;
            out.waitOnEventRecordCorrelation = intValue();
            return;
        case ArgsKey::WaitOnCudaEventId:
            out.hasSync = true;
            out.waitOnCudaEventId = intValue();
            return;
        case ArgsKey::MetaName:
            stringIfString(out.metaName);
            return;
        case ArgsKey::CollectiveName:
            if (peek() == '"') {
                out.hasCollective = true;
                out.collectiveName = plainString();
            } else {
                skipValue(1);
            }
            return;
        case ArgsKey::InMsgNelems:
            intIfNumber(out.inNelems);
            return;
        case ArgsKey::OutMsgNelems:
            intIfNumber(out.outNelems);
            return;
        case ArgsKey::GroupSize:
            intIfNumber(out.groupSize);
            return;
        case ArgsKey::ProcessGroupName:
            stringIfString(out.processGroupName);
            return;
        case ArgsKey::ProcessGroupRanks:
            stringIfString(out.processGroupRanks);
            return;
        case ArgsKey::Kept:
            keptValue(key);
            return;
        case ArgsKey::Other:
            skipValue(1);
            return;
        }
    }

    // A time in microseconds, read in place by parseMicrosecondsToNs's own parser (io/NumberParse.h);
    // what it refuses, out of range included, and JSON's leading zeros are left to On-Demand.
    TimeNs timeValue() {
        if (!atNumber()) unhandled();
        const char* digits = *p_ == '-' ? p_ + 1 : p_;
        if (*digits == '0' && digits + 1 < end_ && isDigit(digits[1])) unhandled();
        TimeNs value = 0;
        const char* after = parseMicrosecondsPrefix(p_, end_, value);
        if (!after) unhandled();
        p_ = after;
        if (!atDelimiter()) unhandled();
        return value;
    }

    void readEvent(ScannedEvent& event) {
        event.where = p_;
        kept_.clear();
        bool sawArgs = false;
        readObject([&](std::string_view key) { eventField(key, event, sawArgs); });
    }

    // One top-level field of an event, as KinetoParser::parseEvent reads it.
    void eventField(std::string_view key, ScannedEvent& event, bool& sawArgs) {
        EventFields& f = event.fields;
        switch (key.size()) {
        case 2:
            if (key == "ph") {
                std::string_view s = plainString();
                if (s.empty()) unhandled();
                f.ph = s[0];
                return;
            }
            if (key == "ts") {
                TimeNs value = timeValue();
                if (value > kMaxAbsStartNs || value < -kMaxAbsStartNs) unhandled();
                f.ts = value;
                f.hasTs = true;
                return;
            }
            if (key == "id") {
                const char c = peek();
                if (c == '"' || c == '-' || isDigit(c))
                    idToken(event, IdToken::FlowId);
                else
                    skipValue(1);
                return;
            }
            break;
        case 3:
            if (key == "cat") {
                f.cat = plainString();
                return;
            }
            if (key == "dur") {
                TimeNs value = timeValue();
                if (value < 0 || value > kMaxDurationNs) unhandled();
                f.dur = value;
                f.hasDur = true;
                return;
            }
            if (key == "pid") {
                idToken(event, IdToken::Pid);
                f.hasPid = true;
                return;
            }
            if (key == "tid") {
                idToken(event, IdToken::Tid);
                f.hasTid = true;
                return;
            }
            break;
        case 4:
            if (key == "name") {
                f.name = plainString();
                f.hasName = true;
                return;
            }
            if (key == "args" && peek() == '{') {
                if (sawArgs) unhandled(); // a second args object: left to On-Demand
                sawArgs = true;
                const char* begin = p_;
                scanArgs(f.args);
                f.argsText = begin;
                f.argsSize = static_cast<std::uint32_t>(p_ - begin);
                return;
            }
            break;
        default:
            break;
        }
        skipValue(1);
    }

private:
    const char* p_;
    const char* end_;
    bool keepFields_;
    std::string& kept_;
};

// out = ScannedEvent{}, 16 bytes at a time: the assignment (and memcpy from a blank event) compiled
// to `rep stos` / `rep movs`, whose start-up cost was 8% of the reader's time (416 bytes an event).
void clear(ScannedEvent& out) {
    static_assert(std::is_trivially_copyable_v<ScannedEvent>);
    static const ScannedEvent blank{};
#if defined(__SSE2__)
    if constexpr (sizeof(ScannedEvent) % sizeof(__m128i) == 0) {
        auto* to = reinterpret_cast<__m128i*>(&out);
        const auto* from = reinterpret_cast<const __m128i*>(&blank);
        // Written out, not a loop: GCC turns a copy loop back into `rep movs`.
        [&]<std::size_t... i>(std::index_sequence<i...>) {
            (_mm_storeu_si128(to + i, _mm_loadu_si128(from + i)), ...);
        }
        (std::make_index_sequence<sizeof(ScannedEvent) / sizeof(__m128i)>());
        return;
    }
#endif
    std::memcpy(&out, &blank, sizeof out);
}

} // namespace

FastEventReader::FastEventReader(std::string_view text, bool keepFields, bool moreAfterArray)
    : p_(text.data()), end_(text.data() + text.size()), keepFields_(keepFields),
      moreAfterArray_(moreAfterArray) {}

// Moves past the white space and the ',' or ']' after an event (or the '[' before the first):
// true when an event starts at p_.
bool FastEventReader::readSeparator() {
    Cursor c(p_, end_, keepFields_, kept_);
    c.skipSpace();
    bool more = false;
    if (state_ == State::BeforeArray) {
        c.expect('[');
        c.skipSpace();
        more = c.peek() != ']';
        if (!more) c.take();
    } else {
        char sep = c.take();
        if (sep != ',' && sep != ']') unhandled();
        more = sep == ',';
        c.skipSpace();
        // A comma before the ']' is not JSON, but "[" + "]" would be: never resumed from there.
        if (more && c.peek() == ']') unhandled();
    }
    if (!more) {
        arrayEnd_ = c.position();
        c.skipSpace();
        if (!moreAfterArray_ && c.position() != end_) unhandled(); // content after the array
    }
    p_ = c.position();
    return more;
}

FastEventReader::Step FastEventReader::next(ScannedEvent& out) {
    if (state_ == State::Done) return Step::End;
    try {
        if (!readSeparator()) {
            state_ = State::Done;
            return Step::End;
        }
    } catch (const Unhandled&) {
        state_ = State::Done;
        return Step::Malformed;
    }
    state_ = State::AfterEvent;
    eventStart_ = p_;
    clear(out);
    try {
        Cursor c(p_, end_, keepFields_, kept_);
        c.readEvent(out);
        p_ = c.position();
        return Step::Event;
    } catch (const Unhandled&) {
        state_ = State::Done;
        return Step::Unhandled;
    }
}

} // namespace sl::detail
