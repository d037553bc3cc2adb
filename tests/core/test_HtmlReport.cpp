// The HTML report for people (report/HtmlReport.h): a headline with the biggest win and what limits
// the step, every scenario with its knob values ("compute.speedup = 2"), a bar chart of the
// scenarios with throughput where the work per step changed (docs/Scaling.md), every critical-path
// kind of the JSON, and "Written by Sightline <version>" with the program that wrote it. On the
// bundled samples/02-dp4.
#include "TestSupport.h"

#include "analysis/CriticalPath.h"
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "report/HtmlReport.h"
#include "report/SimulationReport.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

using namespace sl;

class TestHtmlReport : public QObject {
    Q_OBJECT
    TraceSet set_;
    ExecutionGraph graph_;
    SimResult replay_;

    nlohmann::json reportOf(const std::vector<std::pair<std::string, std::string>>& knobs,
                            SimResult* out = nullptr) {
        SimKnobs k;
        for (const auto& [key, value] : knobs)
            setKnob(k, key, value);
        SimResult res = simulate(graph_, k);
        nlohmann::json j = simulationReportJson(graph_, res, k, {"samples/02-dp4"}, -1, &replay_);
        if (out) *out = std::move(res);
        return j;
    }

    // A scenario of the GUI's export: its name, knobs and simulation.
    struct Run {
        std::string name;
        SimKnobs knobs;
        SimResult result;
    };
    Run run(const char* name, const std::vector<std::pair<std::string, std::string>>& knobs) {
        Run r{name, {}, {}};
        for (const auto& [key, value] : knobs)
            setKnob(r.knobs, key, value);
        r.result = simulate(graph_, r.knobs);
        return r;
    }
    // A report of `numbers` with the scenarios as the GUI's export gives them (report/Report.h,
    // scenarioTable): the first is the baseline, each limited by "communication kernels".
    Report withScenarios(const nlohmann::json& numbers, const std::vector<Run>& runs) {
        std::vector<ScenarioRun> in;
        for (const Run& r : runs)
            in.push_back({r.name, r.knobs, &r.result, "communication kernels"});
        Report rep;
        rep.numbers = numbers;
        rep.scenarios = scenarioTable(graph_, in, &in.front());
        return rep;
    }
    static std::string page(const Report& report) { return htmlReport(report); }
    static std::string page(const nlohmann::json& numbers) {
        Report rep;
        rep.numbers = numbers;
        return htmlReport(rep);
    }

private slots:
    void initTestCase() {
        set_ = loadTraceSet({sltest::samplePath("02-dp4")});
        graph_ = buildExecutionGraph(set_);
        replay_ = simulate(graph_);
    }

    // Every scenario is named with its knob values; the headline names the biggest win.
    void scenariosWithKnobValues() {
        nlohmann::json fast = reportOf({{"compute.speedup", "2"}});
        nlohmann::json net = reportOf({{"comm.speedup", "1.5"}, {"cpu.speedup", "2"}});
        const Report rep =
            withScenarios(fast, {run("Baseline", {}), run("Faster GPUs", {{"compute.speedup", "2"}}),
                                 run("Network", {{"comm.speedup", "1.5"}, {"cpu.speedup", "2"}})});
        const QString html = QString::fromStdString(page(rep));
        QFile dump(QDir::temp().filePath(QStringLiteral("sightline-report-scenarios.html")));
        if (dump.open(QIODevice::WriteOnly)) dump.write(html.toUtf8()); // to look at when this fails
        QVERIFY(html.contains("compute.speedup = 2"));
        QVERIFY(html.contains("comm.speedup = 1.5, cpu.speedup = 2"));
        // The headline: the shortest step among the what-ifs, with its knobs and the change.
        const bool fastWins =
            fast["iteration"]["simulated_us"].get<double>() < net["iteration"]["simulated_us"].get<double>();
        QVERIFY(html.contains(fastWins ? "Biggest win: Faster GPUs</b> (compute.speedup = 2)"
                                       : "Biggest win: Network</b> (comm.speedup = 1.5"));
        QVERIFY(html.contains("x faster)"));
        QVERIFY(html.contains("What limits the step: communication kernels"));
        // The bar chart: one bar per scenario, with its name and iteration in the tooltip.
        QVERIFY(html.contains("aria-label=\"iteration per scenario\""));
        for (const char* name : {"Baseline", "Faster GPUs", "Network"})
            QVERIFY2(html.contains(QStringLiteral("<title>%1: ").arg(name)), name);
        // No scenario changed the work: no throughput columns.
        QVERIFY(!html.contains("Scaling eff."));
    }

