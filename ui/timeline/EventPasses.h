#pragma once
// The passes of the events themselves (RenderPass.h): their boxes (with the grid and the row
// backgrounds under them), their names, and the outlines of find matches. The events pass collects
// the names and the matches while it walks the lanes; the later passes draw them over the overlays.
// They are the renderer's own (TimelineRenderer.cpp).
#include "Palette.h"
#include "RenderPass.h"

#include <QFont>
#include <QRect>
#include <QString>

#include <array>
#include <vector>

namespace sl::ui {

// What the events pass leaves for the passes after it, per frame.
struct EventMarks {
    struct Label {
        QRect rect;
        int rank;
        StringId name;
        Category category;
    };
    std::vector<Label> labels;  // names that fit their box
    std::vector<QRect> matches; // boxes of find matches
};

// Row backgrounds, the grid and the event boxes: only events inside the window (binary search in
// each lane), sub-pixel runs folded into one box whose colour is the longest event's, one fill call
// per colour.
class EventsPass : public RenderPass {
public:
    explicit EventsPass(EventMarks& marks) : marks_(marks) {}
    void paint(const RenderFrame& f) override;

private:
    // flags: per-event highlight flags when the critical path is shown (nullptr: nothing on the path
    // in this track, all dimmed), dim: whether the critical path is shown. boxHeight 0: a lane's
    // height; labels false: a collapsed rank's summary strip (no names, one shade per category).
    void paintLane(const TimelineData& data, int rank, const TrackTimeline& track, const Lane& lane,
                   const TimeMapping& m, int width, int top, const std::uint8_t* flags, bool dim,
                   const std::vector<bool>* matches, RenderStats& stats, int boxHeight = 0,
                   bool labels = true);
    void collect(const RenderFrame& f);
    void fill(QPainter& p);

    // Colour buckets: normal category shades, dimmed category shades, critical-path labels, shift
    // bins, delta bins.
    static constexpr int kNormalBuckets = kCategoryCount * palette::kShades;
    static constexpr int kShiftBase = 2 * kNormalBuckets + kPathLabelCount;
    static constexpr int kDeltaBase = kShiftBase + kShiftBins;
    static constexpr int kBuckets = kDeltaBase + kDeltaBins;
    std::array<std::vector<QRect>, kBuckets> batches_;
    EventMarks& marks_;
    // The measured track of the lane being painted when colouring by shift (null: normal colours).
    const TrackTimeline* shiftRef_ = nullptr;
    TimeNs shiftScale_ = 0;
    // The delta bins of the lane's track when colouring by delta (null: not).
    const EventDeltas* deltas_ = nullptr;
    const std::int8_t* deltaRef_ = nullptr;
};

// The names the events pass found room for, elided to their box; keeps their texts between frames.
class LabelsPass : public RenderPass {
public:
    explicit LabelsPass(const EventMarks& marks) : marks_(marks) {}
    void paint(const RenderFrame& f) override;
    void setFont(const QFont& f);
    bool fontReady() const { return fontReady_; }
    void clearCache() { labels_.clear(); }

private:
    struct Label {
        QString text;
        int width = -1;
    };
    const Label& label(const TimelineData& data, int rank, StringId name);

    const EventMarks& marks_;
    std::vector<std::vector<Label>> labels_; // [rank][name id]
    QFont font_;
    int charWidth_ = 7;
    int ellipsisWidth_ = 10;
    bool fontReady_ = false;
};

// Find matches: an amber frame around each (after the names, under the selection).
class MatchesPass : public RenderPass {
public:
    explicit MatchesPass(const EventMarks& marks) : marks_(marks) {}
    void paint(const RenderFrame& f) override;

private:
    const EventMarks& marks_;
};

} // namespace sl::ui
