#pragma once
#include "trace/Time.h"
#include "trace/Track.h"

#include <QObject>

namespace sl::ui {

// One event of a trace set: its rank (index into TraceSet::ranks) and where it is in that rank.
struct EventId {
    int rank = -1;
    EventRef ref;
    bool valid() const { return rank >= 0 && ref.valid(); }
    friend bool operator==(const EventId&, const EventId&) = default;
};

// What the user selected: one event, and a time range. Every pane and panel follows it, so an
// event selected in the measured pane is selected in the simulated pane too.
class SelectionModel : public QObject {
    Q_OBJECT
public:
    explicit SelectionModel(QObject* parent = nullptr) : QObject(parent) {}

    EventId event() const { return event_; }
    void setEvent(EventId e) {
        if (e == event_) return;
        event_ = e;
        emit eventChanged(e);
    }
    void clearEvent() { setEvent({}); }

    bool hasRange() const { return rangeEnd_ > rangeStart_; }
    TimeNs rangeStart() const { return rangeStart_; }
    TimeNs rangeEnd() const { return rangeEnd_; }
    void setRange(TimeNs a, TimeNs b) {
        if (b < a) std::swap(a, b);
        if (a == rangeStart_ && b == rangeEnd_) return;
        rangeStart_ = a;
        rangeEnd_ = b;
        emit rangeChanged();
    }
    void clearRange() { setRange(0, 0); }

signals:
    void eventChanged(sl::ui::EventId e);
    void rangeChanged();

private:
    EventId event_;
    TimeNs rangeStart_ = 0;
    TimeNs rangeEnd_ = 0;
};

} // namespace sl::ui
