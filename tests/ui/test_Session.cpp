// Sessions: JSON round trip, rejected bad files, atomic writes, the crash-safe
// autosave; track pin and reorder in TrackState, the row layout and the track tree; knob presets;
// range statistics in a worker where a newer request drops older results.
#include "Autosave.h"
#include "CpuRegionEditor.h"
#include "KnobPanel.h"
#include "KnobPresets.h"
#include "RangeStatsWorker.h"
#include "RowLayout.h"
#include "Session.h"
#include "TrackState.h"
#include "TrackTreeModel.h"

#include "SyntheticTrace.h"
#include "TestSupport.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace sl;
using namespace sl::ui;

namespace {

Session sampleSession(const TrackState& state) {
    Session s;
    s.traces = {QStringLiteral("/data/rank0.json"), QStringLiteral("/data/rank1.json")};
    s.knobs.computeSpeedup = 2;
    s.knobs.computeClassSpeedup["gemm"] = 3;
    s.knobs.commOverlap = false;
    s.knobs.kernelSpeedup.push_back({"nccl.*", 1.5});
    s.tracks = state.ranks();
    s.hasView = true;
    s.viewStart = 1'700'000'000'123'456'789; // beyond 2^53: must survive exactly
    s.viewEnd = 1'700'000'000'223'456'789;
    s.scrollY = 42;
    s.criticalPath = true;
    s.exposed = true;
    s.arrows = false;
    return s;
}

} // namespace

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        auto set = sltest::makeSyntheticSet(2, 2, 10);
        TrackState state;
        state.reset(*set);
        state.setTrackPinned(1, 2, true);
        state.setTrackHidden(0, 1, true);
        state.setTrackNested(0, 0, true);
        state.setRankExpanded(1, false);
        QVERIFY(state.moveTrack(0, 2, 0));
        const Session s = sampleSession(state);
        Session back;
        QCOMPARE(sessionFromJson(sessionToJson(s), back), QString());
        QCOMPARE(back.traces, s.traces);
        QCOMPARE(back.knobs.toJson(), s.knobs.toJson());
        QCOMPARE(back.viewStart, s.viewStart);
        QCOMPARE(back.viewEnd, s.viewEnd);
        QCOMPARE(back.scrollY, 42);
        QVERIFY(back.hasView && back.criticalPath && back.exposed && !back.arrows);
        QCOMPARE(back.tracks.size(), std::size_t{2});
        for (std::size_t r = 0; r < 2; ++r) {
            QCOMPARE(back.tracks[r].order, s.tracks[r].order);
            QCOMPARE(back.tracks[r].hidden, s.tracks[r].hidden);
            QCOMPARE(back.tracks[r].pinned, s.tracks[r].pinned);
            QCOMPARE(back.tracks[r].nested, s.tracks[r].nested);
            QCOMPARE(back.tracks[r].expanded, s.tracks[r].expanded);
        }
        // Only knobs away from replay are written.
        QVERIFY(!sessionToJson(Session{}).contains("dp.scale"));
        // Relative trace paths resolve against the session's folder.
        QByteArray json = sessionToJson(s);
        json.replace("/data/rank0.json", "traces/rank0.json");
        QCOMPARE(sessionFromJson(json, back, QStringLiteral("/home/u/sessions")), QString());
        QCOMPARE(back.traces[0], QStringLiteral("/home/u/sessions/traces/rank0.json"));
    }
    void badSessionsAreRejected() {
        auto set = sltest::makeSyntheticSet(1, 1, 5);
        TrackState state;
        state.reset(*set);
        const QByteArray good = sessionToJson(sampleSession(state));
        const QList<QByteArray> bad = {
            "",
            "{",
            "[]",
            "{\"format\": \"other\", \"version\": 1, \"traces\": []}",
            "{\"format\": \"sightline-session\", \"version\": 99, \"traces\": []}",
            "{\"format\": \"sightline-session\", \"version\": 1, \"traces\": \"x\"}",
            "{\"format\": \"sightline-session\", \"version\": 1, \"traces\": [3]}",
            "{\"format\": \"sightline-session\", \"version\": 1, \"traces\": [], \"knobs\": "
            "{\"compute.speedup\": "
            "-5}}",
            "{\"format\": \"sightline-session\", \"version\": 1, \"traces\": [], \"knobs\": {\"no.such\": "
            "1}}",
            "{\"format\": \"sightline-session\", \"version\": 1, \"traces\": [], \"tracks\": [{\"order\": "
            "[0, "
            "0]}]}",
            "{\"format\": \"sightline-session\", \"version\": 1, \"traces\": [], \"tracks\": [{\"order\": "
            "[0], "
            "\"pinned\": [7]}]}",
            "{\"format\": \"sightline-session\", \"version\": 1, \"traces\": [], \"view\": {\"start_ns\": "
            "\"9\", "
            "\"end_ns\": \"1\"}}",
        };
        for (const QByteArray& b : bad) {
            Session out = sampleSession(state);
            const QString error = sessionFromJson(b, out);
            QVERIFY2(!error.isEmpty(), b.constData());
            // The target is untouched by a failed parse.
            QCOMPARE(out.knobs.computeSpeedup, 2.0);
            QCOMPARE(out.traces.size(), 2);
        }
        Session out;
        QCOMPARE(sessionFromJson(good, out), QString());
    }
    void writeIsAtomic() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.sightline.json"));
        auto set = sltest::makeSyntheticSet(1, 1, 5);
        TrackState state;
        state.reset(*set);
        Session s = sampleSession(state);
        QCOMPARE(writeSessionFile(path, s), QString());
        s.knobs.computeSpeedup = 4;
        QCOMPARE(writeSessionFile(path, s), QString());
        Session back;
        QCOMPARE(readSessionFile(path, back), QString());
        QCOMPARE(back.knobs.computeSpeedup, 4.0);
        // No temporary files left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("a.sightline.json")});
        QVERIFY(!writeSessionFile(dir.filePath(QStringLiteral("no/such/dir/b.sightline.json")), s).isEmpty());
        QVERIFY(!readSessionFile(dir.filePath(QStringLiteral("missing.sightline.json")), back).isEmpty());
        QVERIFY(!readSessionFile(dir.path(), back).isEmpty());
        QVERIFY(isSessionPath(QStringLiteral("/x/My.Sightline.JSON")));
        QVERIFY(!isSessionPath(QStringLiteral("/x/rank0.json")));
    }
    void autosaveRecoversAfterCrash() {
        QTemporaryDir dir;
        int calls = 0;
        auto source = [&calls] {
            ++calls;
            Session s;
            s.traces = {QStringLiteral("/t/rank0.json")};
            s.knobs.commSpeedup = 3;
            return s;
        };
        {
            Autosave first(source, dir.path(), 50);
            first.start();
            QVERIFY(!first.recoverable());
            QVERIFY(QFile::exists(first.markerPath()));
            // Nothing changed: nothing written.
            QTest::qWait(120);
            QCOMPARE(calls, 0);
            first.markDirty();
            QTRY_VERIFY(QFile::exists(first.sessionPath()));
            QVERIFY(!first.dirty());
            // "Crash": the object goes away without finish(); the marker stays.
        }
        Autosave second(source, dir.path(), 50);
        second.start();
        QVERIFY(second.recoverable());
        Session back;
        QCOMPARE(readSessionFile(second.recoveredPath(), back), QString());
        QCOMPARE(back.knobs.commSpeedup, 3.0);
        second.markDirty();
        second.finish(); // clean exit: session written, marker removed
        QVERIFY(QFile::exists(second.sessionPath()));
        QVERIFY(!QFile::exists(second.markerPath()));
        // A clean exit since, but the recovered session was never answered: offered again, until
        // the user restores or declines it (docs/MainWindow.md, "Never losing work").
        Autosave third(source, dir.path(), 50);
        third.start();
        QVERIFY(third.recoverable());
        third.dropRecovered();
        QVERIFY(!third.recoverable());
        QVERIFY(!QFile::exists(third.recoveredPath()));
        third.finish();
        Autosave fourth(source, dir.path(), 50);
        fourth.start();
        QVERIFY(!fourth.recoverable());
        fourth.finish();
        // A folder that cannot be written reports the error instead of throwing.
        Autosave broken(source, QStringLiteral("/proc/no-such-dir"), 50);
        QSignalSpy failed(&broken, &Autosave::failed);
        QVERIFY(!broken.saveNow().isEmpty());
        QCOMPARE(failed.count(), 1);
    }
    void pinAndReorder() {
        auto set = sltest::makeSyntheticSet(2, 2, 10);
        TrackState state;
        state.reset(*set);
        QSignalSpy changed(&state, &TrackState::changed);
        const std::vector<std::size_t> before = state.order(0);
        QVERIFY(state.moveTrack(0, 0, 2));
        QCOMPARE(state.order(0)[2], before[0]);
        QCOMPARE(state.order(0)[0], before[1]);
        QVERIFY(!state.moveTrack(0, 0, 9));
        QVERIFY(!state.moveTrack(5, 0, 1));
        QVERIFY(!state.anyPinned());
        const std::size_t gpu = state.order(1)[2];
        state.setTrackPinned(1, gpu, true);
        QVERIFY(state.anyPinned());
        QVERIFY(changed.count() >= 2);
        // The pinned track is the first row of the layout, ahead of rank 0's header.
        RowLayout layout;
        layout.build(*set, state);
        QCOMPARE(layout.rows()[0].rank, 1);
        QCOMPARE(layout.rows()[0].track, static_cast<int>(gpu));
        QVERIFY(layout.rows()[0].pinned);
        QCOMPARE(layout.rowOf(1, static_cast<int>(gpu)), 0);
        QVERIFY(layout.rows()[1].header());
        QCOMPARE(layout.rows()[1].rank, 0);
        // It shows once, and stays when its rank is collapsed.
        int seen = 0;
        for (const Row& row : layout.rows())
            seen += row.rank == 1 && row.track == static_cast<int>(gpu);
        QCOMPARE(seen, 1);
        state.setRankExpanded(1, false);
        layout.build(*set, state);
        QCOMPARE(layout.rowOf(1, static_cast<int>(gpu)), 0);
        // The track order is followed by the layout.
        state.setRankExpanded(1, true);
        layout.build(*set, state);
        int prev = -1;
        for (std::size_t k : state.order(0)) {
            const int row = layout.rowOf(0, static_cast<int>(k));
            if (row < 0) continue;
            QVERIFY(row > prev);
            prev = row;
        }
        // restore() takes a matching state and refuses one of another shape.
        TrackState other;
        other.reset(*set);
        QVERIFY(other.restore(state.ranks()));
        QCOMPARE(other.order(0), state.order(0));
        QVERIFY(other.trackPinned(1, gpu));
        auto wrong = state.ranks();
        wrong[0].order.push_back(0);
        QVERIFY(!other.restore(wrong));
    }
    void trackTreePinAndDrag() {
        auto set = sltest::makeSyntheticSet(2, 2, 10);
        TrackState state;
        TrackTreeModel model(&state);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        state.reset(*set);
        model.setTraceSet(set);
        QCOMPARE(model.columnCount(), int(TrackTreeModel::ColumnCount));
        const QModelIndex rank0 = model.index(0, 0);
        // Pin through the pin column's check box.
        const QModelIndex pin = model.index(1, TrackTreeModel::PinColumn, rank0);
        QVERIFY(model.flags(pin) & Qt::ItemIsUserCheckable);
        QVERIFY(model.setData(pin, Qt::Checked, Qt::CheckStateRole));
        const auto [r, t] = model.location(pin);
        QVERIFY(state.trackPinned(static_cast<std::size_t>(r), static_cast<std::size_t>(t)));
        QCOMPARE(model.data(pin, Qt::CheckStateRole).toInt(), int(Qt::Checked));
        QVERIFY(!(model.flags(model.index(0, TrackTreeModel::PinColumn)) & Qt::ItemIsUserCheckable));
        QVERIFY(!model.data(model.index(0, TrackTreeModel::PinColumn)).isValid());
        // Move through the model: rows and TrackState agree.
        const QString first = model.data(model.index(0, 0, rank0)).toString();
        QVERIFY(model.moveTrack(0, 0, 2));
        QCOMPARE(model.data(model.index(2, 0, rank0)).toString(), first);
        // Drag and drop: the last track dropped onto the first one's place.
        const QString last = model.data(model.index(2, 0, rank0)).toString();
        std::unique_ptr<QMimeData> mime(model.mimeData({model.index(2, 0, rank0)}));
        QVERIFY(mime);
        QVERIFY(model.canDropMimeData(mime.get(), Qt::MoveAction, 0, 0, rank0));
        model.dropMimeData(mime.get(), Qt::MoveAction, 0, 0, rank0);
        QCOMPARE(model.data(model.index(0, 0, rank0)).toString(), last);
        // Onto a track of another rank: refused.
        std::unique_ptr<QMimeData> mime2(model.mimeData({model.index(0, 0, rank0)}));
        QVERIFY(!model.canDropMimeData(mime2.get(), Qt::MoveAction, 0, 0, model.index(1, 0)));
        // An order restored from elsewhere shows.
        auto ranks = state.ranks();
        std::reverse(ranks[1].order.begin(), ranks[1].order.end());
        state.restore(ranks);
        const auto [r1, t1] = model.location(model.index(0, 0, model.index(1, 0)));
        QCOMPARE(static_cast<std::size_t>(t1), ranks[1].order[0]);
        QCOMPARE(r1, 1);
    }
    void shippedPresets() {
        QStringList errors;
        const auto shipped =
            loadPresetDir(QStringLiteral(SIGHTLINE_SOURCE_DIR "/resources/presets"), &errors);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QVERIFY(shipped.size() >= 5);
        for (const auto& p : shipped) {
            QVERIFY(!p.name.isEmpty());
            QVERIFY(!p.description.isEmpty());
        }
        const auto all = availablePresets();
        std::set<QString> names;
        std::set<std::string> knobs;
        for (const auto& p : all) {
            QVERIFY2(names.insert(p.name).second, qPrintable(p.name));
            QVERIFY2(knobs.insert(p.knobs.toJson().dump()).second, qPrintable(p.name));
        }
        QVERIFY(names.count(QStringLiteral("GPU 2x faster")));
        QVERIFY(names.count(QStringLiteral("Replay (measured)")));
        QCOMPARE(all.front().knobs.toJson(), SimKnobs{}.toJson());
        // A preset file next to a duplicate: replaced in place, not listed twice.
        KnobPreset dup{QStringLiteral("Twice as fast"), QStringLiteral("d"), {}};
        dup.knobs.computeSpeedup = 2;
        const auto merged = mergePresets(builtinPresets(), {dup});
        QCOMPARE(merged.size(), builtinPresets().size());
        // Bad files are skipped and named.
        QTemporaryDir dir;
        sltest::writeFile(dir, QStringLiteral("bad.json"), "{\"compute.speedup\": \"fast\"}");
        sltest::writeFile(dir, QStringLiteral("good.json"), "{\"name\": \"G\", \"dp.scale\": 2}");
        errors.clear();
        const auto some = loadPresetDir(dir.path(), &errors);
        QCOMPARE(some.size(), std::size_t{1});
        QCOMPARE(errors.size(), 1);
    }
    void knobPanelPresetsAndHiddenKnobs() {
        KnobPanel panel;
        // Every preset, then "Custom" for knobs that match none.
        QCOMPARE(panel.presetBox()->count(), static_cast<int>(panel.presets().size()) + 1);
        QSignalSpy changed(&panel, &KnobPanel::changed);
        int gpu = -1;
        for (std::size_t i = 0; i < panel.presets().size(); ++i)
            if (panel.presets()[i].name == QStringLiteral("GPU 2x faster")) gpu = static_cast<int>(i);
        QVERIFY(gpu >= 0);
        QVERIFY(!panel.presetBox()->itemData(gpu, Qt::ToolTipRole).toString().isEmpty());
        panel.applyPreset(gpu);
        QCOMPARE(panel.knobs().computeSpeedup, 2.0);
        QCOMPARE(changed.count(), 1);
        // Knobs without a widget survive the panel.
        SimKnobs k;
        k.computeClassSpeedup["gemm"] = 3;
        k.commModel = CommModel::AlphaBeta;
        k.cpuSpeedup = 1.5;
        panel.setKnobs(k);
        QCOMPARE(panel.knobs().toJson(), k.toJson());
        QCOMPARE(panel.presetLabel(), QStringLiteral("Custom")); // no preset has these knobs
        panel.setKnobs({});
        QCOMPARE(panel.presetBox()->currentIndex(), 0);
        // A knob changed by hand: the preset list no longer names "Replay".
        panel.cpuRegions()->addRegion(QStringLiteral("DataLoader"), QStringLiteral("inf"));
        QCOMPARE(panel.presetLabel(), QStringLiteral("Custom"));
        panel.cpuRegions()->setRegions({});
        panel.setKnobs({});
        QCOMPARE(panel.presetBox()->currentIndex(), 0);
    }
    void rangeStatsWorkerDropsOlderResults() {
        auto set = sltest::makeSyntheticSet(4, 2, 2000);
        auto data = TimelineData::measured(set);
        RangeStatsWorker worker;
        QSignalSpy finished(&worker, &RangeStatsWorker::finished);
        worker.request(data, nullptr, {}, data->start(), data->end());
        const TimeNs mid = (data->start() + data->end()) / 2;
        const std::uint64_t g = worker.request(data, nullptr, {}, data->start(), mid);
        QVERIFY(worker.waitForIdle(30'000));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished[0][0].value<std::uint64_t>(), g);
        const auto expected = computeRangeStats(*data, nullptr, data->start(), mid);
        const auto got = finished[0][1].value<RangeTable>();
        QCOMPARE(got.start, data->start());
        QCOMPARE(got.end, mid);
        QVERIFY(!got.hasSimulated);
        QCOMPARE(got.rows.size(), expected.size());
        for (std::size_t i = 0; i < got.rows.size(); ++i) {
            QCOMPARE(got.rows[i].name, expected[i].name);
            QCOMPARE(got.rows[i].measured.count, expected[i].count);
            QCOMPARE(got.rows[i].measured.total, expected[i].total);
        }
        // cancel() drops the running one.
        worker.request(data, nullptr, {}, data->start(), data->end());
        worker.cancel();
        QVERIFY(worker.waitForIdle(30'000));
        QCOMPARE(finished.count(), 1);
        // Hidden tracks are left out.
        std::vector<std::vector<bool>> hidden(4, std::vector<bool>(3, true));
        worker.request(data, nullptr, hidden, data->start(), data->end());
        QVERIFY(worker.waitForIdle(30'000));
        QCOMPARE(finished.count(), 2);
        QVERIFY(finished[1][1].value<RangeTable>().rows.empty());
        // Both panes: the same timeline as "simulated" gives equal columns.
        worker.request(data, data, {}, data->start(), mid);
        QVERIFY(worker.waitForIdle(30'000));
        QCOMPARE(finished.count(), 3);
        const auto both = finished[2][1].value<RangeTable>();
        QVERIFY(both.hasSimulated);
        for (const RangeRow& r : both.rows)
            QCOMPARE(r.simulated.total, r.measured.total);
    }
};

QTEST_MAIN(TestSession)
#include "test_Session.moc"