    // dp.degree=32 (weak scaling): the headline and the table give throughput and efficiency.
    void throughputInReport() {
        nlohmann::json big = reportOf({{"dp.degree", "32"}});
        // Alone (the CLI): the headline carries the throughput sentence.
        QString html = QString::fromStdString(page(big));
        QVERIFY(html.contains("<b>dp.degree = 32</b>"));
        QVERIFY(html.contains("7.03x baseline throughput (8x the samples per step"));
        QVERIFY(html.contains("scaling efficiency 88% (weak scaling, 4 -&gt; 32 replicas)"));
        // With scenarios (the GUI): the largest throughput wins although its step is longer.
        const Report rep = withScenarios(big, {run("Baseline", {}), run("32 replicas", {{"dp.degree", "32"}}),
                                               run("Faster GPUs", {{"compute.speedup", "1.1"}})});
        html = QString::fromStdString(page(rep));
        QVERIFY(html.contains("Biggest win: 32 replicas</b> (dp.degree = 32): 7.03x baseline throughput"));
        QVERIFY(html.contains("; the step "));
        QVERIFY(html.contains("<th>Throughput</th><th>Scaling eff.</th>"));
        QVERIFY(html.contains(">7.03x</td><td>88 %</td>"));
        QVERIFY(html.contains("same work"));
    }

    // Only slower scenarios: none is called a win.
    void slowerScenarioIsNoWin() {
        nlohmann::json base = simulationReportJson(graph_, replay_, SimKnobs{}, {"samples/02-dp4"}, -1);
        const double baseUs = base["iteration"]["simulated_us"].get<double>();
        nlohmann::json slow = reportOf({{"compute.speedup", "0.5"}});
        QVERIFY(slow["iteration"]["simulated_us"].get<double>() > baseUs);
        const Report rep =
            withScenarios(slow, {run("Baseline", {}), run("Old GPUs", {{"compute.speedup", "0.5"}})});
        const QString html = QString::fromStdString(page(rep));
        QVERIFY(!html.contains("Biggest win"));
        QVERIFY(html.contains("No scenario beats the baseline; the closest: Old GPUs</b>"));
        QVERIFY(html.contains("x slower)"));
    }

    // Every critical-path kind the JSON has, by the enum: a row with its time in the table.
    void everyPathKind() {
        const nlohmann::json rep = reportOf({{"compute.speedup", "2"}});
        const QString html = QString::fromStdString(page(rep));
        for (int l = 0; l < kPathLabelCount; ++l) {
            const std::string key(pathLabelName(static_cast<PathLabel>(l)));
            QVERIFY2(rep["critical_path"]["by_kind"].contains(key), key.c_str());
            QVERIFY2(html.contains(QStringLiteral("data-kind=\"%1\"").arg(QString::fromStdString(key))),
                     key.c_str());
        }
        QCOMPARE(static_cast<int>(rep["critical_path"]["by_kind"].size()), kPathLabelCount);
    }

    // Timeline pictures (the GUI's export renders them): inline, captioned, never a script.
    void timelineFigures() {
        Report rep;
        rep.numbers = reportOf({{"compute.speedup", "2"}});
        QVERIFY(!QString::fromStdString(page(rep)).contains("<h2>Timelines</h2>"));
        rep.figures = {
            {"Faster GPUs", "compute.speedup = 2",
             "<?xml version=\"1.0\"?>\n<svg viewBox=\"0 0 10 10\"><rect width=\"5\" height=\"5\"/></svg>"},
            {"Evil", "", "<svg><script>alert(1)</script></svg>"}};
        const QString html = QString::fromStdString(page(rep));
        QVERIFY(html.contains("<h2>Timelines</h2>"));
        QVERIFY(html.contains(
            "<figcaption><b>Faster GPUs</b> &middot; compute.speedup = 2</figcaption><svg viewBox"));
        QVERIFY(!html.contains("<?xml"));
        QVERIFY(!html.contains("<script"));
        QVERIFY(!html.contains("<b>Evil</b>"));
    }

    // Who wrote it: the program with its version, and where.
    void writtenBySightline() {
        Report rep;
        rep.numbers = reportOf({{"compute.speedup", "2"}});
        QVERIFY(QString::fromStdString(page(rep)).contains(
            QStringLiteral("Written by Sightline %1.").arg(QString::fromLatin1(sightlineVersion()))));
        rep.generator = "the Sightline window, File > Export Report";
        const QString html = QString::fromStdString(page(rep));
        QVERIFY(html.contains(
            QStringLiteral("Written by Sightline %1 (the Sightline window, File &gt; Export Report)")
                .arg(QString::fromLatin1(sightlineVersion()))));
        QVERIFY(!html.contains("sightline-cli"));
        QVERIFY(QString::fromLatin1(sightlineVersion()).contains('.'));
    }
};

QTEST_GUILESS_MAIN(TestHtmlReport)
#include "test_HtmlReport.moc"
