// The comparison run in the main window (docs/Compare.md, "In the desktop program"), on a generated pair
// where the second run has a GPU twice as fast: it takes the lower pane with its step start on the
// open run's and its rows on the open run's rows (RowLayout along another set), following the one
// zoom; its GPU ops are coloured by delta (faster green below, slower red above, legend); an op
// selected in one pane selects its aligned op in the other; a row of the comparison tables jumps to
// its op in both panes; the result card shows the prediction error.
#include "ComparisonController.h"
#include "ComparisonPair.h"
#include "ComparisonWindow.h"
#include "DeltaColours.h"
#include "FigureRender.h"
#include "ResultCard.h"
#include "ScenariosDock.h"
#include "Selection.h"
#include "TimelineRenderer.h"
#include "TimelineView.h"
#include "WindowParts.h"

#include <QAction>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QTableWidget>
#include <QtTest>

#include <algorithm>

using namespace sl;
using namespace sl::ui;
using sltest::part;

namespace {

// Pixels of a pane's picture in the given delta bins, below the legend (top 40 px).
int pixelsInBins(const QImage& full, std::initializer_list<int> bins) {
    const QImage img = full.copy(0, 40, full.width(), full.height() - 40);
    std::vector<QRgb> colours;
    for (int b : bins)
        colours.push_back(deltaColour(b).rgb());
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            n += std::find(colours.begin(), colours.end(), img.pixel(x, y) | 0xff000000u) != colours.end();
    return n;
}

TimeNs stepStart(const ExecutionGraph& g) {
    TimeNs t = g.ranks.front().windowStart;
    for (const RankWindow& r : g.ranks)
        t = std::min(t, r.windowStart);
    return t;
}

std::string_view nameOf(const TraceSet& set, EventId e) {
    return set.ranks[static_cast<std::size_t>(e.rank)].name(e.ref);
}

} // namespace

class TestComparisonPanes : public QObject {
    Q_OBJECT
    sltest::ComparisonPair pair_;

    void open(MainWindow& w, const SimKnobs& knobs = {}) {
        w.resize(1600, 1000);
        w.show();
        w.sessions()->openTraces({pair_.before});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        if (knobs.computeSpeedup != 1) w.sessions()->knobs()->setKnobs(knobs);
        sltest::settle(w);
        QCOMPARE(w.sessions()->comparison()->openNow({pair_.after}), QString());
        QApplication::processEvents();
    }

private slots:
    // Rank files picked one by one are named by their folder, as the folder itself is ("after", not
    // "rank-0.json"); one file by its name.
    void runNamedByItsFolder() {
        QCOMPARE(ComparisonRun::runName(
                     {QStringLiteral("/runs/after/rank-0.json"), QStringLiteral("/runs/after/rank-1.json")}),
                 QStringLiteral("after"));
        QCOMPARE(ComparisonRun::runName({QStringLiteral("/runs/after")}), QStringLiteral("after"));
        QCOMPARE(ComparisonRun::runName({QStringLiteral("/runs/one.json")}), QStringLiteral("one.json"));
        QCOMPARE(ComparisonRun::runName({QStringLiteral("/a/x.json"), QStringLiteral("/b/y.json")}),
                 QStringLiteral("x.json"));
    }

