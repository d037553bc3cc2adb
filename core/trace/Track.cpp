#include "trace/Track.h"

#include <algorithm>

namespace sl {

void EventColumns::reserve(std::size_t n) {
    start.reserve(n);
    duration.reserve(n);
    name.reserve(n);
    kind.reserve(n);
    depth.reserve(n);
    parent.reserve(n);
    correlation.reserve(n);
    link.reserve(n);
    extra.reserve(n);
    argsOffset.reserve(n);
    argsLength.reserve(n);
}

// The columns' elements, not their capacity: the loader gives columns room for their projected
// share of the file, and room never written is never resident.
std::size_t EventColumns::memoryBytes() const {
    auto bytes = [](const auto& column) { return column.size() * sizeof(column[0]); };
    return bytes(start) + bytes(duration) + bytes(name) + bytes(kind) + bytes(depth) + bytes(parent) +
           bytes(correlation) + bytes(link) + bytes(extra) + bytes(argsOffset) + bytes(argsLength) +
           bytes(argsFileOffset) + bytes(argsFileLength);
}

TimeNs Track::lastEnd() const {
    TimeNs end = 0;
    for (std::size_t i = 0; i < events.size(); ++i)
        end = std::max(end, events.end(i));
    return end;
}

} // namespace sl
