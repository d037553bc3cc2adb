#pragma once
// The Scenarios dock (docs/WhatIfWorkbench.md): the list of scenarios (the baseline first) with
// add, duplicate, rename and delete; choosing one makes it current (the knob panel edits it and the
// simulated pane shows it). "Top pane" picks what the upper pane shows: the measured trace or any
// scenario, so two what-ifs can be compared directly.
#include <QWidget>

class QCheckBox;
class QComboBox;
class QListWidget;
class QPushButton;

namespace sl::ui {

class ScenarioList;

class ScenariosDock : public QWidget {
    Q_OBJECT
public:
    explicit ScenariosDock(ScenarioList* list, QWidget* parent = nullptr);
    QListWidget* listWidget() const { return view_; }
    QComboBox* topPaneBox() const { return top_; }
    // Whether a replay under the measured trace shows as one pane (a view preference, QSettings).
    QCheckBox* onePaneBox() const { return onePane_; }
    bool onePane() const;
    // What the top pane shows: -1 the measured trace, else a scenario index.
    int topPane() const;
    void setTopPane(int scenario);

    // The buttons' actions (tests call them; rename asks nothing here, the list edits in place).
    void addScenario();
    void duplicateScenario();
    void deleteScenario();

signals:
    void topPaneChanged(int scenario);
    void onePaneChanged(bool on);

private:
    void rebuild();

    ScenarioList* list_;
    QListWidget* view_;
    QComboBox* top_;
    QCheckBox* onePane_;
    QPushButton* delete_;
    QPushButton* rename_;
    bool rebuilding_ = false;
    bool renaming_ = false;
};

} // namespace sl::ui
