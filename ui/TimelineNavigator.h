#pragma once
// Getting around the timeline (docs/ARCHITECTURE.md, "GUI"): revealing an event (find, the critical
// path table) and the context menus of an event in a pane and of a track label (in a pane or the
// track tree). It connects the panes' and the track tree's menu requests itself.
#include "Selection.h"

#include "trace/TraceSet.h"

#include <QObject>

#include <memory>
#include <vector>

class QAction;
class QMenu;
class QTreeView;
class QWidget;

namespace sl::ui {

class FindBar;
class SessionController;
class TimelinePanes;
class TimelineData;
class TrackState;
class TrackTreeModel;
class ViewController;

class TimelineNavigator : public QObject {
    Q_OBJECT
public:
    struct Parts {
        SessionController* session = nullptr;
        TimelinePanes* panes = nullptr;
        TrackTreeModel* trackModel = nullptr;
        QTreeView* trackTree = nullptr;
        FindBar* findBar = nullptr;
        // Toggles the event menu offers (the same actions as the View menu's).
        QAction* criticalPath = nullptr;
        QAction* arrows = nullptr;
    };
    // window: the parent of the menus it pops up.
    TimelineNavigator(const Parts& parts, QWidget* window);

    // Selects an event and brings it into view: shows its track, expands its rank and its nested rows
    // down to the event's depth, centres it in time (zooming out when it is wider than the window) and
    // scrolls both panes and the track tree to its row.
    void revealEvent(EventId e);
    // The same without moving in time (a lesson step that sets its own time range).
    void revealEventRow(EventId e);
    // A lesson step's focus: these ranks expanded with their CPU threads (nested calls shown)
    // and/or GPU streams, the first rank's header scrolled to the top of the panes.
    void focusRanks(const std::vector<int>& ranks, bool cpu, bool gpu);
    // The critical path key (C, when it turns the path on): reveals the longest stretch of the path
    // on the rank that holds most of it, where the path runs rather than where the view is (DLRM:
    // rank 7, below the two ranks on screen). A view change, not an edit of the session.
    void revealCriticalPath();
    // The context menus, returned (not shown) so that tests can trigger their actions (objectName
    // per action): of an event in a pane (e invalid: empty space) and of a track label (track -1:
    // the rank's header). The caller owns the menu.
    QMenu* eventMenu(EventId e, bool simulatedPane, QWidget* parent);
    QMenu* trackMenu(int rank, int track, QWidget* parent);

private:
    void reveal(EventId e, bool centreInTime);
    std::shared_ptr<const TraceSet> set() const;
    std::shared_ptr<const TimelineData> measured() const;

    Parts p_;
    QWidget* window_;
    TrackState* tracks_;
    SelectionModel* selection_;
    ViewController* controller_;
};

} // namespace sl::ui