    void lowerPaneShowsTheRunAlongTheOpenOne() {
        MainWindow w;
        open(w);
        auto* panes = part<TimelinePanes>(w);
        QVERIFY(panes->comparisonShown());
        QVERIFY(panes->comparison()->isVisible());
        QVERIFY(!panes->simulated()->isVisible());
        const auto run = panes->comparisonRun();
        QVERIFY(run && run->ok());
        QCOMPARE(&panes->comparison()->data()->set(), run->set.get());
        // Step start on step start.
        QCOMPARE(stepStart(*run->graph) + run->offset, stepStart(*run->openGraph));
        // The rows: every row below sits where the open run's row of the same track sits above,
        // and shows the track of the same name.
        const RowLayout& up = panes->measured()->layout();
        const RowLayout& low = panes->comparison()->layout();
        QVERIFY(low.rows().size() >= up.rows().size() - 2);
        QCOMPARE(low.height(), up.height());
        const TraceSet& a = *run->openGraph->trace;
        int tracks = 0;
        for (const Row& row : low.rows()) {
            const int i = up.rowAt(row.y);
            QVERIFY(i >= 0);
            const Row& u = up.rows()[static_cast<std::size_t>(i)];
            QCOMPARE(u.y, row.y);
            QCOMPARE(u.track, row.stateTrack);
            if (!row.isTrack()) continue;
            ++tracks;
            QCOMPARE(
                run->set->ranks[static_cast<std::size_t>(row.rank)]
                    .tracks[static_cast<std::size_t>(row.track)]
                    .name,
                a.ranks[static_cast<std::size_t>(u.rank)].tracks[static_cast<std::size_t>(u.track)].name);
        }
        QVERIFY(tracks >= 4);
        // One zoom: a window set on the shared controller moves the lower pane's boxes too.
        const EventId k = run->jumpTo("Classes", "gemm").run;
        QVERIFY(k.valid());
        ViewController* view = w.sessions()->view();
        const QRectF before =
            TimelineRenderer::eventRect(*panes->comparison()->data(), low, view->mapping(), k);
        view->setWindow(view->windowStart(),
                        view->windowStart() + (view->windowEnd() - view->windowStart()) / 4);
        const QRectF after =
            TimelineRenderer::eventRect(*panes->comparison()->data(), low, view->mapping(), k);
        QVERIFY(!before.isEmpty());
        QVERIFY2(after.width() > 3 * before.width(),
                 qPrintable(QString("%1 %2").arg(before.width()).arg(after.width())));
        // Back to the simulation and again.
        panes->showComparison(false);
        QVERIFY(panes->simulated()->isVisible());
        QVERIFY(!panes->measured()->deltas());
        panes->showComparison(true);
        QVERIFY(panes->measured()->deltas());
    }

