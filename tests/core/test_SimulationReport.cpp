// The report writers (HTML, CSV) agree with the report JSON they are written from.
#include "GraphFixture.h"

#include "report/CsvReport.h"
#include "report/HtmlReport.h"
#include "report/SimulationReport.h"
#include "sim/Simulator.h"

#include <QRegularExpression>

#include <map>
#include <sstream>

using namespace slgraph;

namespace {

// Two ranks: a compute kernel, then an all-reduce overlapping a second compute kernel.
QByteArray rankTrace(int rank) {
    QStringList ev = {
        cpu("cudaLaunchKernel", 10, 5, 1), gpu("sm80_xmma_gemm", 20, 100, 1),
        cpu("cudaLaunchKernel", 20, 5, 2), gpu("ncclDevKernel_AllReduce_Sum_f32", 130, 60, 2, 13),
        cpu("cudaLaunchKernel", 30, 5, 3), gpu("vectorized_elementwise_kernel", 125, 40, 3)};
    return trace(ev, rank, 2);
}

// csv rows "section,rank,metric,value" keyed by "section|rank|metric".
std::map<std::string, std::string> parseCsv(const std::string& csv) {
    std::map<std::string, std::string> rows;
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        QStringList f = QString::fromStdString(line).split(',');
        if (f.size() != 4) continue; // quoted fields are not used for numbers
        rows[(f[0] + "|" + f[1] + "|" + f[2]).toStdString()] = f[3].toStdString();
    }
    return rows;
}

// The two-rank fixture replayed with one knob set (key=value), and its report object.
struct Replayed {
    Fixture f;
    SimKnobs knobs;
    SimResult res;
    Replayed(const char* key, const char* value) {
        f.load({rankTrace(0), rankTrace(1)});
        setKnob(knobs, key, value);
        res = simulate(f.graph, knobs);
    }
    nlohmann::json report(const std::vector<std::string>& paths, int step) const {
        return simulationReportJson(f.graph, res, knobs, paths, step);
    }
};

} // namespace

class TestSimulationReport : public QObject {
    Q_OBJECT
private slots:
    void reportJsonExtendsTheSimulateObject() {
        Replayed run("comm.speedup", "2");
        nlohmann::json sim = simulationResultJson(run.f.graph, run.res, run.knobs);
        nlohmann::json rep = run.report({"a.json", "b.json"}, 3);
        for (const char* k : {"iteration", "ranks", "kernel_start_error_us", "critical_path", "graph",
                              "knobs", "warnings", "warning_stats"}) {
            QVERIFY2(sim.contains(k), k);
            QCOMPARE(rep[k], sim[k]);
        }
        QCOMPARE(rep["source"]["paths"].size(), std::size_t(2));
        QCOMPARE(rep["source"]["step"].get<int>(), 3);
        QCOMPARE(rep["changed_knobs"], nlohmann::json::array({"comm.speedup"}));
        QVERIFY(
            simulationReportJson(run.f.graph, run.res, SimKnobs{}, {"a"}, -1)["source"]["step"].is_null());
        QVERIFY(changedKnobs(SimKnobs{}.toJson()).empty());
    }

    // The warnings come as lines and as counters by kind (warning_stats, the shape of `info`'s):
    // data.workers on a trace without DataLoader ops re-times nothing (data_knobs_no_loader), so
    // the step moves by less than 1% and the knob effect's note is a line too (knob_effect_small).
    void warningStatsCountEveryLine() {
        Replayed run("data.workers", "4");
        const SimResult replay = simulate(run.f.graph);
        const nlohmann::json j = simulationResultJson(run.f.graph, run.res, run.knobs, &replay);
        QVERIFY(j["warning_stats"].is_array());
        std::map<std::string, nlohmann::json> byKey;
        std::size_t lines = 0;
        for (const auto& s : j["warning_stats"]) {
            byKey[s["key"].get<std::string>()] = s;
            lines += s["lines"].get<std::size_t>();
            for (const char* f : {"severity", "count", "message", "example"})
                QVERIFY2(s.contains(f), f);
        }
        QCOMPARE(lines, j["warnings"].size());
        QVERIFY(byKey.count("data_knobs_no_loader"));
        QCOMPARE(byKey["data_knobs_no_loader"]["severity"].get<std::string>(), std::string("data_loss"));
        QCOMPARE(byKey["data_knobs_no_loader"]["count"].get<int>(), 1);
        QVERIFY(byKey.count("knob_effect_small"));
        QCOMPARE(byKey["knob_effect_small"]["example"], j["knob_effect"]["note"]);
    }

