#include "Scenario.h"

#include "ScenarioNames.h"

#include "report/SimulationReport.h"

#include <QStringList>

#include <algorithm>

namespace sl::ui {

ScenarioList::ScenarioList(QObject* parent) : QObject(parent) {
    list_.push_back({tr("Baseline"), {}});
}

QStringList ScenarioList::knobChanges(const SimKnobs& knobs) {
    const nlohmann::json json = knobs.toJson();
    QStringList out;
    for (const std::string& key : changedKnobs(json)) {
        out << QStringLiteral("%1 = %2").arg(QString::fromStdString(key), knobValueText(json[key]));
    }
    return out;
}

QString ScenarioList::nameFor(const SimKnobs& knobs) {
    return scenarioNameFor(knobs);
}

int ScenarioList::find(const QString& name) const {
    for (std::size_t i = 0; i < list_.size(); ++i)
        if (list_[i].name.compare(name, Qt::CaseInsensitive) == 0) return static_cast<int>(i);
    return -1;
}

QString ScenarioList::uniqueName(const QString& name, int except) const {
    const QString base = name.trimmed().isEmpty() ? tr("What-if") : name.trimmed();
    const auto free = [&](const QString& candidate) {
        const int i = find(candidate);
        return i < 0 || i == except;
    };
    if (free(base)) return base;
    for (int n = 2;; ++n) {
        const QString candidate = QStringLiteral("%1 %2").arg(base).arg(n);
        if (free(candidate)) return candidate;
    }
}

void ScenarioList::reset(std::vector<Scenario> list, int current) {
    if (list.empty() || !list.front().knobs.isReplay())
        list.insert(list.begin(), Scenario{tr("Baseline"), {}});
    list_ = std::move(list);
    current_ = std::clamp(current, 0, count() - 1);
    emit listChanged();
    emit currentChanged(current_);
}

int ScenarioList::add(const QString& name, const SimKnobs& knobs) {
    list_.push_back({uniqueName(name), knobs});
    emit listChanged();
    return count() - 1;
}

int ScenarioList::addNamedByKnobs(const SimKnobs& knobs) {
    const int i = add(nameFor(knobs), knobs);
    list_[static_cast<std::size_t>(i)].nameFollowsKnobs = true;
    return i;
}

int ScenarioList::duplicate(int i) {
    if (i < 0 || i >= count()) return -1;
    const Scenario copy = at(i);
    const int added = add(tr("%1 copy").arg(copy.name), copy.knobs);
    // A copy of a scenario named by its knobs is named by its own knobs once they are edited (the
    // baseline's copy too: it starts at the replay); a name the user typed stays a name.
    list_[static_cast<std::size_t>(added)].nameFollowsKnobs = copy.nameFollowsKnobs || i == 0;
    return added;
}

bool ScenarioList::rename(int i, const QString& name) {
    const QString n = name.trimmed();
    if (i <= 0 || i >= count() || n.isEmpty()) return false;
    const int other = find(n);
    if (other >= 0 && other != i) return false;
    list_[static_cast<std::size_t>(i)].name = n;
    list_[static_cast<std::size_t>(i)].nameFollowsKnobs = false;
    emit listChanged();
    return true;
}

bool ScenarioList::remove(int i) {
    if (i <= 0 || i >= count()) return false;
    list_.erase(list_.begin() + i);
    const bool wasCurrent = current_ == i;
    if (current_ >= i) current_ = std::max(0, current_ - 1);
    emit listChanged();
    if (wasCurrent) emit currentChanged(current_);
    return true;
}

void ScenarioList::setCurrent(int i) {
    if (i < 0 || i >= count() || i == current_) return;
    current_ = i;
    emit currentChanged(current_);
}

int ScenarioList::setKnobs(int i, const SimKnobs& knobs) {
    if (i < 0 || i >= count() || at(i).knobs == knobs) return i;
    if (i == 0 && !knobs.isReplay()) {
        // The baseline stays replay: the edit starts a what-if of its own, named after what changed
        // (announced by startedFromBaseline, so the user sees where the edit went). The batch
        // (batch.samples, batch.tokens) describes the trace, so the baseline keeps it (below).
        const int added = addNamedByKnobs(knobs);
        current_ = added;
        emit currentChanged(current_);
        emit startedFromBaseline(added);
        return added;
    }
    Scenario& scenario = list_[static_cast<std::size_t>(i)];
    scenario.knobs = knobs;
    emit knobsChanged(i);
    // A name that says the knobs says the new ones (the card, the panes, the table and the report
    // read it from here).
    if (scenario.nameFollowsKnobs) {
        const QString name = uniqueName(nameFor(knobs), i);
        if (name != scenario.name) {
            scenario.name = name;
            emit listChanged();
        }
    }
    return i;
}

} // namespace sl::ui
