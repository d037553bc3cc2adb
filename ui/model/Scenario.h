#pragma once
// What-if scenarios (docs/WhatIfWorkbench.md): a scenario is a name and a set of knobs. The list
// always starts with the baseline (replay knobs); any number of named what-ifs follow. The current
// scenario is the one the knob panel edits and the simulated pane shows.
#include "sim/Knobs.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace sl::ui {

struct Scenario {
    QString name;
    SimKnobs knobs;
    // The name says what the knobs are ("network 2x") and follows them until the user
    // renames the scenario: a name typed by the user stays.
    bool nameFollowsKnobs = false;
};

class ScenarioList : public QObject {
    Q_OBJECT
public:
    explicit ScenarioList(QObject* parent = nullptr);

    const std::vector<Scenario>& scenarios() const { return list_; }
    int count() const { return static_cast<int>(list_.size()); }
    const Scenario& at(int i) const { return list_[static_cast<std::size_t>(i)]; }
    int current() const { return current_; }
    // Index of the scenario called name, -1 when none.
    int find(const QString& name) const;
    // name, or "name 2", "name 3"... : a name no scenario has yet (but scenario `except`).
    QString uniqueName(const QString& name, int except = -1) const;

    // Replaces the whole list (a session load). An empty list or one whose first entry is not the
    // replay gets the baseline in front; current is clamped.
    void reset(std::vector<Scenario> list, int current);
    // Adds a scenario (its name made unique) and returns its index.
    int add(const QString& name, const SimKnobs& knobs);
    // Adds a scenario named after its knobs (nameFor), a name that follows them until a rename.
    int addNamedByKnobs(const SimKnobs& knobs);
    // Copies scenario i as "<name> copy" and returns the copy's index (-1 for a bad index).
    int duplicate(int i);
    // Renames scenario i; false for the baseline, a bad index, an empty or a taken name.
    bool rename(int i, const QString& name);
    // Deletes scenario i; false for the baseline or a bad index. The current one moves to the
    // scenario before it.
    bool remove(int i);
    void setCurrent(int i);
    // The knobs of scenario i changed (the knob panel edits the current one). The baseline's knobs
    // are replay and stay so: editing them is a new what-if, so the edit goes to a new scenario
    // named after the knobs it changes (returned index, announced by startedFromBaseline), else to
    // i itself.
    int setKnobs(int i, const SimKnobs& knobs);
    // How knobs differ from the baseline, one "key = value" each ("compute.speedup = 2").
    static QStringList knobChanges(const SimKnobs& knobs);
    // A name that says it: "GPU 2x + network 2x" (scenarioNameFor, ScenarioNames.h).
    static QString nameFor(const SimKnobs& knobs);

signals:
    // An edit of the baseline's knobs became the new scenario `index` (now current).
    void startedFromBaseline(int index);
    void listChanged();
    void currentChanged(int index);
    void knobsChanged(int index);

private:
    std::vector<Scenario> list_;
    int current_ = 0;
};

} // namespace sl::ui
