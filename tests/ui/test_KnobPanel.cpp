// The knob panel (docs/WhatIfWorkbench.md, "Knob panel"): every knob of the registry has a field,
// under its group's heading (GPU, network, CPU, data parallel, job setup, hardware), with its key,
// help, unit and valid range in the tooltip; the knobs that were CLI-only (the network model, its
// bandwidths, latency, algorithm, GPUs per node) are edited like the others.
#include "KnobPanel.h"
#include "structure/Structure.h"

#include "sim/KnobRegistry.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QWheelEvent>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestKnobPanel : public QObject {
    Q_OBJECT
private slots:
    // The wheel over a field that was not clicked scrolls the panel past it: no knob changes.
    void wheelPassesUnfocusedFields() {
        QScrollArea area;
        auto* panel = new KnobPanel;
        area.setWidget(panel);
        area.setWidgetResizable(true);
        area.resize(300, 200);
        area.show();
        QSignalSpy changed(panel, &KnobPanel::changed);
        auto* gpu = qobject_cast<QDoubleSpinBox*>(panel->field(QStringLiteral("compute.speedup")));
        QVERIFY(gpu && !gpu->hasFocus());
        QCOMPARE(gpu->focusPolicy(), Qt::StrongFocus);
        const QPointF at(gpu->width() / 2.0, gpu->height() / 2.0);
        QWheelEvent wheel(at, gpu->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(gpu, &wheel);
        QCOMPARE(gpu->value(), 1.0);
        QCOMPARE(changed.count(), 0);
    }

    void everyKnobHasAField() {
        KnobPanel panel;
        for (const KnobSpec& spec : knobSpecs()) {
            const QString key = QString::fromStdString(spec.key);
            QWidget* w = panel.field(key);
            QVERIFY2(w, qPrintable(key));
            QVERIFY2(w->toolTip().startsWith(key + QStringLiteral(": ")), qPrintable(w->toolTip()));
            QVERIFY2(
                w->toolTip().contains(QStringLiteral("Valid: ") + QString::fromStdString(spec.rangeText())),
                qPrintable(w->toolTip()));
            // A label, never the bare key.
            auto* form = qobject_cast<QFormLayout*>(panel.layout());
            auto* label = qobject_cast<QLabel*>(form->labelForField(w));
            QVERIFY2(label && !label->text().isEmpty() && label->text() != key, qPrintable(key));
        }
    }

    void groupedUnderHeadings() {
        KnobPanel panel;
        auto* form = qobject_cast<QFormLayout*>(panel.layout());
        QStringList headings;
        QString group;
        QMap<QString, QString> groupOf;
        for (int row = 0; row < form->rowCount(); ++row) {
            QLayoutItem* span = form->itemAt(row, QFormLayout::SpanningRole);
            if (span && span->widget() &&
                span->widget()->objectName().startsWith(QStringLiteral("knobGroup"))) {
                group = qobject_cast<QLabel*>(span->widget())->text();
                headings << group;
                continue;
            }
            QLayoutItem* field = form->itemAt(row, QFormLayout::FieldRole);
            if (field && field->widget() && !field->widget()->objectName().isEmpty())
                groupOf[field->widget()->objectName()] = group;
        }
        QCOMPARE(headings,
                 (QStringList{QStringLiteral("<b>GPU</b>"), QStringLiteral("<b>Network</b>"),
                              QStringLiteral("<b>CPU</b>"), QStringLiteral("<b>Data loading</b>"),
                              QStringLiteral("<b>Data parallel</b>"), QStringLiteral("<b>Job setup</b>"),
                              QStringLiteral("<b>Hardware</b>")}));
        QCOMPARE(groupOf.value(QStringLiteral("compute.speedup")), QStringLiteral("<b>GPU</b>"));
        QCOMPARE(groupOf.value(QStringLiteral("comm.inter_node_GBps")), QStringLiteral("<b>Network</b>"));
        QCOMPARE(groupOf.value(QStringLiteral("launch.latency_us")), QStringLiteral("<b>CPU</b>"));
        QCOMPARE(groupOf.value(QStringLiteral("dp.degree")), QStringLiteral("<b>Data parallel</b>"));
        QCOMPARE(groupOf.value(QStringLiteral("data.workers")), QStringLiteral("<b>Data loading</b>"));
        QCOMPARE(groupOf.value(QStringLiteral("peers.model")), QStringLiteral("<b>Network</b>"));
        QCOMPARE(groupOf.value(QStringLiteral("straggler.rank")), QStringLiteral("<b>Job setup</b>"));
        QCOMPARE(groupOf.value(QStringLiteral("batch.samples")), QStringLiteral("<b>Job setup</b>"));
        QCOMPARE(groupOf.value(QStringLiteral("batch.tokens")), QStringLiteral("<b>Job setup</b>"));
        QCOMPARE(groupOf.value(QStringLiteral("gpu.target")), QStringLiteral("<b>Hardware</b>"));
        QCOMPARE(groupOf.value(QStringLiteral("comm.gpus_per_node")), QStringLiteral("<b>Hardware</b>"));
    }

    void networkKnobsEditable() {
        KnobPanel panel;
        QSignalSpy changed(&panel, &KnobPanel::changed);
        auto* model = qobject_cast<QComboBox*>(panel.field(QStringLiteral("comm.model")));
        QVERIFY(model);
        model->setCurrentIndex(model->findData(QStringLiteral("alpha-beta")));
        auto* bw = qobject_cast<QDoubleSpinBox*>(panel.field(QStringLiteral("comm.inter_node_GBps")));
        QVERIFY(bw);
        QVERIFY(bw->suffix().contains(QStringLiteral("GB/s")));
        QCOMPARE(bw->text(), QStringLiteral("calibrated")); // 0, the default
        bw->setValue(25);
        auto* gpus = qobject_cast<QSpinBox*>(panel.field(QStringLiteral("comm.gpus_per_node")));
        QVERIFY(gpus);
        gpus->setValue(4);
        QVERIFY(changed.count() >= 3);
        const SimKnobs k = panel.knobs();
        QCOMPARE(k.commModel, CommModel::AlphaBeta);
        QCOMPARE(k.commInterNodeGBps, 25.0);
        QCOMPARE(k.commGpusPerNode, 4);
        // Untouched fields keep the replay defaults: no knob but these three changed.
        SimKnobs expected;
        expected.commModel = CommModel::AlphaBeta;
        expected.commInterNodeGBps = 25;
        expected.commGpusPerNode = 4;
        QCOMPARE(k.toJson(), expected.toJson());
        // And back from knobs.
        panel.setKnobs({});
        QCOMPARE(model->currentData().toString(), QStringLiteral("measured"));
        QVERIFY(panel.knobs().isReplay());
    }

    // Four loaded ranks, one rank per replica (02-dp4): rank 3 is the last loaded rank, but under
    // dp.degree=8 ranks 4..7 are in the job too and any of them may be the straggler (the box
    // stopped at 3, so a session with straggler.rank=6 came back as rank 3).
    void stragglerRankReachesTheAddedRanks() {
        KnobPanel panel;
        ParallelStructure dp4; // 02-dp4's layout
        dp4.world = dp4.dp = 4;
        dp4.recognised = dp4.megatronOrder = true;
        for (int r = 0; r < 4; ++r)
            dp4.places.push_back({r, r, 0, 0, true});
        panel.setJobLayout(dp4);
        auto* rank = qobject_cast<QSpinBox*>(panel.field(QStringLiteral("straggler.rank")));
        auto* degree = qobject_cast<QSpinBox*>(panel.field(QStringLiteral("dp.degree")));
        QVERIFY(rank && degree);
        QCOMPARE(rank->maximum(), 3);
        degree->setValue(8);
        QCOMPARE(rank->maximum(), 7);
        rank->setValue(6);
        QCOMPARE(panel.knobs().stragglerRank, 6);
        SimKnobs k;
        k.dpDegree = 16;
        k.stragglerRank = 13;
        panel.setKnobs(k);
        QCOMPARE(rank->maximum(), 15);
        QCOMPARE(panel.knobs().stragglerRank, 13);
        // Back to the loaded ranks: the limit follows, and the value with it.
        degree->setValue(0);
        QCOMPARE(rank->maximum(), 3);
        QCOMPARE(panel.knobs().stragglerRank, 3);
    }

    // Ranks 0, 8, 16 and 24 of a 32-rank job (one GPU per node profiled): the box stopped at 3,
    // the loaded rank count less one, so ranks 8..24 could not be named.
    void stragglerRankFollowsTheRankIds() {
        KnobPanel panel;
        ParallelStructure gaps;
        gaps.world = 32;
        for (int id : {0, 8, 16, 24})
            gaps.places.push_back({id, 0, 0, 0, false});
        panel.setJobLayout(gaps);
        auto* rank = qobject_cast<QSpinBox*>(panel.field(QStringLiteral("straggler.rank")));
        QVERIFY(rank);
        QCOMPARE(rank->maximum(), 24);
        rank->setValue(16);
        QCOMPARE(panel.knobs().stragglerRank, 16);
    }

    // The traced batch (docs/Scaling.md): whole samples and tokens, far above the other fields'
    // range (a million tokens per step), "not given" at 0; setting it keeps the knobs a replay.
    void batchFields() {
        KnobPanel panel;
        auto* samples = qobject_cast<QDoubleSpinBox*>(panel.field(QStringLiteral("batch.samples")));
        auto* tokens = qobject_cast<QDoubleSpinBox*>(panel.field(QStringLiteral("batch.tokens")));
        QVERIFY(samples && tokens);
        QCOMPARE(samples->text(), QStringLiteral("not given"));
        samples->setValue(256);
        tokens->setValue(1048576);
        const SimKnobs k = panel.knobs();
        QCOMPARE(k.batchSamples, 256.0);
        QCOMPARE(k.batchTokens, 1048576.0);
        QVERIFY(k.isReplay());
        panel.setKnobs({});
        QCOMPARE(panel.knobs().batchTokens, 0.0);
    }
};

QTEST_MAIN(TestKnobPanel)
#include "test_KnobPanel.moc"
