#pragma once
#include "analysis/CriticalPath.h"
#include "graph/ExecutionGraph.h"
#include "trace/EventClass.h"
#include "trace/EventKind.h"

#include <QColor>
#include <QString>

#include <cstdint>
#include <string_view>

namespace sl::ui {

// What a timeline box is, for its colour and the legend: a grouping of the event classes of
// trace/EventClass.h (docs/ARCHITECTURE.md, "Event taxonomy").
enum class Category : std::uint8_t {
    Compute,       // compute kernels
    Communication, // communication kernels and the host ops that issue them
    MemcpyMemset,  // GPU copies and sets
    CpuOp,         // CPU ops, Python functions, user annotations
    Runtime,       // runtime / driver calls and cuda_sync waits
    Annotation,    // GPU annotations
    Other,
    Count
};
constexpr int kCategoryCount = static_cast<int>(Category::Count);

Category categoryOf(EventClass c);
// categoryOf(eventClassByKind(kind, communicationName)): the colour needs no kernel compute class.
Category categoryOf(EventKind kind, bool communicationName);
QString categoryLabel(Category c);

// The colours of the timeline: a base colour per category, a few shades per category so that
// neighbouring events with different names stay apart, and the dimmed and selected variants.
namespace palette {
constexpr int kShades = 4;
QColor color(Category c, int shade = 0);
QColor dimmed(Category c, int shade = 0);
// The shade of an event name: a stable hash (FNV-1a) of the name's text, so the same name has the
// same colour on every rank, in both panes and in every run, whatever id each rank interned it as.
int shadeOfName(std::string_view name);
QColor background();
QColor laneBackground(bool odd);
QColor gutter();
QColor text();
QColor textOnBox();
QColor grid();
QColor selection();
QColor rangeFill();
QColor rankHeader();
// A group row (ranks grouped by node, stage or replica): dark, so groups stand apart.
QColor groupHeader();
// Highlights: critical-path segments by label, dependency arrows by edge kind, exposed communication
// and the links of a collective across ranks.
QColor pathColor(PathLabel l);
QString pathLabelText(PathLabel l);
QColor edgeColor(EdgeKind k);
QColor exposed();
QColor exposedLane();
QColor collectiveLink();
QColor findMatch();
// One pane under replay: the spans where the replay differs from the measurement.
QColor replayDifference();
} // namespace palette

} // namespace sl::ui
