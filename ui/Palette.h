#pragma once
#include "analysis/CriticalPath.h"
#include "graph/ExecutionGraph.h"
#include "trace/EventKind.h"

#include <QColor>
#include <QString>

#include <cstdint>

namespace sl::ui {

// What a timeline box is, for its colour and the legend.
enum class Category : std::uint8_t {
    Compute,
    Communication,
    Memory,
    CpuOp,
    Runtime,
    Annotation,
    Other,
    Count
};
constexpr int kCategoryCount = static_cast<int>(Category::Count);

Category categoryOf(EventKind kind, bool collectiveName);
QString categoryLabel(Category c);

// The colours of the timeline: a base colour per category, a few shades per category so that
// neighbouring events with different names stay apart, and the dimmed and selected variants.
namespace palette {
constexpr int kShades = 4;
QColor color(Category c, int shade = 0);
QColor dimmed(Category c, int shade = 0);
inline int shadeOf(std::uint32_t nameId) {
    return static_cast<int>((nameId * 2654435761u) >> 30); // 0..3
}
QColor background();
QColor laneBackground(bool odd);
QColor gutter();
QColor text();
QColor textOnBox();
QColor grid();
QColor selection();
QColor rangeFill();
QColor rankHeader();
// Highlights: critical-path segments by label, dependency arrows by edge kind, exposed communication
// and the links of a collective across ranks.
QColor pathColor(PathLabel l);
QString pathLabelText(PathLabel l);
QColor edgeColor(EdgeKind k);
QColor exposed();
QColor exposedLane();
QColor collectiveLink();
} // namespace palette

} // namespace sl::ui
