#include "io/NumberParse.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace sl {

const char* parseMicrosecondsPrefix(const char* begin, const char* end, std::int64_t& ns) {
    auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    const char* p = begin;
    const bool negative = p < end && *p == '-';
    if (negative) ++p;
    constexpr std::int64_t kMaxMicros = std::numeric_limits<std::int64_t>::max() / 1000 - 1;
    std::int64_t whole = 0;
    const char* firstDigit = p;
    // Epoch timestamps have 16 digits: eight at a time while whole stays far from the limit.
    for (std::uint64_t eight = 0; whole < 10'000'000'000 && end - p >= 8 && parseEightDigits(p, eight);
         p += 8) {
        whole = whole * 100'000'000 + static_cast<std::int64_t>(eight);
        if (whole > kMaxMicros) return nullptr;
    }
    for (; p < end && isDigit(*p); ++p) {
        whole = whole * 10 + (*p - '0');
        if (whole > kMaxMicros) return nullptr;
    }
    if (p == firstDigit) return nullptr;
    std::int64_t frac = 0; // nanoseconds from the first three decimals
    int fracDigits = 0;
    bool roundUp = false;
    if (p < end && *p == '.') {
        ++p;
        const char* firstDecimal = p;
        for (; p < end && isDigit(*p); ++p) {
            if (fracDigits < 3) {
                frac = frac * 10 + (*p - '0');
                ++fracDigits;
            } else if (p == firstDecimal + 3) {
                roundUp = *p >= '5';
            }
        }
        if (p == firstDecimal) return nullptr;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        const char* q = p + 1;
        const bool exponentNegative = q < end && *q == '-';
        if (q < end && (*q == '+' || *q == '-')) ++q;
        const char* firstExponentDigit = q;
        int exponent = 0;
        for (; q < end && isDigit(*q); ++q)
            exponent = std::min(exponent * 10 + (*q - '0'), 100'000);
        if (q == firstExponentDigit) return nullptr;
        // Exactly, from the digits (JSON writers that print every number as a double put epoch
        // times as 1.68918045356334e+15): the significant digits as one integer, times a power of 10.
        std::uint64_t digits = 0;
        int scale = (exponentNegative ? -exponent : exponent) + 3; // to nanoseconds
        bool fits = true;
        for (const char* d = firstDigit; d < p && fits; ++d) {
            if (*d == '.') {
                scale -= static_cast<int>(p - d - 1); // the decimals
                continue;
            }
            fits = digits <= (std::numeric_limits<std::uint64_t>::max() - 9) / 10;
            digits = digits * 10 + static_cast<std::uint64_t>(*d - '0');
        }
        if (fits) {
            constexpr std::uint64_t kMaxNs = 9'200'000'000'000'000'000u;
            std::uint64_t value = digits;
            if (digits != 0 && scale > 0) {
                for (int i = 0; i < scale; ++i) {
                    if (value > kMaxNs / 10) return nullptr;
                    value *= 10;
                }
            } else if (scale < 0) {
                // Rounded half away from zero, as the decimals above and std::round.
                value = 0;
                if (scale >= -19) {
                    std::uint64_t divisor = 1;
                    for (int i = 0; i < -scale; ++i)
                        divisor *= 10;
                    const std::uint64_t rest = digits % divisor;
                    value = digits / divisor + (rest >= divisor - rest ? 1 : 0);
                }
            }
            if (value > kMaxNs) return nullptr;
            ns = negative ? -static_cast<std::int64_t>(value) : static_cast<std::int64_t>(value);
            return q;
        }
        // More than 19 significant digits: through double, exact enough at this magnitude.
        const std::string copy(begin, q);
        char* parsedEnd = nullptr;
        double us = std::strtod(copy.c_str(), &parsedEnd);
        if (parsedEnd != copy.c_str() + copy.size() || !std::isfinite(us)) return nullptr;
        double value = std::round(us * 1000.0);
        if (std::fabs(value) >= 9.2e18) return nullptr;
        ns = static_cast<std::int64_t>(value);
        return q;
    }
    for (; fracDigits < 3; ++fracDigits)
        frac *= 10;
    const std::int64_t value = whole * 1000 + frac + (roundUp ? 1 : 0);
    ns = negative ? -value : value;
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
