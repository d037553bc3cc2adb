#pragma once
#include <cstdint>
#include <string_view>

namespace sl {

// Parses a JSON number of microseconds ("123", "4458676522690.655", "1.5e3", "-2") into integer
// nanoseconds without going through double for the common forms, so ns decimals survive exactly
// even for epoch-sized timestamps. Returns false for anything that is not a finite number that
// fits in int64 nanoseconds.
bool parseMicrosecondsToNs(std::string_view token, std::int64_t& ns);

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
