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

std::size_t EventColumns::memoryBytes() const {
    return start.capacity() * sizeof(TimeNs) + duration.capacity() * sizeof(TimeNs) +
           name.capacity() * sizeof(StringId) + kind.capacity() * sizeof(EventKind) +
           depth.capacity() * sizeof(std::uint16_t) + parent.capacity() * sizeof(std::int32_t) +
           correlation.capacity() * sizeof(std::int64_t) + link.capacity() * sizeof(std::uint64_t) +
           extra.capacity() * sizeof(std::uint32_t) + argsOffset.capacity() * sizeof(std::uint64_t) +
           argsLength.capacity() * sizeof(std::uint32_t) + argsFileOffset.capacity() * sizeof(std::uint64_t) +
           argsFileLength.capacity() * sizeof(std::uint32_t);
}

TimeNs Track::lastEnd() const {
    TimeNs end = 0;
    for (std::size_t i = 0; i < events.size(); ++i)
        end = std::max(end, events.end(i));
    return end;
}

} // namespace sl
