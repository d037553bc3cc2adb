#pragma once
#include <cstdint>
#include <string_view>

namespace sl {

// Parses a JSON number of microseconds ("123", "4458676522690.655", "1.5e3", "-2") into integer
// nanoseconds without going through double for the common forms, so ns decimals survive exactly
// even for epoch-sized timestamps. Returns false for anything that is not a finite number that
// fits in int64 nanoseconds.
bool parseMicrosecondsToNs(std::string_view token, std::int64_t& ns);

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