    void wholeTraceRunsAlignAtTheirFirstEvent() {
        // Kineto's own before/after example: no ProfilerStep (the whole trace is the window) and
        // clocks 73 s apart; the run below starts where the open one does.
        const QString dir = QString::fromStdString(sltest::tracePath("single-rank"));
        const QString before = dir + "/h100-cuda-sync-before-fix.json",
                      after = dir + "/h100-cuda-sync-after-fix.json";
        if (!QFileInfo::exists(before) || !QFileInfo::exists(after)) QSKIP("../shared/traces is not here");
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        w.sessions()->openTraces({before});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        sltest::settle(w);
        QCOMPARE(w.sessions()->comparison()->openNow({after}), QString());
        auto* panes = part<TimelinePanes>(w);
        QCOMPARE(panes->comparison()->data()->start(), panes->measured()->data()->start());
        QVERIFY(std::abs(panes->comparisonRun()->offset) > 70'000'000'000LL);
    }

    void eventsColouredByDelta() {
        MainWindow w;
        open(w);
        auto* panes = part<TimelinePanes>(w);
        w.sessions()->view()->fitAll();
        QApplication::processEvents();
        const auto run = panes->comparisonRun();
        // Compute kernels took half as long below: "≥25% faster" there, "≥25% slower" above;
        // communication kernels the same.
        const EventId gemm = run->jumpTo("Classes", "gemm").run;
        QCOMPARE(run->deltas->at(gemm.rank, gemm.ref.track, gemm.ref.index), std::int8_t(0));
        const EventId gemmOpen = run->partnerInOpen(gemm);
        QCOMPARE(run->openDeltas->at(gemmOpen.rank, gemmOpen.ref.track, gemmOpen.ref.index), std::int8_t(6));
        const QImage below = panes->comparison()->grab().toImage();
        const QImage above = panes->measured()->grab().toImage();
        QVERIFY2(pixelsInBins(below, {0}) > 500, qPrintable(QString::number(pixelsInBins(below, {0}))));
        QCOMPARE(pixelsInBins(below, {5, 6}), 0);
        QVERIFY(pixelsInBins(above, {6}) > 500);
        QCOMPARE(pixelsInBins(above, {0, 1}), 0);
        // Off: no delta colours.
        panes->showComparison(false);
        QCOMPARE(pixelsInBins(panes->measured()->grab().toImage(), {6}), 0);
    }

    void predictedAboveActualBelow() {
        // The upper pane shows the current scenario (a 2x faster GPU predicted from the first run):
        // its ops are coloured against the run it predicted, so the halved kernels are "same" in
        // both panes; the measured run above again: "slower" above, "faster" below.
        MainWindow w;
        SimKnobs k;
        k.computeSpeedup = 2;
        open(w, k);
        auto* panes = part<TimelinePanes>(w);
        const auto run = panes->comparisonRun();
        const EventId gemm = run->jumpTo("Classes", "gemm").run;
        const EventId gemmOpen = run->partnerInOpen(gemm);
        const auto above = [&] {
            return panes->measured()->deltas()->at(gemmOpen.rank, gemmOpen.ref.track, gemmOpen.ref.index);
        };
        const auto below = [&] {
            return panes->comparison()->deltas()->at(gemm.rank, gemm.ref.track, gemm.ref.index);
        };
        QCOMPARE(above(), std::int8_t(6));
        QCOMPARE(below(), std::int8_t(0));
        const int current = part<ScenarioController>(w)->list()->current();
        QVERIFY(part<ScenarioController>(w)->result(current));
        part<ScenariosDock>(w)->setTopPane(current);
        QVERIFY(panes->measured()->data() != w.sessions()->measured());
        QCOMPARE(above(), std::int8_t(kDeltaSame));
        QCOMPARE(below(), std::int8_t(kDeltaSame));
        part<ScenariosDock>(w)->setTopPane(-1);
        QCOMPARE(above(), std::int8_t(6));
        QCOMPARE(below(), std::int8_t(0));
    }

    void exportedPictureHasTheColours() {
        // File > Export Figure draws what the panes show: the comparison run below, both runs in
        // the delta colours; with the simulation below again, the simulation in normal colours.
        MainWindow w;
        open(w);
        auto* panes = part<TimelinePanes>(w);
        const QSize size(1600, 900);
        const auto render = [&] {
            const Figure fig = w.sessions()->timelineFigure(size);
            QImage img(size, QImage::Format_ARGB32);
            img.fill(Qt::white);
            QPainter p(&img);
            paintFigure(p, fig);
            return std::make_pair(fig, img);
        };
        const auto [fig, img] = render();
        QCOMPARE(fig.simulated, panes->comparisonRun()->timeline);
        QVERIFY(fig.simulatedTitle.startsWith("Comparison: after"));
        QVERIFY2(pixelsInBins(img, {0}) > 500, qPrintable(QString::number(pixelsInBins(img, {0}))));
        QVERIFY(pixelsInBins(img, {6}) > 500);
        panes->showComparison(false);
        const auto [sim, plain] = render();
        QCOMPARE(sim.simulated, w.sessions()->simulation().timeline);
        QCOMPARE(pixelsInBins(plain, {0, 6}), 0);
    }

    void selectionFollowsTheAlignedOp() {
        MainWindow w;
        open(w);
        auto* panes = part<TimelinePanes>(w);
        const auto run = panes->comparisonRun();
        const EventId open = run->jumpTo("Kernels", "ncclDevKernel_AllReduce_Sum_f32_RING_LL").open;
        const EventId any = open.valid() ? open : run->jumpTo("Classes", "gemm").open;
        QVERIFY(any.valid());
        w.sessions()->selection()->setEvent(any);
        const EventId below = panes->comparisonSelection()->event();
        QVERIFY(below.valid());
        QCOMPARE(nameOf(*run->set, below), nameOf(*run->openGraph->trace, any));
        // And back: a click below selects the aligned op above.
        w.sessions()->selection()->clearEvent();
        panes->comparisonSelection()->setEvent(below);
        QCOMPARE(w.sessions()->selection()->event(), any);
    }

    void tableRowJumpsToTheOpInBothPanes() {
        MainWindow w;
        open(w);
        auto* panes = part<TimelinePanes>(w);
        QAction* tables = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == QStringLiteral("Comparison &Tables...")) tables = a;
        QVERIFY(tables && tables->isEnabled());
        tables->trigger();
        auto* win = w.findChild<ComparisonWindow*>();
        QVERIFY(win && win->finished());
        QTableWidget* kernels = win->table("Kernels");
        QVERIFY(kernels && kernels->rowCount() > 2);
        const int row = 1;
        const std::string key = kernels->item(row, 0)->text().toStdString();
        win->tabs()->setCurrentWidget(kernels);
        QVERIFY(QTest::qWaitForWindowExposed(win));
        QTest::mouseClick(kernels->viewport(), Qt::LeftButton, {},
                          kernels->visualItemRect(kernels->item(row, 0)).center());
        const EventId a = w.sessions()->selection()->event(), b = panes->comparisonSelection()->event();
        QVERIFY(a.valid() && b.valid());
        const auto run = panes->comparisonRun();
        QCOMPARE(std::string(nameOf(*run->openGraph->trace, a)), key);
        QCOMPARE(std::string(nameOf(*run->set, b)), key);
        // Both ops inside the window, and the open one's row in view.
        ViewController* view = w.sessions()->view();
        const auto& ea =
            run->openGraph->trace->ranks[static_cast<std::size_t>(a.rank)].tracks[a.ref.track].events;
        const auto& eb = run->set->ranks[static_cast<std::size_t>(b.rank)].tracks[b.ref.track].events;
        QVERIFY(ea.start[a.ref.index] >= view->windowStart() && ea.end(a.ref.index) <= view->windowEnd());
        QVERIFY(eb.start[b.ref.index] + run->offset >= view->windowStart() &&
                eb.end(b.ref.index) + run->offset <= view->windowEnd());
        // Zoomed to the two ops (their span again on each side), not left where it was.
        const TimeNs lo = std::min(ea.start[a.ref.index], eb.start[b.ref.index] + run->offset);
        const TimeNs hi = std::max(ea.end(a.ref.index), eb.end(b.ref.index) + run->offset);
        QVERIFY(view->windowEnd() - view->windowStart() <= 3 * (hi - lo) + 2000);
        const int r = panes->measured()->layout().rowOf(a.rank, static_cast<int>(a.ref.track));
        QVERIFY(r >= 0);
        const int y = panes->measured()->layout().rows()[static_cast<std::size_t>(r)].y - view->scrollY();
        QVERIFY2(y >= 0 && y < panes->measured()->height(), qPrintable(QString::number(y)));
        win->close();
    }

