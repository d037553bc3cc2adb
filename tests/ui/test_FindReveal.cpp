// Find reveals what it finds: the match's rank expands, its hidden track shows, its nested rows open,
// both panes and the track tree scroll to it, all matches are outlined in both panes; next / previous
// walk the matches. Context menus on events (find similar, zoom to, copy name, pin / hide the track)
// and on track labels (pin, hide, move, collapse the rank, collapse the others).
#include "FindBar.h"
#include "FindResultsModel.h"
#include "MainWindow.h"
#include "SimRunner.h"
#include "TimeFormat.h"
#include "TimelinePanes.h"
#include "TimelineRenderer.h"
#include "TimelineView.h"
#include "TrackState.h"
#include "TrackTreeModel.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "SyntheticTrace.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QTableView>
#include <QTreeView>
#include <QtTest>

#include <memory>

using namespace sl;
using namespace sl::ui;
using sltest::part;

namespace {

QAction* actionNamed(QMenu* menu, const char* name) {
    for (QAction* a : menu->actions())
        if (a->objectName() == QLatin1String(name)) return a;
    return nullptr;
}

// Whether event e's row is inside the measured pane's visible part, and the window shows its start.
bool inView(MainWindow& w, EventId e) {
    TimelineView* pane = part<TimelinePanes>(w)->measured();
    const QRectF r =
        TimelineRenderer::eventRect(*pane->data(), pane->layout(), w.sessions()->view()->mapping(), e);
    if (r.isEmpty()) return false;
    const int top = w.sessions()->view()->scrollY();
    const auto& t = w.sessions()->measured()->track(static_cast<std::size_t>(e.rank), e.ref.track);
    return r.top() >= top && r.bottom() <= top + pane->height() &&
           t.start[e.ref.index] >= w.sessions()->view()->windowStart() &&
           t.start[e.ref.index] <= w.sessions()->view()->windowEnd();
}

struct Fixture {
    std::unique_ptr<MainWindow> w = std::make_unique<MainWindow>();
    std::shared_ptr<const TraceSet> set = sltest::makeSyntheticSet(8, 2, 400);
    Fixture() {
        w->resize(1400, 800);
        w->show();
        w->sessions()->showTraceSet(set, {QStringLiteral("/synthetic/find")});
        w->sessions()->simRunner()->waitForIdle(60'000);
        QCoreApplication::processEvents();
    }
};

} // namespace

class TestFindReveal : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_FindReveal");
    }

    void revealsCollapsedHiddenNested() {
        Fixture f;
        MainWindow& w = *f.w;
        TrackState* tracks = w.sessions()->tracks();
        // Everything open and nested (a tall pane), then rank 7 collapsed with its CPU thread hidden and
        // folded: its launches (depth 2) have no row at all.
        tracks->setAllRanksExpanded(true);
        for (std::size_t r = 0; r < 8; ++r)
            tracks->setTrackNested(r, 0, true);
        tracks->setTrackNested(7, 0, false);
        tracks->setTrackHidden(7, 0, true);
        tracks->setRankExpanded(7, false);
        QCOMPARE(part<TimelinePanes>(w)->measured()->layout().rowOf(7, 0), -1);

        part<FindBar>(w)->activate();
        part<FindBar>(w)->field()->setText(QStringLiteral("cudaLaunchKernel"));
        part<FindBar>(w)->refresh();
        const EventSearch& search = part<FindBar>(w)->search();
        QCOMPARE(search.count(), std::size_t{8 * 133});
        // Put the cursor just before a late match of rank 7, then Next.
        int target = -1;
        for (std::size_t i = search.count(); i-- > 0 && target < 0;)
            if (search.match(i).rank == 7) target = static_cast<int>(i);
        QVERIFY(target > 0);
        part<FindBar>(w)->showMatch(target - 1);
        part<FindBar>(w)->findNext();
        const EventId e = w.sessions()->selection()->event();
        QCOMPARE(e, search.match(static_cast<std::size_t>(target)));
        QVERIFY(tracks->rankExpanded(7));
        QVERIFY(!tracks->trackHidden(7, 0));
        QVERIFY(tracks->trackNested(7, 0));
        QVERIFY(part<TimelinePanes>(w)->measured()->layout().rowOf(7, 0) >= 0);
        QVERIFY(w.sessions()->view()->scrollY() > 0); // rank 7 is at the bottom of a tall pane
        QVERIFY(inView(w, e));
        // The tree points at the track.
        auto* tree = w.findChild<QTreeView*>();
        const auto [r, t] = part<TrackTreeModel>(w)->location(tree->currentIndex());
        QCOMPARE(r, 7);
        QCOMPARE(t, 0);
        // Previous goes back to the match before (wherever it is), and reveals it too.
        part<FindBar>(w)->findPrevious();
        const EventId before = w.sessions()->selection()->event();
        QCOMPARE(before, search.match(static_cast<std::size_t>(target - 1)));
        QVERIFY(inView(w, before));
        part<FindBar>(w)->findNext();
        QCOMPARE(w.sessions()->selection()->event(), e);
    }

    // The results list: one row per match with name, rank, track, start, duration; clicking a row
    // reveals that match, and next / previous move the list's selection.
    void resultsList() {
        Fixture f;
        MainWindow& w = *f.w;
        part<FindBar>(w)->activate();
        part<FindBar>(w)->field()->setText(QStringLiteral("ncclDevKernel"));
        part<FindBar>(w)->findNext();
        const EventSearch& search = part<FindBar>(w)->search();
        FindResultsModel* model = part<FindResultsModel>(w);
        QCOMPARE(static_cast<std::size_t>(model->rowCount()), search.count());
        QVERIFY(model->rowCount() > 10);
        const int row = 7;
        const EventId e = search.match(row);
        QCOMPARE(model->data(model->index(row, FindResultsModel::Name)).toString(),
                 QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
        QCOMPARE(model->data(model->index(row, FindResultsModel::Rank)).toInt(), e.rank);
        const auto& t = w.sessions()->measured()->track(static_cast<std::size_t>(e.rank), e.ref.track);
        QCOMPARE(model->data(model->index(row, FindResultsModel::Start)).toString(),
                 formatPrecise(t.start[e.ref.index] - w.sessions()->measured()->start()));
        QTableView* view = part<QTableView>(w, QStringLiteral("findResults"));
        const QRect cell = view->visualRect(model->index(row, 0));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(w.sessions()->selection()->event(), e);
        QVERIFY(inView(w, e));
        part<FindBar>(w)->findNext();
        QCOMPARE(view->selectionModel()->selectedRows().value(0).row(), row + 1);
        // Closing the bar empties the list.
        part<FindBar>(w)->hide();
        QCOMPARE(model->rowCount(), 0);
    }

    void matchesOutlinedInBothPanes() {
        Fixture f;
        MainWindow& w = *f.w;
        part<FindBar>(w)->activate();
        part<FindBar>(w)->field()->setText(QStringLiteral("softmax"));
        part<FindBar>(w)->findNext();
        QVERIFY(part<FindBar>(w)->search().count() > 0);
        w.sessions()->view()->setWindow(w.sessions()->measured()->start(),
                                        w.sessions()->measured()->start() + 200'000);
        for (TimelineView* pane : {part<TimelinePanes>(w)->measured(), part<TimelinePanes>(w)->simulated()}) {
            QVERIFY(pane->data());
            pane->repaint();
            QVERIFY2(pane->lastStats().matches > 0, qPrintable(pane->objectName()));
        }
        // Closing the bar takes the outlines away.
        part<FindBar>(w)->hide();
        part<TimelinePanes>(w)->measured()->repaint();
        QCOMPARE(part<TimelinePanes>(w)->measured()->lastStats().matches, 0);
    }

    void eventMenu() {
        Fixture f;
        MainWindow& w = *f.w;
        // A softmax kernel of rank 1's first stream.
        const Track& stream = f.set->ranks[1].tracks[1];
        std::uint32_t index = 0;
        while (f.set->ranks[1].strings.str(stream.events.name[index]) != "softmax_fwd")
            ++index;
        const EventId e{1, {1, index}};
        std::unique_ptr<QMenu> menu(part<TimelineNavigator>(w)->eventMenu(e, false, &w));
        // Find similar: exactly this name, every rank, the cursor on this event.
        actionNamed(menu.get(), "findSimilar")->trigger();
        QVERIFY(part<FindBar>(w)->isVisible());
        QVERIFY(part<FindBar>(w)->wholeName());
        std::size_t expected = 0;
        for (const Rank& rank : f.set->ranks)
            for (const Track& track : rank.tracks)
                for (std::size_t i = 0; i < track.events.size(); ++i)
                    expected += rank.strings.str(track.events.name[i]) == "softmax_fwd" ? 1U : 0U;
        QCOMPARE(part<FindBar>(w)->search().count(), expected);
        QCOMPARE(
            part<FindBar>(w)->search().match(static_cast<std::size_t>(part<FindBar>(w)->search().current())),
            e);
        part<FindBar>(w)->findNext();
        const EventId next = w.sessions()->selection()->event();
        QVERIFY(!(next == e));
        QCOMPARE(f.set->ranks[static_cast<std::size_t>(next.rank)].name(next.ref),
                 std::string_view("softmax_fwd"));
        // Copy name.
        actionNamed(menu.get(), "copyName")->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("softmax_fwd"));
        // Zoom to it.
        actionNamed(menu.get(), "zoomToEvent")->trigger();
        QCOMPARE(w.sessions()->selection()->event(), e);
        QVERIFY(w.sessions()->view()->windowStart() <= stream.events.start[index]);
        QVERIFY(w.sessions()->view()->windowEnd() >= stream.events.end(index));
        QVERIFY(w.sessions()->view()->windowDuration() < stream.events.duration[index] * 2);
        // Its time range.
        actionNamed(menu.get(), "rangeOfEvent")->trigger();
        QCOMPARE(w.sessions()->selection()->rangeStart(), stream.events.start[index]);
        QCOMPARE(w.sessions()->selection()->rangeEnd(), stream.events.end(index));
        // Pin its track: first row of both panes.
        actionNamed(menu.get(), "pinTrack")->trigger();
        QVERIFY(w.sessions()->tracks()->trackPinned(1, 1));
        QCOMPARE(part<TimelinePanes>(w)->measured()->layout().rows().front().rank, 1);
        QCOMPARE(part<TimelinePanes>(w)->measured()->layout().rows().front().track, 1);
        QVERIFY(part<TimelinePanes>(w)->measured()->layout().rows().front().pinned);
        // The critical path toggle is in the menu.
        QVERIFY(menu->actions().contains(w.menus()->criticalPathAction()));
        std::unique_ptr<QMenu> again(part<TimelineNavigator>(w)->eventMenu(e, false, &w));
        QCOMPARE(actionNamed(again.get(), "pinTrack")->text(), QStringLiteral("Unpin Its Track"));
        actionNamed(again.get(), "hideTrack")->trigger();
        QVERIFY(w.sessions()->tracks()->trackHidden(1, 1));
        // On empty space: only the view items.
        std::unique_ptr<QMenu> empty(part<TimelineNavigator>(w)->eventMenu({}, false, &w));
        QVERIFY(!actionNamed(empty.get(), "findSimilar"));
        QVERIFY(actionNamed(empty.get(), "fitAll"));
        QVERIFY(actionNamed(empty.get(), "clearRange"));
        // The simulated pane's menu zooms to the simulated times.
        const auto& sim = part<TimelinePanes>(w)->simulated()->data()->track(1, 1);
        std::unique_ptr<QMenu> simMenu(part<TimelineNavigator>(w)->eventMenu(e, true, &w));
        actionNamed(simMenu.get(), "zoomToEvent")->trigger();
        QVERIFY(w.sessions()->view()->windowStart() <= sim.start[index] &&
                w.sessions()->view()->windowEnd() >= sim.end(index));
    }

    void trackMenu() {
        Fixture f;
        MainWindow& w = *f.w;
        TrackState* tracks = w.sessions()->tracks();
        tracks->setAllRanksExpanded(true);
        std::unique_ptr<QMenu> header(part<TimelineNavigator>(w)->trackMenu(3, -1, &w));
        actionNamed(header.get(), "collapseRank")->trigger();
        QVERIFY(!tracks->rankExpanded(3));
        std::unique_ptr<QMenu> menu(part<TimelineNavigator>(w)->trackMenu(2, 1, &w));
        actionNamed(menu.get(), "collapseOthers")->trigger();
        for (std::size_t r = 0; r < 8; ++r)
            QCOMPARE(tracks->rankExpanded(r), r == 2);
        // The panes follow (one header row per collapsed rank, rank 2's tracks under its header).
        const RowLayout& layout = part<TimelinePanes>(w)->measured()->layout();
        QCOMPARE(layout.rows().size(), std::size_t{8 + 3});
        QCOMPARE(part<TimelinePanes>(w)->simulated()->layout().rows().size(), std::size_t{8 + 3});
        QVERIFY(layout.rowOf(2, 1) >= 0 && layout.rowOf(3, 1) < 0);
        actionNamed(menu.get(), "pinTrack")->trigger();
        QVERIFY(tracks->trackPinned(2, 1));
        // Move: the CPU thread is first, stream 7 second; move stream 7 up.
        tracks->setTrackPinned(2, 1, false);
        std::unique_ptr<QMenu> move(part<TimelineNavigator>(w)->trackMenu(2, 1, &w));
        QCOMPARE(tracks->order(2)[1], std::size_t{1});
        actionNamed(move.get(), "moveUp")->trigger();
        QCOMPARE(tracks->order(2)[0], std::size_t{1});
        actionNamed(move.get(), "hideTrack")->trigger();
        QVERIFY(tracks->trackHidden(2, 1));
        std::unique_ptr<QMenu> rank2(part<TimelineNavigator>(w)->trackMenu(2, -1, &w));
        QVERIFY(actionNamed(rank2.get(), "showHidden")->isEnabled());
        QCOMPARE(layout.rowOf(2, 1), -1);
        actionNamed(rank2.get(), "showHidden")->trigger();
        QVERIFY(!tracks->trackHidden(2, 1));
        QVERIFY(layout.rowOf(2, 1) >= 0);
        std::unique_ptr<QMenu> cpu(part<TimelineNavigator>(w)->trackMenu(2, 0, &w));
        QVERIFY(actionNamed(cpu.get(), "nestTrack")); // the CPU thread has nested rows
        actionNamed(cpu.get(), "nestTrack")->trigger();
        QVERIFY(tracks->trackNested(2, 0));
    }

    // A right click (no drag) on an event or a label asks for its menu; a right drag still selects.
    void rightClickAndRightDrag() {
        Fixture f;
        MainWindow& w = *f.w;
        TimelineView* pane = part<TimelinePanes>(w)->measured();
        w.sessions()->view()->setWindow(w.sessions()->measured()->start(),
                                        w.sessions()->measured()->start() + 100'000);
        const EventId e{0, {1, 3}};
        const QRectF r =
            TimelineRenderer::eventRect(*pane->data(), pane->layout(), w.sessions()->view()->mapping(), e);
        QVERIFY(!r.isEmpty());
        const QPoint at(w.sessions()->view()->gutterWidth() + static_cast<int>(r.center().x()),
                        static_cast<int>(r.center().y()) - w.sessions()->view()->scrollY());
        QSignalSpy events(pane, &TimelineView::eventMenuRequested);
        QSignalSpy labels(pane, &TimelineView::trackMenuRequested);
        QTest::mouseClick(pane, Qt::RightButton, {}, at);
        QCOMPARE(events.count(), 1);
        QCOMPARE(events[0][0].value<EventId>(), e);
        QCOMPARE(w.sessions()->selection()->event(), e); // the window selects what the menu is about
        if (QWidget* popup = QApplication::activePopupWidget()) popup->close();
        QTest::mouseClick(pane, Qt::RightButton, {}, QPoint(20, at.y()));
        QCOMPARE(labels.count(), 1);
        QCOMPARE(labels[0][0].toInt(), 0);
        QCOMPARE(labels[0][1].toInt(), 1);
        if (QWidget* popup = QApplication::activePopupWidget()) popup->close();
        // Right drag: a range, no menu.
        QTest::mousePress(pane, Qt::RightButton, {}, at);
        QTest::mouseMove(pane, at + QPoint(120, 0));
        QTest::mouseRelease(pane, Qt::RightButton, {}, at + QPoint(120, 0));
        QCOMPARE(events.count(), 1);
        QVERIFY(w.sessions()->selection()->hasRange());
    }
};

QTEST_MAIN(TestFindReveal)
#include "test_FindReveal.moc"
