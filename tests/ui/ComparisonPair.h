#pragma once
// A before/after pair for the comparison tests (docs/Compare.md): the generator's 2-layer dp=2 job,
// and the same job on a GPU twice as fast (every compute kernel -50%, communication the same).
#include "MainWindow.h"
#include "ScenarioController.h"
#include "ScenarioRunner.h"
#include "SessionController.h"
#include "SimRunner.h"
#include "synth/Generator.h"

#include <QTemporaryDir>
#include <QtTest>

namespace sltest {

struct ComparisonPair {
    static sl::synth::SynthConfig job() {
        sl::synth::SynthConfig c;
        c.layers = 2;
        c.hidden = 1024;
        c.seq = 1024;
        c.vocab = 8192;
        c.dp = 2;
        return c;
    }
    QTemporaryDir dir;
    QString before = dir.filePath("before"), after = dir.filePath("after");
    ComparisonPair() {
        auto c = job();
        sl::synth::generate(c, before.toStdString(), 2);
        c.gpuSpeedup = 2;
        sl::synth::generate(c, after.toStdString(), 2);
    }
};

// Waits until the window's simulation and scenario runs are done (the comparison needs the graph).
inline void settle(sl::ui::MainWindow& w) {
    for (int i = 0; i < 3; ++i) {
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        QVERIFY(w.findChild<sl::ui::ScenarioController*>()->runner()->waitForIdle(60'000));
    }
}

} // namespace sltest
