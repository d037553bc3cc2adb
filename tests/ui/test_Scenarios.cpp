// Scenarios (docs/WhatIfWorkbench.md) on the bundled sample samples/02-dp4 (always present, so
// nothing here skips): the list's rules, scenarios in sessions, the delta table against the numbers
// `sightline-cli simulate --json` prints for the same knobs, the result card's headline worked out
// from those CLI numbers, the upper pane showing a scenario, and the preset box naming the truth
// after manual edits, scenario switches and a session load.
#include "DeltaTable.h"
#include "KnobPanel.h"
#include "MainWindow.h"
#include "ResultCard.h"
#include "Scenario.h"
#include "ScenarioController.h"
#include "ScenariosDock.h"
#include "Session.h"
#include "SessionDocument.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QComboBox>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestScenarios : public QObject {
    Q_OBJECT
    static QString sample() { return QString::fromStdString(sltest::samplePath("02-dp4")); }
    static ScenarioController* ctl(MainWindow& w) { return sltest::scenarios(w); }
    static void settle(MainWindow& w) { QVERIFY(sltest::settleSimulations(w)); }
    static SimKnobs fastGpu() {
        SimKnobs k;
        k.computeSpeedup = 2;
        return k;
    }
    // Shows `w` with the sample loaded, then edits the baseline to GPU 2x (fastGpu(): a new
    // what-if scenario) and waits for both simulations.
    static void openSampleWithFastGpu(MainWindow& w) {
        w.show();
        w.sessions()->openTraces({sample()});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        settle(w);
        w.sessions()->knobs()->setKnobs(fastGpu());
        settle(w);
    }
    static nlohmann::json cli(const QStringList& sets) {
        QStringList args{QStringLiteral("simulate"), sample(), QStringLiteral("--json")};
        for (const QString& s : sets)
            args << QStringLiteral("--set") << s;
        const sltest::CliRun run = sltest::runCli(args);
        if (run.code != 0) qFatal("sightline-cli failed: %s", run.err.constData());
        return nlohmann::json::parse(run.out.toStdString());
    }
    // The name of the preset with exactly these knobs (shipped presets may rename built-in ones).
    static QString presetFor(const KnobPanel& panel, const SimKnobs& k) {
        for (const KnobPreset& p : panel.presets())
            if (p.knobs.toJson() == k.toJson()) return p.name;
        return {};
    }
    static void close(double a, double b) {
        QVERIFY2(std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b)),
                 qPrintable(QStringLiteral("%1 vs %2").arg(a, 0, 'g', 12).arg(b, 0, 'g', 12)));
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_Scenarios");
    }

    void listRules() {
        ScenarioList l;
        QCOMPARE(l.count(), 1);
        QCOMPARE(l.at(0).name, QStringLiteral("Baseline"));
        SimKnobs fast;
        fast.computeSpeedup = 2;
        QCOMPARE(l.add(QStringLiteral("What-if"), fast), 1);
        QCOMPARE(l.add(QStringLiteral("What-if"), fast), 2);
        QCOMPARE(l.at(2).name, QStringLiteral("What-if 2"));
        QCOMPARE(l.duplicate(1), 3);
        QCOMPARE(l.at(3).name, QStringLiteral("What-if copy"));
        QCOMPARE(l.at(3).knobs.computeSpeedup, 2.0);
        QVERIFY(!l.rename(0, QStringLiteral("Other")));     // the baseline keeps its name
        QVERIFY(!l.rename(1, QStringLiteral("what-if 2"))); // taken (names compare case-blind)
        QVERIFY(!l.rename(1, QStringLiteral("  ")));
        QVERIFY(l.rename(1, QStringLiteral("Fast GPU")));
        QVERIFY(!l.remove(0));
        l.setCurrent(3);
        QVERIFY(l.remove(3));
        QCOMPARE(l.current(), 2);
        QCOMPARE(l.count(), 3);
        // Editing the baseline starts a what-if of its own; the baseline stays replay.
        l.setCurrent(0);
        SimKnobs net;
        net.commSpeedup = 4;
        const int added = l.setKnobs(0, net);
        QCOMPARE(added, 3);
        QCOMPARE(l.current(), 3);
        QVERIFY(l.at(0).knobs.isReplay());
        QCOMPARE(l.at(3).knobs.commSpeedup, 4.0);
    }

    // A knob edit is simulated once, by the simulated pane, whose run the scenarios then take: the
    // scenarios used to simulate the same knobs beside it (the edit renames its scenario), doubling
    // the time and memory of every edit (at 131,072 ranks, 8 s and 2.2 GB).
    void editSimulatedOnce() {
        MainWindow w;
        const std::size_t before = ctl(w)->runner()->simulations();
        openSampleWithFastGpu(w); // the baseline's run and the new what-if's: both the pane's
        QCOMPARE(ctl(w)->runner()->simulations(), before);
        SimKnobs k = fastGpu();
        k.computeSpeedup = 3; // an edit of the what-if, which renames it
        w.sessions()->knobs()->setKnobs(k);
        settle(w);
        QCOMPARE(ctl(w)->list()->at(ctl(w)->list()->current()).knobs, k);
        QCOMPARE(ctl(w)->runner()->simulations(), before);
        // Both scenarios have their results (the card and the table).
        QVERIFY(ctl(w)->result(0) && ctl(w)->result(1));
    }

    void sessionKeepsScenarios() {
        Session s;
        s.traces = {QStringLiteral("/tmp/x.json")};
        SimKnobs fast;
        fast.computeSpeedup = 2;
        s.scenarios = {{QStringLiteral("Baseline"), {}}, {QStringLiteral("Fast GPU"), fast}};
        s.currentScenario = 1;
        s.knobs = fast;
        Session back;
        QCOMPARE(sessionFromJson(sessionToJson(s), back), QString());
        QCOMPARE(back.scenarios.size(), std::size_t(2));
        QCOMPARE(back.scenarios[1].name, QStringLiteral("Fast GPU"));
        QCOMPARE(back.scenarios[1].knobs.toJson(), fast.toJson());
        QCOMPARE(back.currentScenario, 1);
        // Bad scenario entries are refused with the reason, never half-read.
        Session bad;
        QVERIFY(sessionFromJson(
                    R"({"format":"sightline-session","version":1,"traces":["a"],"scenarios":[{"knobs":{}}]})",
                    bad)
                    .contains(QStringLiteral("no name")));
        QVERIFY(
            sessionFromJson(
                R"({"format":"sightline-session","version":1,"traces":["a"],"scenarios":[{"name":"A","knobs":{"compute.speedup":"x"}}]})",
                bad)
                .contains(QStringLiteral("scenario \"A\"")));
        QVERIFY(
            sessionFromJson(
                R"({"format":"sightline-session","version":1,"traces":["a"],"scenarios":[{"name":"A"}],"current_scenario":5})",
                bad)
                .contains(QStringLiteral("current_scenario")));
    }

    void deltaTableAndCardMatchTheCli() {
        MainWindow w;
        openSampleWithFastGpu(w);
        const SimKnobs fast = fastGpu();
        ScenarioList* list = ctl(w)->list();
        QCOMPARE(list->count(), 2);
        QCOMPARE(list->current(), 1);

        const nlohmann::json base = cli({}), whatIf = cli({QStringLiteral("compute.speedup=2")});
        auto* table = w.findChild<DeltaTable*>()->model();
        // One row per scenario, with the knobs that differ; the ranks on demand.
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->index(0, DeltaTableModel::Knobs).data().toString(), QStringLiteral("replay"));
        QCOMPARE(table->index(1, DeltaTableModel::Knobs).data().toString(),
                 QStringLiteral("compute.speedup = 2"));
        w.findChild<DeltaTable*>()->setShowRanks(true);
        QCOMPARE(table->rowCount(), 2 * (1 + 4));
        for (int s = 0; s < 2; ++s) {
            const nlohmann::json& j = s == 0 ? base : whatIf;
            const int job = table->jobRow(s);
            QVERIFY(job >= 0);
            close(table->value(job, DeltaTableModel::Iteration),
                  j["iteration"]["simulated_us"].get<double>() / 1000);
            // The rank rows follow the job row in the CLI's rank order.
            for (std::size_t r = 0; r < j["ranks"].size(); ++r) {
                const nlohmann::json& rank = j["ranks"][r];
                const int row = job + 1 + static_cast<int>(r);
                QCOMPARE(table->index(row, DeltaTableModel::Rank).data().toString(),
                         QString::number(rank["rank"].get<int>()));
                close(table->value(row, DeltaTableModel::Compute), rank["compute_us"].get<double>() / 1000);
                close(table->value(row, DeltaTableModel::ExposedComm),
                      rank["exposed_comm_us"].get<double>() / 1000);
                close(table->value(row, DeltaTableModel::Wait), rank["comm_wait_us"].get<double>() / 1000);
                close(table->value(row, DeltaTableModel::Idle), rank["idle_us"].get<double>() / 1000);
            }
        }
        // The card: "<before> ms -> <after> ms (<change>%, <ratio>x faster)" from the CLI's numbers.
        const double b = base["iteration"]["simulated_us"].get<double>() / 1000;
        const double a = whatIf["iteration"]["simulated_us"].get<double>() / 1000;
        QVERIFY(a < b);
        const QString expected = QStringLiteral("%1 ms -> %2 ms (%3%, %4x faster)")
                                     .arg(b, 0, 'f', 2)
                                     .arg(a, 0, 'f', 2)
                                     .arg(100.0 * (a - b) / b, 0, 'f', 1)
                                     .arg(b / a, 0, 'f', 2);
        auto* card = w.findChild<ResultCard*>();
        QVERIFY(card->isVisible());
        QVERIFY2(card->text().contains(expected),
                 qPrintable(card->text() + QStringLiteral(" / ") + expected));
        QVERIFY(card->text().contains(QStringLiteral("compute.speedup = 2")));
        QVERIFY(
            card->text().contains(QStringLiteral("What limits this window: "))); // 02-dp4: 2 ProfilerSteps
        QVERIFY(!presetFor(*w.sessions()->knobs(), fast).isEmpty());
        QCOMPARE(w.sessions()->knobs()->presetLabel(), presetFor(*w.sessions()->knobs(), fast));

        // The upper pane shows the baseline scenario instead of the measured trace, and back.
        auto* dock = w.findChild<ScenariosDock*>();
        dock->setTopPane(0);
        QCOMPARE(part<TimelinePanes>(w)->measured()->data(), ctl(w)->result(0)->output.timeline);
        dock->setTopPane(-1);
        QCOMPARE(part<TimelinePanes>(w)->measured()->data(), w.sessions()->measured());

        // Switching scenarios: the knobs and the preset box follow.
        list->setCurrent(0);
        QCOMPARE(w.sessions()->knobs()->knobs().toJson(), SimKnobs{}.toJson());
        QCOMPARE(w.sessions()->knobs()->presetLabel(), presetFor(*w.sessions()->knobs(), SimKnobs{}));
        list->setCurrent(1);
        QCOMPARE(w.sessions()->knobs()->knobs().computeSpeedup, 2.0);
        // A hand edit that matches no preset says "Custom".
        SimKnobs odd = fast;
        odd.commSpeedup = 1.7;
        w.sessions()->knobs()->setKnobs(odd);
        QCOMPARE(w.sessions()->knobs()->presetLabel(), QStringLiteral("Custom"));
        QCOMPARE(list->at(1).knobs.commSpeedup, 1.7);
        settle(w);

        // A session keeps the scenarios and the current one; loading it shows the truth again.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.sightline.json"));
        QCOMPARE(w.sessions()->document()->saveSession(path), QString());
        MainWindow v;
        v.show();
        QCOMPARE(v.sessions()->openSession(path), QString());
        QVERIFY(v.sessions()->loader()->waitForFinished(60'000));
        settle(v);
        QCOMPARE(ctl(v)->list()->count(), 2);
        QCOMPARE(ctl(v)->list()->current(), 1);
        QCOMPARE(v.sessions()->knobs()->knobs().toJson(), odd.toJson());
        QCOMPARE(v.sessions()->knobs()->presetLabel(), QStringLiteral("Custom"));
        ctl(v)->list()->setCurrent(0);
        QCOMPARE(v.sessions()->knobs()->presetLabel(), presetFor(*v.sessions()->knobs(), SimKnobs{}));
    }

    // File > Export Report (HTML) carries the session's scenarios: names, changed knobs and the
    // change against the baseline, with the iterations `sightline-cli simulate --json` gives.
    void reportHasTheScenarioTable() {
        MainWindow w;
        openSampleWithFastGpu(w);
        const nlohmann::json rows = w.sessions()->scenarioTableJson();
        QCOMPARE(rows.size(), std::size_t{2});
        const double base = cli({})["iteration"]["simulated_us"].get<double>();
        const double whatIf =
            cli({QStringLiteral("compute.speedup=2")})["iteration"]["simulated_us"].get<double>();
        close(rows[1]["iteration_us"].get<double>(), whatIf);
        close(rows[1]["vs_baseline_pct"].get<double>(), 100.0 * (whatIf - base) / base);
        QCOMPARE(rows[1]["changed_knobs"], nlohmann::json::array({"compute.speedup"}));

        QTemporaryDir dir;
        QCOMPARE(w.sessions()->exportReport(dir.filePath("r.html")), QString());
        QFile f(dir.filePath("r.html"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(f.readAll());
        QVERIFY(html.contains("<h2>Scenarios</h2>"));
        QVERIFY(html.contains(ctl(w)->list()->at(1).name.toHtmlEscaped()));
        QVERIFY(html.contains(QString::number(100.0 * (whatIf - base) / base, 'f', 1) + " %"));
        QCOMPARE(w.sessions()->exportReport(dir.filePath("r.json")), QString());
        QFile j(dir.filePath("r.json"));
        QVERIFY(j.open(QIODevice::ReadOnly));
        QCOMPARE(nlohmann::json::parse(j.readAll().toStdString())["scenarios"].size(), std::size_t{2});
    }
};

QTEST_MAIN(TestScenarios)
#include "test_Scenarios.moc"
