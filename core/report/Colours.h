#pragma once
// One colour table for the desktop program's palette (ui/model/Palette.cpp) and the HTML report
// (report/HtmlParts.h), so a screenshot and a report read the same way. Plain 0xRRGGBB values: the
// core has no Qt (the palette makes QColors of them, the report CSS).
#include "analysis/CriticalPath.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace sl::colours {

// Event categories, in the order of ui::Category (ui/model/Palette.h), chosen to stay apart for
// common colour-vision deficiencies.
inline constexpr std::array<std::uint32_t, 7> kCategory = {
    0x3b7dd8, // compute: blue
    0xe8743b, // communication: orange
    0x2aa876, // memcpy / memset (the report's "memory / other"): green
    0x8e6cc9, // cpu op: purple
    0xc9a227, // runtime: ochre
    0x7a8b99, // annotation: slate
    0x9aa0a6, // other: grey
};

// Critical-path kinds, in PathLabel's order (analysis/CriticalPath.h).
inline constexpr std::array<std::uint32_t, static_cast<std::size_t>(kPathLabelCount)> kPath = {
    0x1c4fb0, // gpu_compute: deep blue
    0xd9480f, // gpu_comm: deep orange
    0xc2255c, // collective_wait: crimson
    0x6741d9, // cpu: violet
    0xe6a100, // launch_latency: amber
    0x099268, // sync: teal
    0x495057, // idle: dark grey
    0xadb5bd, // late_start: light grey
    0xf08c00, // unexplained_wait: orange
};

// The HTML report's GPU-span segments and its measured / simulated bars.
inline constexpr std::uint32_t kOverlappedComm = 0xf4b08a; // communication overlapped with compute
inline constexpr std::uint32_t kExposedComm = 0xd9480f;
inline constexpr std::uint32_t kSpanIdle = 0xdee2e6;
inline constexpr std::uint32_t kMeasured = 0x868e96;
inline constexpr std::uint32_t kSimulated = 0x1c7ed6;

} // namespace sl::colours
