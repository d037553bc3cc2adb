#pragma once
// ASCII case folding for names from traces (kernel names, process-group descriptions, op names).
// Trace names are matched case-insensitively against fixed ASCII words; locale-aware folding would
// make the match depend on the user's environment, so only A-Z are folded.
#include <string>
#include <string_view>

namespace sl {

constexpr char asciiLower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline std::string asciiLower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = asciiLower(c);
    return out;
}

} // namespace sl
