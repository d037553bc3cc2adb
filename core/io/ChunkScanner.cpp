#include "io/ChunkScanner.h"

#include <algorithm>

namespace sl::chunk {

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

std::size_t skipSpace(std::string_view s, std::size_t i) {
    while (i < s.size() && isSpace(s[i]))
        ++i;
    return i;
}

// The offset just past the closing quote of the string whose opening quote is at i, or kNotFound.
std::size_t endOfString(std::string_view s, std::size_t i) {
    for (++i; i < s.size(); ++i) {
        if (s[i] == '\\')
            ++i;
        else if (s[i] == '"')
            return i + 1;
    }
    return kNotFound;
}

} // namespace

EventsArray findEventsArray(std::string_view head) {
    EventsArray found;
    std::size_t i = skipSpace(head, 0);
    if (i >= head.size()) return found;
    if (head[i] == '[') {
        found.open = i;
        found.rootIsArray = true;
        return found;
    }
    if (head[i] != '{') return found;
    int depth = 0;
    while (i < head.size()) {
        char c = head[i];
        if (c == '"') {
            std::size_t end = endOfString(head, i);
            if (end == kNotFound) return found;
            std::string_view text = head.substr(i + 1, end - i - 2);
            i = end;
            if (depth != 1 || text != "traceEvents") continue;
            std::size_t colon = skipSpace(head, i);
            if (colon >= head.size() || head[colon] != ':') continue; // a value, not a key
            std::size_t value = skipSpace(head, colon + 1);
            if (value < head.size() && head[value] == '[') {
                found.open = value;
                return found;
            }
            continue;
        }
        if (c == '{' || c == '[')
            ++depth;
        else if (c == '}' || c == ']') {
            if (--depth <= 0) return found; // the root closed without an events array
        }
        ++i;
    }
    return found;
}

std::size_t findEventStart(std::string_view window) {
    std::size_t i = 0;
    if (std::size_t newline = window.find('\n'); newline != std::string_view::npos) i = newline + 1;
    int depth = 0, lowest = 0;
    while (i < window.size()) {
        char c = window[i];
        if (c == '"') {
            i = endOfString(window, i);
            if (i == kNotFound) return kNotFound;
            continue;
        }
        if (c == '{' || c == '[') {
            ++depth;
        } else if (c == ']') {
            lowest = std::min(lowest, --depth);
        } else if (c == '}') {
            --depth;
            if (depth <= lowest) {
                lowest = depth;
                std::size_t comma = skipSpace(window, i + 1);
                if (comma < window.size() && window[comma] == ',') {
                    std::size_t open = skipSpace(window, comma + 1);
                    if (open < window.size() && window[open] == '{') return open;
                }
            }
        }
        ++i;
    }
    return kNotFound;
}

} // namespace sl::chunk
