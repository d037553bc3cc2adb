#include "WarningsPanel.h"
#include "SimRunner.h"

#include <QHeaderView>
#include <QStyle>

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

void WarningsPanel::fill(int group, const Warnings& warnings) {
    QTreeWidgetItem* g = groups_[group];
    qDeleteAll(g->takeChildren());
    for (const Warning& w : warnings) {
        const WarnInfo& info = warnInfo(w.kind);
        auto* item = new QTreeWidgetItem(g);
        const QString text = QString::fromStdString(w.text);
        const QString key = QString::fromUtf8(info.key.data(), static_cast<qsizetype>(info.key.size()));
        item->setText(0, text);
        item->setData(0, Qt::UserRole, key);
        item->setIcon(0, style()->standardIcon(
                             info.severity == Severity::DataLoss  ? QStyle::SP_MessageBoxCritical
                             : info.severity == Severity::Warning ? QStyle::SP_MessageBoxWarning
                                                                  : QStyle::SP_MessageBoxInformation));
        item->setToolTip(
            0, QStringLiteral("%1\n\n%2 (%3): %4")
                   .arg(text, key, QString::fromUtf8(severityName(info.severity)),
                        QString::fromUtf8(info.message.data(), static_cast<qsizetype>(info.message.size()))));
    }
    g->setText(0, QStringLiteral("%1 (%2)").arg(tr(kGroups[group])).arg(warnings.size()));
    g->setExpanded(!warnings.empty());
    emit countChanged(count());
}

void WarningsPanel::setLoadWarnings(const Warnings& warnings) {
    fill(0, warnings);
}

void WarningsPanel::setSimulationWarnings(const Warnings& graph, const Warnings& simulation) {
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

void WarningsPanel::setSimulation(const SimOutput& output) {
    setSimulationWarnings(output.graph ? output.graph->warnings : Warnings{}, output.result->warnings);
}

} // namespace sl::ui
