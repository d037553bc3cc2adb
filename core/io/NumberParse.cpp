#include "io/NumberParse.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace sl {

bool parseMicrosecondsToNs(std::string_view tok, std::int64_t& ns) {
    if (tok.empty()) return false;
    std::size_t i = 0;
    bool negative = false;
    if (tok[0] == '-') {
        negative = true;
        i = 1;
    }
    constexpr std::int64_t kMaxMicros = std::numeric_limits<std::int64_t>::max() / 1000 - 1;
    std::int64_t whole = 0;
    std::size_t digits = 0;
    for (; i < tok.size() && tok[i] >= '0' && tok[i] <= '9'; ++i, ++digits) {
        whole = whole * 10 + (tok[i] - '0');
        if (whole > kMaxMicros) return false;
    }
    if (digits == 0) return false;
    std::int64_t frac = 0; // nanoseconds from the first three decimals
    int fracDigits = 0;
    bool roundUp = false;
    if (i < tok.size() && tok[i] == '.') {
        ++i;
        std::size_t firstDecimal = i;
        for (; i < tok.size() && tok[i] >= '0' && tok[i] <= '9'; ++i) {
            if (fracDigits < 3) {
                frac = frac * 10 + (tok[i] - '0');
                ++fracDigits;
            } else if (i == firstDecimal + 3) {
                roundUp = tok[i] >= '5';
            }
        }
        if (i == firstDecimal) return false;
    }
    if (i < tok.size() && (tok[i] == 'e' || tok[i] == 'E')) {
        // Rare exponent form: fall back to double, which is exact enough at this magnitude.
        std::string copy(tok);
        char* end = nullptr;
        double us = std::strtod(copy.c_str(), &end);
        if (end != copy.c_str() + copy.size() || !std::isfinite(us)) return false;
        double value = std::round(us * 1000.0);
        if (std::fabs(value) >= 9.2e18) return false;
        ns = static_cast<std::int64_t>(value);
        return true;
    }
    if (i != tok.size()) return false;
    while (fracDigits < 3) {
        frac *= 10;
        ++fracDigits;
    }
    std::int64_t value = whole * 1000 + frac + (roundUp ? 1 : 0);
    ns = negative ? -value : value;
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