    void csvAgreesWithJson() {
        Replayed run("comm.speedup", "1");
        nlohmann::json rep = run.report({"x"}, -1);
        std::string csv = csvReport(rep);
        QVERIFY(csv.rfind("section,rank,metric,value\n", 0) == 0);
        auto rows = parseCsv(csv);
        auto val = [&](const std::string& key) {
            auto it = rows.find(key);
            if (it == rows.end()) qFatal("missing CSV row %s", key.c_str());
            return std::stod(it->second);
        };
        QCOMPARE(val("iteration||measured_us"), rep["iteration"]["measured_us"].get<double>());
        QCOMPARE(val("iteration||simulated_us"), rep["iteration"]["simulated_us"].get<double>());
        QCOMPARE(rep["ranks"].size(), std::size_t(2));
        for (const auto& r : rep["ranks"]) {
            std::string id = std::to_string(r["rank"].get<int>());
            QCOMPARE(val("rank|" + id + "|error_pct"), r["error_pct"].get<double>());
            for (const char* k : {"compute_us", "comm_us", "exposed_comm_us", "memory_us", "idle_us",
                                  "gpu_span_us", "overlap_pct"}) {
                QCOMPARE(val("rank|" + id + "|simulated." + k), r[k].get<double>());
                QCOMPARE(val("rank|" + id + "|measured." + k), r["measured"][k].get<double>());
            }
            double overlapped =
                r["measured"]["comm_us"].get<double>() - r["measured"]["exposed_comm_us"].get<double>();
            QVERIFY(std::abs(val("rank|" + id + "|measured.overlapped_comm_us") - overlapped) < 0.006);
            QVERIFY(r["measured"]["comm_us"].get<double>() > 0);
        }
        QCOMPARE(val("critical_path||length_us"), rep["critical_path"]["length_us"].get<double>());
        QCOMPARE(val("critical_path||gpu_comm_pct"),
                 rep["critical_path"]["by_kind"]["gpu_comm"]["pct"].get<double>());
        QCOMPARE(val("kernel_start_error||p90_us"), rep["kernel_start_error_us"]["p90"].get<double>());
        QCOMPARE(rows.at("knobs||comm.model"), std::string("measured"));
    }

    void csvQuotesFields() {
        QCOMPARE(csvField("plain"), std::string("plain"));
        QCOMPARE(csvField("a,b"), std::string("\"a,b\""));
        QCOMPARE(csvField("say \"hi\""), std::string("\"say \"\"hi\"\"\""));
        nlohmann::json rep = {{"source", {{"paths", {"/data/run,1/rank-0.json"}}, {"step", nullptr}}}};
        QVERIFY(csvReport(rep).find("source,,path,\"/data/run,1/rank-0.json\"\n") != std::string::npos);
    }

    void spanSegmentsAddUpToTheSpan() {
        nlohmann::json b = {{"compute_us", 100.0}, {"comm_us", 60.0}, {"exposed_comm_us", 20.0},
                            {"memory_us", 5.0},    {"idle_us", 30.0}, {"gpu_span_us", 155.0}};
        SpanSegments s = spanSegments(b);
        QCOMPARE(s.computeOnly, 60.0);
        QCOMPARE(s.overlappedComm, 40.0);
        QCOMPARE(s.exposedComm, 20.0);
        QCOMPARE(s.idle, 30.0);
        QCOMPARE(s.other, 5.0);
        QCOMPARE(s.computeOnly + s.overlappedComm + s.exposedComm + s.other + s.idle, 155.0);
        SpanSegments empty = spanSegments(nlohmann::json::object());
        QCOMPARE(empty.computeOnly + empty.idle + empty.other, 0.0);
    }

    void htmlIsSelfContainedAndEscaped() {
        Replayed run("compute.speedup", "1.5");
        nlohmann::json rep = run.report({"/tmp/<evil>&.json"}, -1);
        rep["warnings"].push_back("<script>alert(1)</script> see https://example.com");
        const auto page = [](const nlohmann::json& numbers) {
            Report report;
            report.numbers = numbers;
            return htmlReport(report);
        };
        QString html = QString::fromStdString(page(rep));
        QVERIFY(html.startsWith("<!DOCTYPE html>"));
        QVERIFY(!html.contains("<script", Qt::CaseInsensitive));
        QVERIFY(
            !html.contains(QRegularExpression("(src|href)\\s*=", QRegularExpression::CaseInsensitiveOption)));
        QVERIFY(!html.contains("@import") && !html.contains("url("));
        QVERIFY(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        QVERIFY(html.contains("/tmp/&lt;evil&gt;&amp;.json"));
        QVERIFY(html.contains("compute.speedup = 1.5"));
        QVERIFY(html.contains("whole trace"));
        for (const auto& r : rep["ranks"]) {
            QString id = QString::number(r["rank"].get<int>());
            QVERIFY(html.contains("data-rank=\"" + id + "\""));
            QVERIFY(html.contains("rank " + id));
        }
        QCOMPARE(html.count("<svg"), 3);
        QVERIFY(html.contains("data-kind=\"collective_wait\""));
        // A report with nothing in it still renders.
        QVERIFY(page(nlohmann::json::object()).find("</html>") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestSimulationReport)
#include "test_SimulationReport.moc"