    void cardShowsThePredictionError() {
        {
            MainWindow w;
            SimKnobs k;
            k.computeSpeedup = 2;
            open(w, k);
            auto* card = part<ResultCard>(w);
            const QString text = card->text();
            QVERIFY2(text.contains("Against after (measured): predicted "), qPrintable(text));
            const QString line = w.sessions()->comparison()->predictionLine();
            const QRegularExpressionMatch m = QRegularExpression("error (-?[0-9.]+)%").match(line);
            QVERIFY2(m.hasMatch(), qPrintable(line));
            QVERIFY2(std::abs(m.captured(1).toDouble()) < 1.0, qPrintable(line));
            QVERIFY2(!line.contains("WORSE than no change"), qPrintable(line));
        }
        {
            // A slower GPU predicted for the faster run: further off than assuming no change.
            MainWindow w;
            SimKnobs k;
            k.computeSpeedup = 0.5;
            open(w, k);
            const QString line = w.sessions()->comparison()->predictionLine();
            QVERIFY2(line.endsWith(": WORSE than no change"), qPrintable(line));
        }
        {
            // The replay (no knob) against the faster run: a large error.
            MainWindow w;
            open(w);
            const QString line = w.sessions()->comparison()->predictionLine();
            const QRegularExpressionMatch m = QRegularExpression("error (-?[0-9.]+)%").match(line);
            QVERIFY2(m.hasMatch(), qPrintable(line));
            QVERIFY2(std::abs(m.captured(1).toDouble()) > 15.0, qPrintable(line));
            // Closing the run clears the line and gives the lower pane back to the simulation.
            w.sessions()->comparison()->close();
            QVERIFY(!part<ResultCard>(w)->text().contains("Against"));
            QVERIFY(!part<TimelinePanes>(w)->comparisonShown());
        }
    }
};

QTEST_MAIN(TestComparisonPanes)
#include "test_ComparisonPanes.moc"
