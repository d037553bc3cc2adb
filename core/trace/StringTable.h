#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sl {

using StringId = std::uint32_t;

// Interns strings so that events store a 4-byte id instead of a name. Ids are dense and stable;
// id 0 is always the empty string. Views returned by str() stay valid for the table's lifetime.
class StringTable {
public:
    StringTable();
    StringTable(const StringTable&) = delete;
    StringTable& operator=(const StringTable&) = delete;
    StringTable(StringTable&&) noexcept = default;
    StringTable& operator=(StringTable&&) noexcept = default;

    StringId intern(std::string_view s);
    // Returns the id of s, or -1 cast to StringId (kNone) when s was never interned.
    StringId find(std::string_view s) const;
    std::string_view str(StringId id) const { return views_[id]; }
    std::size_t size() const { return views_.size(); }
    std::size_t memoryBytes() const;

    static constexpr StringId kNone = static_cast<StringId>(-1);

private:
    std::deque<std::string> storage_; // deque: growth never moves existing strings
    std::vector<std::string_view> views_;
    std::unordered_map<std::string_view, StringId> index_;
};

} // namespace sl
