#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>

namespace sl {

// Parses a JSON number of microseconds ("123", "4458676522690.655", "1.5e3", "-2") into integer
// nanoseconds without going through double for the common forms, so ns decimals survive exactly
// even for epoch-sized timestamps. Returns false for anything that is not a finite number that
// fits in int64 nanoseconds.
bool parseMicrosecondsToNs(std::string_view token, std::int64_t& ns);

// Eight ASCII digits at p (eight readable bytes) as their value, or false when one is not a digit:
// the usual SWAR test, then three multiply-shift steps that combine digit pairs, fours and eights.
inline bool parseEightDigits(const char* p, std::uint64_t& value) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, 8); // little-endian: the first digit in the lowest byte
    if (((v & 0xF0F0F0F0F0F0F0F0u) | (((v + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) >> 4)) !=
        0x3333333333333333u)
        return false;
    v = ((v & 0x0F0F0F0F0F0F0F0Fu) * 2561) >> 8;
    v = ((v & 0x00FF00FF00FF00FFu) * 6553601) >> 16;
    value = ((v & 0x0000FFFF0000FFFFu) * 42949672960001u) >> 32;
    return true;
}

// Past the digits at p (up to end), eight at a time where it can.
inline const char* skipDigits(const char* p, const char* end) {
    for (std::uint64_t eight = 0; end - p >= 8 && parseEightDigits(p, eight);)
        p += 8;
    while (p < end && *p >= '0' && *p <= '9')
        ++p;
    return p;
}

// The same for the number at the start of [begin, end) (the fast reader reads in place): returns
// where the number ends, or nullptr for what parseMicrosecondsToNs refuses; ns is set on success.
const char* parseMicrosecondsPrefix(const char* begin, const char* end, std::int64_t& ns);

// Parses an integer id written as text: decimal ("7", "-1") or hexadecimal with a 0x / 0X prefix
// ("0x0", "0x7f3a2c000b70", as ROCm writes HIP stream handles). Hexadecimal takes up to 16 digits
// and keeps the 64 bits (values of 2^63 and above come out negative); decimal must fit in int64.
// Surrounding spaces are not accepted. Returns false for anything else ("", "x7", "0x", "12a").
bool parseIntegerId(std::string_view text, std::int64_t& value);

// Parses the integers of a list such as "[0, 1, 2]" (PyTorch writes process group ranks as a
// string). Stops at the first malformed entry; returns the count parsed.
template <typename Out> int parseIntList(std::string_view text, Out&& push) {
    int count = 0;
    std::int64_t value = 0;
    bool inNumber = false, negative = false;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            value = value * 10 + (c - '0');
            inNumber = true;
            if (value > (std::int64_t{1} << 40)) return count;
        } else if (c == '-' && !inNumber) {
            negative = true;
        } else {
            if (inNumber) {
                push(negative ? -value : value);
                ++count;
            }
            value = 0;
            inNumber = negative = false;
        }
    }
    if (inNumber) {
        push(negative ? -value : value);
        ++count;
    }
    return count;
}

} // namespace sl
