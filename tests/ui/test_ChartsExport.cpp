// Charts and exports on the bundled 8-rank sample samples/01-dp8-straggler (always present, so
// nothing here skips): chart series hold the core's numbers, the charts follow every simulator run,
// the simulated trace and the report files parse back, the view saves as PNG and SVG.
#include "ChartData.h"
#include "ChartsPanel.h"
#include "Export.h"
#include "MainWindow.h"
#include "SimRunner.h"
#include "SimulationDriver.h"
#include "WindowParts.h"
#include "io/KinetoLoader.h"

#include "TestSupport.h"

#include <QBarSet>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QImage>
#include <QPieSeries>
#include <QPieSlice>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace sl;
using namespace sl::ui;
using sltest::part;

namespace {
std::string readAll(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
double ms(TimeNs t) {
    return static_cast<double>(t) / 1e6;
}
} // namespace

class TestChartsExport : public QObject {
    Q_OBJECT
    std::shared_ptr<const TraceSet> set_;
    SimOutput sim_;

    void ensureLoaded() {
        if (set_) return;
        set_ = std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("01-dp8-straggler")}));
        sim_ = SimRunner::runNow(set_, {});
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_ChartsExport");
    }

    void chartSeriesEqualCoreNumbers() {
        ensureLoaded();
        ChartsPanel panel;
        panel.setSimulation(sim_);
        const auto measured = measuredBreakdown(*set_, sim_.graph.get());
        const auto simulated = simulatedBreakdown(*set_, sim_.result->timeline);
        const std::size_t n = set_->ranks.size();
        auto* bd = panel.breakdownSeries();
        QCOMPARE(bd->count(), static_cast<int>(ChartData::PartCount));
        for (int part = 0; part < ChartData::PartCount; ++part) {
            const QBarSet* set = bd->barSets()[part];
            QCOMPARE(set->count(), static_cast<int>(2 * n));
            for (std::size_t r = 0; r < n; ++r) {
                const RankBreakdown& m = measured[r];
                const RankBreakdown& s = simulated[r];
                const TimeNs mv[] = {m.compute, m.exposedCommunication, m.overlappedCommunication(), m.idle};
                const TimeNs sv[] = {s.compute, s.exposedCommunication, s.overlappedCommunication(), s.idle};
                QCOMPARE(set->at(static_cast<int>(2 * r)), ms(mv[part]));
                QCOMPARE(set->at(static_cast<int>(2 * r + 1)), ms(sv[part]));
            }
        }
        // Critical path composition.
        const CriticalPath path = criticalPath(*sim_.graph, *sim_.result);
        QCOMPARE(panel.pathSeries()->count(), kPathLabelCount);
        for (int l = 0; l < kPathLabelCount; ++l)
            QCOMPARE(panel.pathSeries()->slices()[l]->value(), ms(path.byLabel[static_cast<std::size_t>(l)]));
        // Iteration per rank, measured and simulated, error in the data.
        auto* it = panel.iterationSeries();
        QCOMPARE(it->count(), 2);
        for (std::size_t r = 0; r < n; ++r) {
            const RankSimSummary& s = sim_.result->ranks[r];
            QCOMPARE(it->barSets()[0]->at(static_cast<int>(r)), ms(s.measured()));
            QCOMPARE(it->barSets()[1]->at(static_cast<int>(r)), ms(s.simulated()));
            QCOMPARE(panel.data().ranks[r].errorPct, s.errorPct());
        }
    }

    void chartsFollowSimulatorRuns() {
        ensureLoaded();
        MainWindow w;
        w.show();
        w.sessions()->showTraceSet(set_);
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        QVERIFY(w.sessions()->simulation().result);
        const double before = part<ChartsPanel>(w)->data().ranks[0].simulatedIterationMs;
        QCOMPARE(before, ms(w.sessions()->simulation().result->ranks[0].simulated()));
        SimKnobs k;
        k.computeSpeedup = 2.0; // the straggler sample is bound by its GPU kernels
        w.sessions()->simRunner()->request(k, 0);
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        QCOMPARE(part<ChartsPanel>(w)->data().ranks[0].simulatedIterationMs,
                 ms(w.sessions()->simulation().result->ranks[0].simulated()));
        QVERIFY(part<ChartsPanel>(w)->data().ranks[0].simulatedIterationMs < before);
    }

    void exportedTraceParsesBack() {
        ensureLoaded();
        QTemporaryDir dir;
        const QString path = dir.filePath("sim.json");
        QCOMPARE(writeSimulatedTrace(path, *set_, sim_.result->timeline), QString());
        const auto j = nlohmann::json::parse(readAll(path));
        std::int64_t expected = 0;
        for (std::size_t r = 0; r < set_->ranks.size(); ++r)
            for (std::size_t k = 0; k < set_->ranks[r].tracks.size(); ++k) {
                const auto& ev = set_->ranks[r].tracks[k].events;
                const auto& tt = sim_.result->timeline.track(r, k);
                for (std::size_t i = 0; i < ev.size(); ++i)
                    expected += tt.start[i] >= 0 && ev.kind[i] != EventKind::Instant;
            }
        std::int64_t complete = 0;
        for (const auto& e : j["traceEvents"])
            if (e["ph"] == "X") {
                ++complete;
                QVERIFY(e["dur"].get<double>() >= 0);
            }
        QCOMPARE(complete, expected);
        // A second load of it through the project's own loader works too.
        const TraceSet back = loadTraceSet({path.toStdString()});
        QVERIFY(back.eventCount() > 0);
        QVERIFY(
            !writeSimulatedTrace(dir.filePath("no/such/dir/x.json"), *set_, sim_.result->timeline).isEmpty());
    }

    // File > Export Report writes what `sightline-cli report` writes for the same traces and knobs
    // (one report model): the JSON objects are equal but for the source paths, the CSV rows equal but
    // for the source rows, and the HTML is the CLI's page.
    void reportEqualsTheCliReport() {
        ensureLoaded();
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(!w.sessions()->exportReport(dir.filePath("none.json")).isEmpty()); // nothing simulated yet
        w.sessions()->driver()->setAutoSimulate(false);
        w.sessions()->showTraceSet(set_);
        w.sessions()->driver()->showSimulation(sim_);
        for (const char* name : {"gui.json", "gui.csv", "gui.html"})
            QCOMPARE(w.sessions()->exportReport(dir.filePath(name)), QString());
        const sltest::CliRun cli = sltest::runCli(
            {"report", QString::fromStdString(sltest::samplePath("01-dp8-straggler")), "--json",
             dir.filePath("cli.json"), "--csv", dir.filePath("cli.csv"), "--out", dir.filePath("cli.html")});
        QCOMPARE(cli.code, 0);

        auto gui = nlohmann::json::parse(readAll(dir.filePath("gui.json")));
        auto ref = nlohmann::json::parse(readAll(dir.filePath("cli.json")));
        QCOMPARE(gui["ranks"].size(), set_->ranks.size());
        gui.erase("source");
        ref.erase("source");
        // Who wrote each (the footer's "Written by Sightline <version> (...)"): the window, not the CLI.
        QCOMPARE(gui["generator"].get<std::string>(),
                 std::string("the Sightline window, File > Export Report"));
        QCOMPARE(ref["generator"].get<std::string>(), std::string("sightline-cli report"));
        gui.erase("generator");
        ref.erase("generator");
        QVERIFY2(gui == ref, "the GUI's JSON report differs from sightline-cli report --json");

        auto rowsWithoutSource = [&](const char* name) {
            QStringList rows =
                QString::fromStdString(readAll(dir.filePath(name))).split('\n', Qt::SkipEmptyParts);
            rows.removeIf([](const QString& r) { return r.startsWith("source,"); });
            return rows;
        };
        const QStringList guiCsv = rowsWithoutSource("gui.csv"), cliCsv = rowsWithoutSource("cli.csv");
        QVERIFY(guiCsv.size() > static_cast<int>(set_->ranks.size()));
        QCOMPARE(guiCsv, cliCsv);

        const std::string html = readAll(dir.filePath("gui.html"));
        QVERIFY(html.rfind("<!DOCTYPE html>", 0) == 0 || html.find("<html") != std::string::npos);
        QVERIFY(html.find("Critical path") != std::string::npos ||
                html.find("critical path") != std::string::npos);
        QVERIFY(html.find("Written by Sightline ") != std::string::npos);
        QVERIFY(html.find("sightline-cli") == std::string::npos);
        QCOMPARE(w.sessions()->exportSimulatedTrace(dir.filePath("t.json")), QString());
    }

    void saveViewPngAndSvg() {
        ensureLoaded();
        QTemporaryDir dir;
        MainWindow w;
        w.sessions()->driver()->setAutoSimulate(false);
        w.resize(1200, 800);
        w.show();
        w.sessions()->showTraceSet(set_);
        w.sessions()->driver()->showSimulation(sim_);
        QCOMPARE(w.saveView(dir.filePath("v.png")), QString());
        QImage img(dir.filePath("v.png"));
        QVERIFY(!img.isNull());
        QVERIFY(img.width() >= 1200);
        QCOMPARE(w.saveView(dir.filePath("v.svg")), QString());
        const std::string svg = readAll(dir.filePath("v.svg"));
        QVERIFY(svg.find("<svg") != std::string::npos);
        QVERIFY(svg.size() > 10'000);
    }
};

QTEST_MAIN(TestChartsExport)
#include "test_ChartsExport.moc"
