#include "trace/StringTable.h"

namespace sl {

StringTable::StringTable() {
    intern(std::string_view{});
}

StringId StringTable::intern(std::string_view s) {
    if (auto it = index_.find(s); it != index_.end()) return it->second;
    storage_.emplace_back(s);
    std::string_view stored = storage_.back();
    auto id = static_cast<StringId>(views_.size());
    views_.push_back(stored);
    index_.emplace(stored, id);
    return id;
}

StringId StringTable::find(std::string_view s) const {
    auto it = index_.find(s);
    return it == index_.end() ? kNone : it->second;
}

std::size_t StringTable::memoryBytes() const {
    std::size_t bytes = views_.capacity() * sizeof(std::string_view) + index_.size() * 48;
    for (const auto& s : storage_)
        bytes += sizeof(std::string) + (s.size() > 15 ? s.capacity() : 0);
    return bytes;
}

} // namespace sl
