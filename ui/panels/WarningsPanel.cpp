#include "WarningsPanel.h"

#include <QHeaderView>

namespace sl::ui {

namespace {
const char* kGroups[] = {QT_TRANSLATE_NOOP("WarningsPanel", "Loading"),
                         QT_TRANSLATE_NOOP("WarningsPanel", "Execution graph"),
                         QT_TRANSLATE_NOOP("WarningsPanel", "Simulation")};
}

WarningsPanel::WarningsPanel(QWidget* parent) : QTreeWidget(parent) {
    setObjectName(QStringLiteral("warningsPanel"));
    setColumnCount(1);
    header()->hide();
    setWordWrap(true);
    setUniformRowHeights(false);
    for (int g = 0; g < 3; ++g) {
        groups_[g] = new QTreeWidgetItem(this);
        QFont f = groups_[g]->font(0);
        f.setBold(true);
        groups_[g]->setFont(0, f);
    }
    clearAll();
}

void WarningsPanel::fill(int group, const std::vector<std::string>& warnings) {
    QTreeWidgetItem* g = groups_[group];
    qDeleteAll(g->takeChildren());
    for (const std::string& w : warnings) {
        auto* item = new QTreeWidgetItem(g);
        const QString text = QString::fromStdString(w);
        item->setText(0, text);
        item->setToolTip(0, text);
    }
    g->setText(0, QStringLiteral("%1 (%2)").arg(tr(kGroups[group])).arg(warnings.size()));
    g->setExpanded(!warnings.empty());
    emit countChanged(count());
}

void WarningsPanel::setLoadWarnings(const std::vector<std::string>& warnings) {
    fill(0, warnings);
}

void WarningsPanel::setSimulationWarnings(const std::vector<std::string>& graph,
                                          const std::vector<std::string>& simulation) {
    fill(1, graph);
    fill(2, simulation);
}

void WarningsPanel::clearAll() {
    for (int g = 0; g < 3; ++g)
        fill(g, {});
}

int WarningsPanel::count() const {
    int n = 0;
    for (const QTreeWidgetItem* g : groups_)
        n += g->childCount();
    return n;
}

} // namespace sl::ui
