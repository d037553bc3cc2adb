#pragma once
// An x coordinate clamped to a few pixels around the visible width before it becomes an int: far
// off-screen times (a zoomed-in view of a long trace) would overflow, and the painters that share
// this (TimelineRenderer.cpp, TimelineOverlays.cpp) draw only the visible window.
#include <algorithm>
#include <cmath>

namespace sl::ui {

inline int clampX(double x, int width) {
    return static_cast<int>(std::floor(std::clamp(x, -4.0, static_cast<double>(width) + 4.0)));
}

} // namespace sl::ui
