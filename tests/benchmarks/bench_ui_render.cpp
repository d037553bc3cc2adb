// Frame time of the timeline renderer on a large synthetic trace (about 10 million events), drawn
// into a 1600x1000 QImage at several zoom levels; of 64 ranks collapsed, expanded, compact and
// grouped, whole and zoomed; and of the added-ranks strip of a 16,384-rank job (dp.degree=16384 on
// the bundled 4-rank sample). Budget (docs/ARCHITECTURE.md): under 16 ms a frame. And a knob change
// in the whole window at 131,072 ranks, until its result shows (goal: within 5 s).
//   bench_ui_render [--events=N] [benchmark flags]
#include "AddedRanksStrip.h"
#include "KnobPanel.h"
#include "MainWindow.h"
#include "RowLayout.h"
#include "ScenarioController.h"
#include "SessionController.h"
#include "SimRunner.h"
#include "SimulationDriver.h"
#include "TimelineData.h"
#include "TimelineRenderer.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "ViewController.h"

#include "../ui/SyntheticTrace.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "synth/Generator.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QPainter>
#include <QTimer>

#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace {

std::int64_t gEvents = 10'000'000;

struct Model {
    std::shared_ptr<const sl::TraceSet> set;
    std::shared_ptr<const sl::ui::TimelineData> data;
    sl::ui::TrackState state;
    sl::ui::RowLayout layout;
    double buildSeconds = 0;
};

Model& model() {
    static Model* m = [] {
        auto* mm = new Model;
        const int ranks = 8, streams = 3;
        // CPU tracks get about 2/3 of eventsPerTrack events.
        const auto perTrack =
            static_cast<std::int64_t>(static_cast<double>(gEvents) / (ranks * (streams + 2.0 / 3.0)));
        const auto t0 = std::chrono::steady_clock::now();
        mm->set = sltest::makeSyntheticSet(ranks, streams, perTrack);
        mm->data = sl::ui::TimelineData::measured(mm->set);
        mm->buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        mm->state.reset(*mm->set);
        for (std::size_t r = 0; r < mm->state.rankCount(); ++r)
            mm->state.setTrackNested(r, 0, true);
        mm->layout.build(*mm->set, mm->state);
        std::fprintf(stderr, "model: %lld events, built in %.2f s\n",
                     static_cast<long long>(mm->data->eventCount()), mm->buildSeconds);
        return mm;
    }();
    return *m;
}

