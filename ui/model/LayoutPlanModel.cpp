#include "LayoutPlanModel.h"

#include <QStringList>

#include <algorithm>

namespace sl::ui {

LayoutPlanModel::LayoutPlanModel(QObject* parent) : QAbstractTableModel(parent) {}

void LayoutPlanModel::setPlan(LayoutPlan plan) {
    beginResetModel();
    plan_ = std::move(plan);
    endResetModel();
}

void LayoutPlanModel::clear() {
    setPlan({});
}

QString LayoutPlanModel::layoutName(const LayoutRow& r, bool withMicrobatches) {
    QString name = QStringLiteral("dp %1 · tp %2 · pp %3").arg(r.dp).arg(r.tp).arg(r.pp);
    if (withMicrobatches) name += QStringLiteral(" · %1 mb").arg(r.microbatches);
    return name;
}

bool LayoutPlanModel::microbatchesVary() const {
    return std::any_of(plan_.rows.begin(), plan_.rows.end(), [this](const LayoutRow& r) {
        return r.microbatches != plan_.rows.front().microbatches;
    });
}

int LayoutPlanModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(plan_.rows.size());
}

int LayoutPlanModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LayoutPlanModel::number(const LayoutRow& r, int column) const {
    switch (column) {
    case Step:
        return static_cast<qlonglong>(r.step);
    case TokensPerSecond:
        return r.tokensPerSecond;
    case Exposed:
        return r.exposed.meanNs;
    case Bubble:
        return r.bubblePct;
    case Memory:
        return r.memory.total();
    case Fits:
        return r.fits;
    default:
        return {};
    }
}

QVariant LayoutPlanModel::text(const LayoutRow& r, int column) const {
    if (column == Layout) return layoutName(r, microbatchesVary());
    // A layout the simulator refused says why in its second column; the figures stay empty.
    if (!r.error.empty()) return column == Step ? QString::fromStdString(r.error) : QVariant();
    switch (column) {
    case Step:
        return QString::number(static_cast<double>(r.step) / 1e6, 'f', 3);
    case TokensPerSecond:
        return QString::number(r.tokensPerSecond, 'f', 0);
    case Exposed:
        return QString::number(r.exposed.meanNs / 1e6, 'f', 3);
    case Bubble:
        return QString::number(r.bubblePct, 'f', 1);
    case Memory:
        return QString::number(r.memory.total() / 1e9, 'f', 1);
    case Fits:
        return r.fits ? tr("yes") : tr("no: exceeds %1 GB").arg(plan_.gpuMemoryGB);
    default:
        return {};
    }
}

QVariant LayoutPlanModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const LayoutRow& r = plan_.rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return text(r, index.column());
    case Qt::UserRole:
        return r.error.empty() ? number(r, index.column()) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == Layout || index.column() == Fits || !r.error.empty()
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole: {
        if (!r.error.empty()) return QString::fromStdString(r.error);
        if (r.modelled.empty()) return tr("As traced: nothing modelled");
        QStringList lines;
        for (const auto& m : r.modelled)
            lines << QString::fromStdString(m);
        return tr("Modelled, not measured:\n%1").arg(lines.join(QLatin1Char('\n')));
    }
    default:
        return {};
    }
}

QVariant LayoutPlanModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Layout:
        return tr("Layout");
    case Step:
        return tr("Step (ms)");
    case TokensPerSecond:
        return tr("Tokens/s");
    case Exposed:
        return tr("Exposed comm. (ms)");
    case Bubble:
        return tr("Bubble %");
    case Memory:
        return tr("Memory/GPU (GB)");
    case Fits:
        return tr("Fits");
    default:
        return {};
    }
}

} // namespace sl::ui
