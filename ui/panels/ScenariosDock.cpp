#include "ScenariosDock.h"

#include "Scenario.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <QVBoxLayout>

namespace sl::ui {

ScenariosDock::ScenariosDock(ScenarioList* list, QWidget* parent) : QWidget(parent), list_(list) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    view_ = new QListWidget(this);
    view_->setObjectName(QStringLiteral("scenarioList"));
    view_->setToolTip(
        tr("The baseline replays the trace; every other scenario is a what-if. The chosen one is "
           "edited by the knobs and shown in the simulated pane. Double-click to rename."));
    layout->addWidget(view_, 1);
    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add"), this);
    auto* dup = new QPushButton(tr("Duplicate"), this);
    rename_ = new QPushButton(tr("Rename"), this);
    delete_ = new QPushButton(tr("Delete"), this);
    add->setToolTip(tr("A new what-if starting from the baseline (every knob at its replay default)"));
    dup->setToolTip(tr("A copy of the selected scenario, its knobs included"));
    for (QPushButton* b : {add, dup, rename_, delete_})
        buttons->addWidget(b);
    layout->addLayout(buttons);
    auto* form = new QFormLayout;
    top_ = new QComboBox(this);
    top_->setObjectName(QStringLiteral("topPaneBox"));
    top_->setToolTip(tr("What the upper pane shows: the measured trace, or a scenario to compare with the "
                        "one in the lower pane"));
    form->addRow(tr("Top pane"), top_);
    layout->addLayout(form);
    // Under plain replay the two panes show the same: one is enough (docs/ManyRanks.md).
    onePane_ = new QCheckBox(tr("One pane under replay"), this);
    onePane_->setObjectName(QStringLiteral("onePaneBox"));
    onePane_->setToolTip(tr("While the lower pane shows a replay (every knob at its default) and the upper "
                            "one the measured trace, show only the upper pane"));
    onePane_->setChecked(QSettings().value(QStringLiteral("view/onePaneUnderReplay"), false).toBool());
    layout->addWidget(onePane_);
    connect(onePane_, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("view/onePaneUnderReplay"), on);
        emit onePaneChanged(on);
    });

    connect(add, &QPushButton::clicked, this, &ScenariosDock::addScenario);
    connect(dup, &QPushButton::clicked, this, &ScenariosDock::duplicateScenario);
    connect(delete_, &QPushButton::clicked, this, &ScenariosDock::deleteScenario);
    connect(rename_, &QPushButton::clicked, this, [this] {
        if (QListWidgetItem* item = view_->currentItem(); item && view_->currentRow() > 0)
            view_->editItem(item);
    });
    connect(view_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!rebuilding_ && row >= 0) list_->setCurrent(row);
    });
    connect(view_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (rebuilding_) return;
        const int row = view_->row(item);
        // The list is rebuilt after the editor has closed: clearing the view under its own editor
        // made Qt warn "closeEditor called with an editor that does not belong to this view".
        renaming_ = true;
        if (!list_->rename(row, item->text())) QTimer::singleShot(0, this, &ScenariosDock::rebuild);
        renaming_ = false;
    });
    connect(top_, &QComboBox::activated, this, [this] { emit topPaneChanged(topPane()); });
    connect(list_, &ScenarioList::listChanged, this, [this] {
        if (renaming_)
            QTimer::singleShot(0, this, &ScenariosDock::rebuild);
        else
            rebuild();
    });
    connect(list_, &ScenarioList::currentChanged, this, &ScenariosDock::rebuild);
    rebuild();
}

bool ScenariosDock::onePane() const {
    return onePane_->isChecked();
}

int ScenariosDock::topPane() const {
    return top_->currentIndex() <= 0 ? -1 : top_->currentIndex() - 1;
}

void ScenariosDock::setTopPane(int scenario) {
    const int before = topPane();
    top_->setCurrentIndex(scenario < 0 || scenario >= list_->count() ? 0 : scenario + 1);
    if (topPane() != before) emit topPaneChanged(topPane());
}

void ScenariosDock::rebuild() {
    rebuilding_ = true;
    const int top = topPane();
    const QString topName =
        top >= 0 && top_->currentIndex() < top_->count() ? top_->currentText() : QString();
    const int before = top_->count() - 1; // the scenarios the box listed
    view_->clear();
    top_->clear();
    top_->addItem(tr("Measured trace"));
    for (int i = 0; i < list_->count(); ++i) {
        auto* item = new QListWidgetItem(list_->at(i).name, view_);
        if (i > 0)
            item->setFlags(item->flags() | Qt::ItemIsEditable);
        else
            item->setToolTip(tr("Replay of the trace: every knob at its default"));
        top_->addItem(list_->at(i).name);
    }
    view_->setCurrentRow(list_->current());
    // The top pane keeps showing the same scenario: by its place when the list only renamed (the
    // name changed, the count did not), else by name; a deleted one falls back to the trace.
    const bool renamed = top >= 0 && before == list_->count();
    const int again = topName.isEmpty() ? -1 : renamed ? top : list_->find(topName);
    top_->setCurrentIndex(again + 1);
    delete_->setEnabled(list_->current() > 0);
    rename_->setEnabled(list_->current() > 0);
    rebuilding_ = false;
    if (again != top) emit topPaneChanged(again);
}

void ScenariosDock::addScenario() {
    // Named "What-if" until its knobs say more; then by them, until the user renames it.
    const int i = list_->addNamedByKnobs(SimKnobs{});
    list_->setCurrent(i);
}

void ScenariosDock::duplicateScenario() {
    const int i = list_->duplicate(list_->current());
    if (i >= 0) list_->setCurrent(i);
}

void ScenariosDock::deleteScenario() {
    list_->remove(list_->current());
}

} // namespace sl::ui
