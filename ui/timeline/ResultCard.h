#pragma once
// The result card above the timeline panes (docs/WhatIfWorkbench.md): the scenario shown, its
// iteration against the baseline in large type ("19.95 ms -> 16.10 ms (-19.3%, 1.24x faster)"),
// the knobs that differ from the baseline, what limits the step and, when the knobs barely moved
// it, why. The words come from analysis/StepExplanation.h through ScenarioResult, so the CLI and
// the GUI say the same thing. It sits in the central widget, so every picture of the panes has it.
#include <QFrame>
#include <QString>

class QLabel;

namespace sl::ui {

struct ScenarioResult;

class ResultCard : public QFrame {
    Q_OBJECT
public:
    explicit ResultCard(QWidget* parent = nullptr);
    // r: the scenario in the simulated pane; baselineName names what it is compared with (ignored
    // for the baseline itself, which is compared with the measured trace). Null: hidden.
    void setResult(const ScenarioResult* r, bool isBaseline, const QString& baselineName = {});
    // The prediction held against the comparison run (ComparisonRun::predictionLine), under the
    // headline; empty: none.
    void setComparisonLine(const QString& line);
    // A short window: the path's note goes into the tooltip of the "What limits" line.
    void setCompact(bool compact);
    bool compact() const { return compact_; }
    // Every line shown, one per line (what a person reads; tests compare it).
    QString text() const;
    // The first line: the scenario, what it is compared with and the headline (it wraps).
    QLabel* titleLine() const { return title_; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void refresh();
    void fitHeight();
    void fitLimit();
    QLabel* title_;
    QString titleText_;
    QString headlineText_;
    QString knobsText_;
    QString pinnedDetail_;
    QString limitText_; // the whole "What limits" sentence (cut to two lines when compact)
    bool compact_ = false;
    QLabel* comparison_; // the prediction error against the comparison run
    QLabel* throughput_; // docs/Scaling.md: when the work per step differs from the baseline's
    QLabel* limit_;
    QLabel* reason_;
    QLabel* modelled_; // what a layout knob modelled rather than measured (docs/Layouts.md)
    QLabel* pathNote_;
};

} // namespace sl::ui
