// The cpu.speedup[<regex>] rows of the knob panel: valid rows become knobs, invalid ones are marked
// and left out, knobs round-trip through setKnobs (sessions), and each edit re-runs the simulation.
#include "CpuRegionEditor.h"
#include "KnobPanel.h"

#include "TestSupport.h"

#include <QSignalSpy>
#include <QTableWidget>

#include <cmath>

using namespace sl;
using namespace sl::ui;

class TestCpuRegionEditor : public QObject {
    Q_OBJECT
private slots:
    void rowsBecomeKnobs() {
        KnobPanel panel;
        QSignalSpy spy(&panel, &KnobPanel::changed);
        CpuRegionEditor* editor = panel.cpuRegions();
        editor->addRegion(QStringLiteral("DataLoader"), QStringLiteral("inf"));
        editor->addRegion(QStringLiteral("Optimizer\\.step"), QStringLiteral("2"));
        QVERIFY(spy.count() >= 2);
        SimKnobs k = panel.knobs();
        QCOMPARE(k.cpuRegionSpeedup.size(), std::size_t(2));
        QVERIFY(std::isinf(k.cpuRegionSpeedup[0].second));
        QCOMPARE(k.cpuRegionSpeedup[1].second, 2.0);
        QVERIFY(!k.isReplay());
    }

    void invalidRowsAreLeftOut() {
        CpuRegionEditor editor;
        editor.addRegion(QStringLiteral("aten::(item"), QStringLiteral("inf")); // bad regex
        editor.addRegion(QStringLiteral("aten::item"), QStringLiteral("-3"));   // bad factor
        editor.addRegion(QStringLiteral("aten::item"), QStringLiteral("4"));
        QCOMPARE(editor.regions().size(), std::size_t(1));
        QVERIFY(editor.table()->item(0, 0)->toolTip().contains("regular expression"));
        QVERIFY(editor.table()->item(1, 1)->toolTip().contains("factor"));
        // Editing the cell fixes the row.
        QSignalSpy spy(&editor, &CpuRegionEditor::changed);
        editor.table()->item(0, 0)->setText(QStringLiteral("aten::\\(item"));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(editor.regions().size(), std::size_t(2));
    }

    void roundTripThroughKnobs() {
        SimKnobs k;
        setKnobAssignment(k, "cpu.speedup[DataLoader]=inf");
        setKnobAssignment(k, "cpu.speedup[aten::item]=3");
        KnobPanel panel;
        panel.setKnobs(k);
        QCOMPARE(panel.cpuRegions()->table()->rowCount(), 2);
        QCOMPARE(panel.knobs().toJson(), k.toJson());
        // A session stores the knobs as JSON: inf survives as the string "inf".
        SimKnobs back;
        applyKnobsJson(back, k.toJson());
        QCOMPARE(back.toJson(), k.toJson());
    }
};

QTEST_MAIN(TestCpuRegionEditor)
#include "test_CpuRegionEditor.moc"
