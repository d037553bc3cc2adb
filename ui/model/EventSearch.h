#pragma once
#include "Selection.h"
#include "TimelineData.h"

#include <QString>

#include <vector>

namespace sl::ui {

// Find by name: the events whose name contains a text (case-insensitive), or is exactly it, in start
// order across all ranks and tracks, with a cursor that next() / previous() move and wrap.
class EventSearch {
public:
    // Returns the number of matches; at most maxMatches are kept (truncated() says so).
    std::size_t search(const TimelineData& data, const QString& text, std::size_t maxMatches = 2'000'000,
                       bool wholeName = false);
    void clear();

    std::size_t count() const { return matches_.size(); }
    bool truncated() const { return truncated_; }
    // The cursor: -1 before the first next().
    int current() const { return current_; }
    EventId match(std::size_t i) const { return matches_[i].id; }
    // Moves the cursor to the first match that starts at or after t (for "find from here").
    void seek(TimeNs t);
    // Puts the cursor on event e when it is a match (next() then goes on from it); false if it is not.
    bool setCurrent(EventId e);
    // The cursor's match by index (for a results list).
    void setCurrentIndex(int i) { current_ = i; }
    TimeNs matchStart(std::size_t i) const { return matches_[i].start; }
    // Which names matched: nameHits()[rank][name id] (what the panes outline).
    const std::vector<std::vector<bool>>& nameHits() const { return hits_; }
    EventId next();
    EventId previous();

private:
    struct Match {
        TimeNs start;
        EventId id;
    };
    std::vector<Match> matches_;
    std::vector<std::vector<bool>> hits_;
    int current_ = -1;
    bool truncated_ = false;
};

} // namespace sl::ui
