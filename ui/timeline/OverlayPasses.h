#pragma once
// The passes the renderer draws over the events (RenderPass.h), in this order: where a hidden replay
// differs, exposed communication, the critical path (with its joints between ranks), the selected
// event's measured place (shift), then, after the names and the find matches, the selection and the
// links of the selected event, and last the notes and bookmarks.
#include "RenderPass.h"

#include <QRect>

#include <array>
#include <vector>

namespace sl::ui {

class DifferencesPass : public RenderPass {
public:
    void paint(const RenderFrame& f) override;
};

class ExposedPass : public RenderPass {
public:
    void paint(const RenderFrame& f) override;

private:
    std::vector<QRect> solid_; // in the exposed lanes
    std::vector<QRect> hatch_; // over communication streams
};

// The on-path slice of each event over its lane (its last shown lane), waits as striped spans; a
// collapsed rank shows every track's pieces in its summary strip; thin lines where the path moves
// to another rank.
class CriticalPathPass : public RenderPass {
public:
    void paint(const RenderFrame& f) override;

private:
    void paintJoints(const RenderFrame& f);
    std::array<std::vector<QRect>, kPathLabelCount> bars_;
    std::array<std::vector<QRect>, kPathLabelCount> waits_; // striped path waits
};

// The selected event where it was measured: a dashed outline, so a shift is seen at a glance.
class ShiftPass : public RenderPass {
public:
    void paint(const RenderFrame& f) override;
};

// The selected time range and the selected event.
class SelectionPass : public RenderPass {
public:
    void paint(const RenderFrame& f) override;
};

class LinksPass : public RenderPass {
public:
    void paint(const RenderFrame& f) override;
};

class AnnotationsPass : public RenderPass {
public:
    void paint(const RenderFrame& f) override;
};

} // namespace sl::ui