// range(0): visible fraction of the trace, as 1 / range(0); range(1): vertical scroll in px.
void BM_RenderFrame(benchmark::State& state) {
    Model& m = model();
    QImage image(1600 - sl::ui::TimelineRenderer::kGutterWidth, 1000, QImage::Format_ARGB32_Premultiplied);
    sl::ui::TimelineRenderer renderer;
    const sl::TimeNs span = m.data->end() - m.data->start();
    const sl::TimeNs window = std::max<sl::TimeNs>(span / state.range(0), 1000);
    const sl::TimeNs start = m.data->start() + (span - window) / 2;
    const auto mapping = sl::ui::TimeMapping::fromWindow(start, start + window, image.width());
    sl::ui::RenderStats stats;
    for (auto _ : state) {
        QPainter p(&image);
        stats = renderer.paintEvents(p, *m.data, m.layout, mapping, image.size(),
                                     static_cast<int>(state.range(1)), {});
        p.end();
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["boxes"] = stats.boxes;
    state.counters["labels"] = stats.labels;
    state.counters["events"] = static_cast<double>(m.data->eventCount());
}
BENCHMARK(BM_RenderFrame)
    ->Args({1, 0})
    ->Args({10, 0})
    ->Args({1000, 0})
    ->Args({100000, 0})
    ->Args({1, 600})
    ->Unit(benchmark::kMillisecond);

// Many ranks: 64 ranks x (1 thread + 2 streams), about 1.3 M events.
// range(0): 1 = every rank collapsed (each header row shows its summary strip), 0 = expanded,
// 2 = collapsed as compact 5 px strips (the default above 16 ranks: all 64 in the frame),
// 3 = compact and grouped by node (8 group rows). range(1): 0 = the whole trace in view, 1 = a
// 200 us window in its middle.
Model& manyRanks() {
    static Model* m = [] {
        auto* mm = new Model;
        mm->set = sltest::makeSyntheticSet(64, 2, 7000);
        mm->data = sl::ui::TimelineData::measured(mm->set);
        mm->state.reset(*mm->set);
        return mm;
    }();
    return *m;
}

void BM_RenderFrame64Ranks(benchmark::State& state) {
    Model& m = manyRanks();
    m.state.setAllRanksExpanded(state.range(0) == 0);
    m.state.setCompactRows(state.range(0) >= 2);
    m.state.setGrouping(state.range(0) == 3 ? sl::ui::RankGrouping::Node : sl::ui::RankGrouping::None);
    m.layout.build(*m.set, m.state);
    QImage image(1600 - sl::ui::TimelineRenderer::kGutterWidth, 1000, QImage::Format_ARGB32_Premultiplied);
    sl::ui::TimelineRenderer renderer;
    const sl::TimeNs middle = m.data->start() + (m.data->end() - m.data->start()) / 2;
    const auto mapping = state.range(1) == 0
                             ? sl::ui::TimeMapping::fromWindow(m.data->start(), m.data->end(), image.width())
                             : sl::ui::TimeMapping::fromWindow(middle, middle + 200'000, image.width());
    sl::ui::RenderStats stats;
    for (auto _ : state) {
        QPainter p(&image);
        stats = renderer.paintEvents(p, *m.data, m.layout, mapping, image.size(), 0, {});
        p.end();
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["boxes"] = stats.boxes;
    state.counters["summary_lanes"] = stats.summaryLanes;
    state.counters["events"] = static_cast<double>(m.data->eventCount());
    state.counters["rows"] = static_cast<double>(m.layout.rows().size());
}
BENCHMARK(BM_RenderFrame64Ranks)
    ->Args({1, 0})
    ->Args({1, 1})
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({2, 0})
    ->Args({3, 0})
    ->Unit(benchmark::kMillisecond);

// 16,384 ranks: dp.degree=16384 on the bundled samples/02-dp4, every added rank simulated on its own;
// the strip under the simulated pane sorts them slowest first and draws the visible rows.
struct AddedRanksJob {
    std::shared_ptr<const sl::TraceSet> set; // the graph refers to it
    std::shared_ptr<const sl::SimResult> result;
    std::shared_ptr<const sl::ExecutionGraph> graph;
    double simulateSeconds = 0;
};

const AddedRanksJob& addedRanksJob() {
    static const AddedRanksJob* job = [] {
        auto* j = new AddedRanksJob;
        const std::string sample = std::string(SIGHTLINE_SOURCE_DIR) + "/samples/02-dp4";
        j->set = std::make_shared<const sl::TraceSet>(sl::loadTraceSet({sample}));
        j->graph = std::make_shared<const sl::ExecutionGraph>(sl::buildExecutionGraph(*j->set));
        sl::SimKnobs knobs;
        knobs.dpDegree = 16384;
        const auto t0 = std::chrono::steady_clock::now();
        j->result = std::make_shared<const sl::SimResult>(sl::simulate(*j->graph, knobs));
        j->simulateSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return j;
    }();
    return *job;
}

// range(0): 0 = a new result arrives (rows built and sorted, then one frame), 1 = a repaint only.
void BM_AddedRanksStrip16384(benchmark::State& state) {
    const AddedRanksJob& job = addedRanksJob();
    sl::ui::ViewController controller;
    sl::ui::AddedRanksStrip strip(&controller);
    strip.resize(1600, strip.sizeHint().height());
    strip.setSimulation(job.result, job.graph);
    QImage image(strip.size(), QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        if (state.range(0) == 0) strip.setSimulation(job.result, job.graph);
        strip.render(&image);
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["added_ranks"] = strip.addedCount();
    state.counters["simulate_s"] = job.simulateSeconds;
}
BENCHMARK(BM_AddedRanksStrip16384)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// A knob change in the window at 131,072 ranks (docs/AddedRanks.md): a generated 64-rank
// data-parallel set (4 layers, 2 steps) open, dp.degree=131072 with a straggler (rank 100000) and
// jitter.pct=2 simulated once; each iteration sets another straggler slowdown in the knob panel and
// waits until the simulated pane shows the new run (pane_s: the debounce, the simulation, its
// analyses and the views taking it), the scenarios' card has its words (card_s) and the window has
// painted (the iteration's time). cpu_s: the process's CPU time (every thread) in the
// iteration. Goal: pane_s within 5 s.
double processCpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto s = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    return s(u.ru_utime) + s(u.ru_stime);
}

void BM_KnobChangeWindow131072(benchmark::State& state) {
    sl::synth::SynthConfig c;
    c.dp = 64;
    c.layers = 4;
    c.steps = 2;
    const std::string dir =
        (std::filesystem::temp_directory_path() / ("sightline-bench-window-" + std::to_string(getpid())))
            .string();
    sl::synth::generate(c, dir);
    sl::ui::MainWindow w;
    w.setCloseQuestion([] { return sl::ui::MainWindow::CloseChoice::Discard; });
    w.resize(1600, 1000);
    w.show();
    sl::ui::SessionController* session = w.sessions();
    session->openTraces({QString::fromStdString(dir)});
    if (!session->loader()->waitForFinished(120'000)) {
        state.SkipWithError("the set did not load");
        return;
    }
    sl::ui::ScenarioRunner* scenarios = session->scenarios()->runner();
    auto settle = [&] {
        for (int i = 0; i < 3; ++i) {
            session->simRunner()->waitForIdle(600'000);
            scenarios->waitForIdle(600'000);
            QCoreApplication::processEvents();
        }
    };
    settle();
    sl::SimKnobs knobs;
    sl::setKnob(knobs, "dp.degree", "131072");
    sl::setKnob(knobs, "straggler.rank", "100000");
    sl::setKnob(knobs, "straggler.slowdown", "1.5");
    sl::setKnob(knobs, "jitter.pct", "2");
    session->knobs()->setKnobs(knobs);
    settle();
    double paneS = 0, cardS = 0, cpuS = 0, iterations = 0;
    int slowdownTenths = 15;
    for (auto _ : state) {
        QElapsedTimer clock;
        QEventLoop loop;
        double paneAt = -1, cardAt = -1;
        const double cpu0 = processCpuSeconds();
        auto shown = QObject::connect(session->driver(), &sl::ui::SimulationDriver::simulationShown,
                                      [&] { paneAt = static_cast<double>(clock.nsecsElapsed()) / 1e9; });
        auto card = QObject::connect(scenarios, &sl::ui::ScenarioRunner::finished, [&] {
            if (paneAt < 0) return; // the run before the change
            cardAt = static_cast<double>(clock.nsecsElapsed()) / 1e9;
            loop.quit();
        });
        QTimer::singleShot(600'000, &loop, &QEventLoop::quit);
        sl::setKnob(knobs, "straggler.slowdown", std::to_string(++slowdownTenths / 10.0));
        clock.start();
        session->knobs()->setKnobs(knobs);
        loop.exec();
        QObject::disconnect(shown);
        QObject::disconnect(card);
        w.repaint();
        QCoreApplication::processEvents();
        state.SetIterationTime(static_cast<double>(clock.nsecsElapsed()) / 1e9);
        if (cardAt < 0) {
            state.SkipWithError("no result within 10 minutes");
            break;
        }
        paneS += paneAt;
        cardS += cardAt;
        cpuS += processCpuSeconds() - cpu0;
        ++iterations;
    }
    std::filesystem::remove_all(dir);
    if (iterations == 0) return;
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    state.counters["pane_s"] = paneS / iterations;
    state.counters["card_s"] = cardS / iterations;
    state.counters["cpu_s"] = cpuS / iterations;
    state.counters["peak_rss_MB"] = static_cast<double>(u.ru_maxrss) / 1024.0;
}
BENCHMARK(BM_KnobChangeWindow131072)->Iterations(2)->UseManualTime()->Unit(benchmark::kSecond);

} // namespace

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--events=", 9) == 0) gEvents = std::atoll(argv[i] + 9);
    if (!std::getenv("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
