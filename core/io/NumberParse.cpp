#include "io/NumberParse.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string>

namespace sl {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

constexpr auto kMaxValue = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

// value * 10^n + the n digits at p; false past INT64_MAX.
bool appendDigits(std::uint64_t& value, const char* p, std::size_t n) {
    for (std::uint64_t eight = 0; n >= 8 && value < 10'000'000'000u && parseEightDigits(p, eight);
         p += 8, n -= 8)
        value = value * 100'000'000 + eight;
    for (; n > 0; ++p, --n) {
        const auto d = static_cast<std::uint64_t>(*p - '0');
        if (value >= kMaxValue / 10 && (value > kMaxValue / 10 || d > kMaxValue % 10)) return false;
        value = value * 10 + d;
    }
    return true;
}

// The number whose digits are the integer digits then the decimals, with its decimal point moved
// `shift` places right, rounded half away from zero (the first digit dropped decides), as an
// unsigned integer; false past INT64_MAX. Exact whatever the number of digits.
bool shiftedDecimal(std::string_view integer, std::string_view decimals, std::int64_t shift,
                    std::uint64_t& out) {
    const std::int64_t whole = static_cast<std::int64_t>(integer.size()) + shift; // digits kept
    std::uint64_t value = 0;
    if (whole > 0) {
        const auto kept = static_cast<std::uint64_t>(whole);
        const std::size_t fromInteger = std::min<std::uint64_t>(kept, integer.size());
        const std::size_t fromDecimals = std::min<std::uint64_t>(kept - fromInteger, decimals.size());
        if (!appendDigits(value, integer.data(), fromInteger) ||
            !appendDigits(value, decimals.data(), fromDecimals))
            return false;
        for (std::uint64_t zeros = kept - fromInteger - fromDecimals; zeros > 0 && value != 0; --zeros) {
            if (value > kMaxValue / 10) return false;
            value *= 10;
        }
    }
    const auto next = static_cast<std::uint64_t>(whole); // the first digit dropped
    const char dropped = whole < 0                                 ? '0'
                         : next < integer.size()                   ? integer[next]
                         : next - integer.size() < decimals.size() ? decimals[next - integer.size()]
                                                                   : '0';
    if (dropped >= '5') {
        if (value == kMaxValue) return false;
        ++value;
    }
    out = value;
    return true;
}

} // namespace

const char* parseMicrosecondsPrefix(const char* begin, const char* end, std::int64_t& ns) {
    const char* p = begin;
    const bool negative = p < end && *p == '-';
    if (negative) ++p;
    constexpr std::int64_t kMaxMicros = std::numeric_limits<std::int64_t>::max() / 1000 - 1;
    // The integer part: epoch timestamps have 16 digits, eight at a time while whole stays far
    // from the limit (past it, only an exponent can still make the number fit).
    std::int64_t whole = 0;
    bool wholeFits = true;
    const char* firstDigit = p;
    for (std::uint64_t eight = 0; whole < 10'000'000'000 && end - p >= 8 && parseEightDigits(p, eight);
         p += 8)
        whole = whole * 100'000'000 + static_cast<std::int64_t>(eight);
    for (; p < end && isDigit(*p); ++p) {
        wholeFits = wholeFits && whole <= kMaxMicros;
        if (wholeFits) whole = whole * 10 + (*p - '0');
    }
    wholeFits = wholeFits && whole <= kMaxMicros;
    const std::string_view integer(firstDigit, static_cast<std::size_t>(p - firstDigit));
    if (integer.empty()) return nullptr;
    std::string_view decimals;
    if (p < end && *p == '.') {
        const char* firstDecimal = ++p;
        p = skipDigits(p, end);
        if (p == firstDecimal) return nullptr;
        decimals = std::string_view(firstDecimal, static_cast<std::size_t>(p - firstDecimal));
    }
    std::int64_t exponent = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        // JSON writers that print every number as a double write epoch times as 1.68918045356334e+15.
        const char* q = p + 1;
        const bool exponentNegative = q < end && *q == '-';
        if (q < end && (*q == '+' || *q == '-')) ++q;
        const char* firstExponentDigit = q;
        for (; q < end && isDigit(*q); ++q)
            exponent = std::min<std::int64_t>(exponent * 10 + (*q - '0'), 1'000'000);
        if (q == firstExponentDigit) return nullptr;
        if (exponentNegative) exponent = -exponent;
        p = q;
    } else if (wholeFits) {
        // No exponent (the common case): whole microseconds, then three decimals and the fourth rounding.
        std::int64_t frac = 0;
        for (std::size_t i = 0; i < 3; ++i)
            frac = frac * 10 + (i < decimals.size() ? decimals[i] - '0' : 0);
        const std::int64_t value = whole * 1000 + frac + (decimals.size() > 3 && decimals[3] >= '5' ? 1 : 0);
        ns = negative ? -value : value;
        return p;
    } else {
        return nullptr;
    }
    std::uint64_t value = 0;
    if (!shiftedDecimal(integer, decimals, exponent + 3, value)) return nullptr;
    ns = negative ? -static_cast<std::int64_t>(value) : static_cast<std::int64_t>(value);
    return p;
}

bool parseMicrosecondsToNs(std::string_view tok, std::int64_t& ns) {
    const char* end = tok.data() + tok.size();
    std::int64_t value = 0;
    if (tok.empty() || parseMicrosecondsPrefix(tok.data(), end, value) != end) return false;
    ns = value;
    return true;
}

bool parseIntegerId(std::string_view text, std::int64_t& value) {
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        std::string_view digits = text.substr(2);
        if (digits.size() > 16) return false;
        std::uint64_t u = 0;
        auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), u, 16);
        if (ec != std::errc() || ptr != digits.data() + digits.size()) return false;
        value = static_cast<std::int64_t>(u);
        return true;
    }
    if (text.empty() || text[0] == '+') return false;
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size()) return false;
    value = v;
    return true;
}

} // namespace sl
