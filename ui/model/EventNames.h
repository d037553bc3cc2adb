#pragma once
#include <QString>

#include <string_view>

namespace sl::ui {

// A short form of an event name for labels: kernel signatures lose "void " and their parameter
// list, "(anonymous namespace)" becomes "{anon}". The full name stays in tooltips and details.
QString shortEventName(std::string_view name);

} // namespace sl::ui
