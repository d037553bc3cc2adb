// One pane under replay (docs/ManyRanks.md): with the lower pane hidden because a plain replay
// "shows the same", the measured pane shades each rank's spans where the replay does not, so what
// the hidden pane would have shown is not lost (03-tp2-pp2: a dozen GPU ops replay 1-10 us off).
// The spans are checked against the two timelines by an independent pass over every GPU op, and the
// shading against a render of the pane without it.
#include "ReplayDifferences.h"
#include "ScenariosDock.h"
#include "TimelineView.h"
#include "ViewController.h"
#include "WindowParts.h"

#include <QCheckBox>
#include <QImage>
#include <QSettings>
#include <QtTest>

#include <cstdlib>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestReplayDifferences : public QObject {
    Q_OBJECT
    static void open(MainWindow& w, const char* sample) {
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
        QVERIFY(sltest::openSample(w, sample));
        QCoreApplication::processEvents();
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_ReplayDifferences");
    }
    void init() { QSettings().clear(); }

    void onePaneShadesWhereTheReplayDiffers() {
        MainWindow w;
        open(w, "03-tp2-pp2");
        auto* panes = part<TimelinePanes>(w);
        TimelineView* measured = panes->measured();
        QVERIFY(!measured->differences()); // two panes: nothing hidden, nothing shaded
        part<ScenariosDock>(w)->onePaneBox()->setChecked(true);
        QCoreApplication::processEvents();
        QVERIFY(!panes->simulated()->isVisible());
        const auto diffs = measured->differences();
        QVERIFY(diffs);
        const TimelineData& meas = *measured->data();
        const TimelineData& sim = *panes->simulated()->data();
        QCOMPARE(diffs->levels.size(), std::size_t{4});
        QVERIFY2(measured->note().contains(QStringLiteral("differs only where shaded")),
                 qPrintable(measured->note()));

        // Independently, at every level: each GPU op whose replayed start or end is more than the
        // level's tolerance off lies inside a span of its rank, and each span starts at such an op.
        for (const ReplayDifferences::Level& level : diffs->levels) {
            QCOMPARE(level.spans.size(), meas.ranks().size());
            std::size_t differing = 0, ranks = 0;
            for (std::size_t r = 0; r < meas.ranks().size(); ++r) {
                const auto& spans = level.spans[r];
                std::vector<TimeNs> starts;
                for (std::size_t k = 0; k < meas.ranks()[r].tracks.size(); ++k) {
                    if (!meas.track(r, k).track->isGpu()) continue;
                    const TrackTimeline& a = meas.track(r, k);
                    const TrackTimeline& b = sim.track(r, k);
                    for (std::uint32_t e = 0; e < b.track->events.size(); ++e) {
                        if (a.start[e] < 0 || b.start[e] < 0) continue;
                        if (std::llabs(b.start[e] - a.start[e]) <= level.tolerance &&
                            std::llabs(b.end(e) - a.end(e)) <= level.tolerance)
                            continue;
                        ++differing;
                        const TimeNs lo = std::min(a.start[e], b.start[e]), hi = std::max(a.end(e), b.end(e));
                        starts.push_back(lo);
                        QVERIFY2(std::any_of(spans.begin(), spans.end(),
                                             [&](const auto& s) { return s.first <= lo && hi <= s.second; }),
                                 qPrintable(QStringLiteral("rank %1 op %2").arg(r).arg(e)));
                    }
                }
                if (!starts.empty()) ++ranks;
                for (const auto& s : spans)
                    QVERIFY(std::find(starts.begin(), starts.end(), s.first) != starts.end());
            }
            qInfo("tolerance %lld ns: %zu GPU ops on %zu ranks differ, %zu spans",
                  static_cast<long long>(level.tolerance), differing, ranks, [&] {
                      std::size_t n = 0;
                      for (const auto& s : level.spans)
                          n += s.size();
                      return n;
                  }());
            QCOMPARE(level.ops, differing);
            QCOMPARE(level.ranks, ranks);
        }
        QVERIFY(diffs->levels.front().ops > 0); // the replay of 03-tp2-pp2 is not exact to 1 us

        // The level follows the zoom: the coarsest whose tolerance is two pixels or less.
        QCOMPARE(diffs->levelFor(400.0).tolerance, TimeNs{1'000});
        QCOMPARE(diffs->levelFor(5'000.0).tolerance, TimeNs{10'000});
        QCOMPARE(diffs->levelFor(1e9).tolerance, TimeNs{1'000'000});
        QCOMPARE(diffs->levelFor(1.0).tolerance, TimeNs{1'000});

        // Painted: the pane with the shading differs from the same pane without it, and only in
        // columns that a span of the level drawn covers. Zoomed to a tenth of the step, so the
        // drawn level has spans.
        ViewController* view = w.sessions()->view();
        view->setWindow(meas.start(), meas.start() + (meas.end() - meas.start()) / 10);
        QCoreApplication::processEvents();
        const TimeMapping m = view->mapping();
        const ReplayDifferences::Level& drawn = diffs->levelFor(m.nsPerPixel);
        measured->repaint();
        const QImage with = measured->grab().toImage();
        QVERIFY(measured->lastStats().differenceBoxes > 0);
        measured->setDifferences(nullptr);
        const QImage without = measured->grab().toImage();
        QCOMPARE(measured->lastStats().differenceBoxes, 0);
        measured->setDifferences(diffs);
        QCOMPARE(with.size(), without.size());
        const QRect area = measured->eventArea();
        std::vector<bool> spanColumn(static_cast<std::size_t>(area.width()), false);
        for (const auto& spans : drawn.spans)
            for (const auto& s : spans)
                for (int x = std::max(0, static_cast<int>(m.x(s.first)) - 1);
                     x <= std::min(area.width() - 1, static_cast<int>(m.x(s.second)) + 1); ++x)
                    spanColumn[static_cast<std::size_t>(x)] = true;
        int shaded = 0, stray = 0;
        for (int y = area.top(); y <= area.bottom(); ++y)
            for (int x = area.left(); x <= area.right(); ++x)
                if (with.pixel(x, y) != without.pixel(x, y))
                    ++(spanColumn[static_cast<std::size_t>(x - area.left())] ? shaded : stray);
        qInfo("level %lld ns at %.0f ns/px: shaded pixels %d, outside the spans %d",
              static_cast<long long>(drawn.tolerance), m.nsPerPixel, shaded, stray);
        QVERIFY(shaded > 1000);
        QCOMPARE(stray, 0);

        // Back to two panes: the lower pane shows the replay again, nothing is shaded.
        part<ScenariosDock>(w)->onePaneBox()->setChecked(false);
        QVERIFY(!measured->differences());
    }

    // The replay of 01-dp8-straggler puts every GPU op within 1 us of its measured place: one pane
    // shows all there is, nothing is shaded, and the note says so.
    void exactReplayShadesNothing() {
        MainWindow w;
        open(w, "01-dp8-straggler");
        part<ScenariosDock>(w)->onePaneBox()->setChecked(true);
        QCoreApplication::processEvents();
        TimelineView* measured = part<TimelinePanes>(w)->measured();
        QVERIFY(measured->differences());
        QVERIFY(measured->differences()->empty());
        QCOMPARE(measured->note(), QStringLiteral("One pane: the replay (Baseline) shows the same"));
        measured->repaint();
        QCOMPARE(measured->lastStats().differenceBoxes, 0);
    }
};

QTEST_MAIN(TestReplayDifferences)
#include "test_ReplayDifferences.moc"
