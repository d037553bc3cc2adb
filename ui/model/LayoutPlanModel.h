#pragma once
// The table of the plan view (docs/Layouts.md, "In the window"): one row per layout of a
// LayoutPlan (analysis/LayoutPlan.h), in the plan's order (fitting layouts first, then by tokens
// per second; layouts that could not be predicted last). Qt::UserRole gives the raw number of a
// numeric column (ns, tokens/s, percent, bytes), Qt::ToolTipRole what the prediction modelled.
#include "analysis/LayoutPlan.h"

#include <QAbstractTableModel>

namespace sl::ui {

class LayoutPlanModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Layout, Step, TokensPerSecond, Exposed, Bubble, Memory, Fits, ColumnCount };

    explicit LayoutPlanModel(QObject* parent = nullptr);
    void setPlan(LayoutPlan plan);
    void clear();
    const LayoutPlan& plan() const { return plan_; }

    // "dp 4 · tp 2 · pp 1", with " · 8 mb" when the plan varies the micro-batches.
    static QString layoutName(const LayoutRow& row, bool withMicrobatches);
    // Whether the plan's rows differ in their micro-batches per replica (a --microbatches plan).
    bool microbatchesVary() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant text(const LayoutRow& row, int column) const;
    QVariant number(const LayoutRow& row, int column) const;
    LayoutPlan plan_;
};

} // namespace sl::ui
