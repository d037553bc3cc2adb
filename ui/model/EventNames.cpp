#include "EventNames.h"

namespace sl::ui {

QString shortEventName(std::string_view name) {
    std::string s(name);
    if (s.starts_with("void ")) s.erase(0, 5);
    const std::string anon = "(anonymous namespace)";
    for (std::size_t p = s.find(anon); p != std::string::npos; p = s.find(anon, p))
        s.replace(p, anon.size(), "{anon}");
    if (const std::size_t paren = s.find('('); paren != std::string::npos && paren > 0) s.resize(paren);
    return QString::fromStdString(s);
}

} // namespace sl::ui
