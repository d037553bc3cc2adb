#include "trace/GroupRole.h"

#include "trace/AsciiText.h"

#include <cctype>
#include <string>

namespace sl {

std::string_view groupRoleName(GroupRole role) {
    switch (role) {
    case GroupRole::Data:
        return "dp";
    case GroupRole::Tensor:
        return "tp";
    case GroupRole::Pipeline:
        return "pp";
    case GroupRole::World:
        return "world";
    default:
        return "other";
    }
}

namespace {

// `w` appears in `s` as a word (no letter on either side): "pp" in "pp_fwd", not in "app".
bool hasWord(const std::string& s, std::string_view w) {
    for (std::size_t p = s.find(w); p != std::string::npos; p = s.find(w, p + 1)) {
        bool before = p == 0 || !std::isalpha(static_cast<unsigned char>(s[p - 1]));
        bool after = p + w.size() >= s.size() || !std::isalpha(static_cast<unsigned char>(s[p + w.size()]));
        if (before && after) return true;
    }
    return false;
}

} // namespace

GroupRole roleFromDescription(std::string_view desc) {
    const std::string l = asciiLower(desc);
    if (l == "default_pg" || hasWord(l, "world") || hasWord(l, "default")) return GroupRole::World;
    if (hasWord(l, "pp") || l.find("pipe") != std::string::npos) return GroupRole::Pipeline;
    if (hasWord(l, "tp") || l.find("tensor") != std::string::npos) return GroupRole::Tensor;
    if (hasWord(l, "dp") || l.find("ddp") != std::string::npos || l.find("data") != std::string::npos)
        return GroupRole::Data;
    return GroupRole::Other;
}

} // namespace sl
