#include "CpuRegionEditor.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <limits>
#include <optional>
#include <regex>

namespace sl::ui {

namespace {

std::optional<double> factorOf(const QString& text) {
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("inf")) return std::numeric_limits<double>::infinity();
    bool ok = false;
    double v = t.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v <= 0 || v > 1e6) return std::nullopt;
    return v;
}

bool validPattern(const QString& text) {
    if (text.trimmed().isEmpty()) return false;
    try {
        std::regex check(text.toStdString());
    } catch (const std::regex_error&) {
        return false;
    }
    return true;
}

} // namespace

CpuRegionEditor::CpuRegionEditor(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    // As tall as its rows and buttons: the knob form should not spread it over the dock.
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    table_ = new QTableWidget(0, 2, this);
    table_->setHorizontalHeaderLabels({tr("name (regex)"), tr("speedup")});
    table_->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    table_->verticalHeader()->hide();
    table_->setMaximumHeight(96);
    table_->setToolTip(tr("cpu.speedup[<regex>]: CPU ops, annotations and python functions whose name "
                          "matches (and everything nested in them) run this many times faster; inf removes "
                          "them, and a host sync inside no longer waits. Example: DataLoader = inf (data "
                          "loading in worker processes), aten::item = inf, Optimizer.step = 2."));
    layout->addWidget(table_);
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    auto* add = new QPushButton(tr("Add"), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();
    layout->addLayout(buttons);
    connect(add, &QPushButton::clicked, this, [this] {
        addRegion(QString(), QStringLiteral("inf"));
        table_->editItem(table_->item(table_->rowCount() - 1, 0));
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        int row = table_->currentRow();
        if (row < 0) row = table_->rowCount() - 1;
        if (row < 0) return;
        table_->removeRow(row);
        emit changed();
    });
    connect(table_, &QTableWidget::itemChanged, this, [this] {
        if (updating_) return;
        validate();
        emit changed();
    });
}

void CpuRegionEditor::addRegion(const QString& pattern, const QString& factor) {
    updating_ = true;
    const int row = table_->rowCount();
    table_->insertRow(row);
    table_->setItem(row, 0, new QTableWidgetItem(pattern));
    table_->setItem(row, 1, new QTableWidgetItem(factor));
    updating_ = false;
    validate();
    if (validPattern(pattern)) emit changed();
}

void CpuRegionEditor::validate() {
    updating_ = true;
    for (int r = 0; r < table_->rowCount(); ++r) {
        QTableWidgetItem* p = table_->item(r, 0);
        QTableWidgetItem* f = table_->item(r, 1);
        if (!p || !f) continue;
        const bool okP = validPattern(p->text()), okF = factorOf(f->text()).has_value();
        p->setBackground(okP || p->text().isEmpty() ? QBrush() : QBrush(QColor(0xffc9c9)));
        f->setBackground(okF ? QBrush() : QBrush(QColor(0xffc9c9)));
        p->setToolTip(okP ? QString() : tr("not a valid regular expression: this row is ignored"));
        f->setToolTip(okF ? QString() : tr("a factor > 0, or inf: this row is ignored"));
    }
    updating_ = false;
}

std::vector<std::pair<std::string, double>> CpuRegionEditor::regions() const {
    std::vector<std::pair<std::string, double>> out;
    for (int r = 0; r < table_->rowCount(); ++r) {
        QTableWidgetItem* p = table_->item(r, 0);
        QTableWidgetItem* f = table_->item(r, 1);
        if (!p || !f || !validPattern(p->text())) continue;
        if (auto v = factorOf(f->text())) out.emplace_back(p->text().toStdString(), *v);
    }
    return out;
}

void CpuRegionEditor::setRegions(const std::vector<std::pair<std::string, double>>& regions) {
    updating_ = true;
    table_->setRowCount(0);
    for (const auto& [re, v] : regions) {
        const int row = table_->rowCount();
        table_->insertRow(row);
        table_->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(re)));
        table_->setItem(row, 1,
                        new QTableWidgetItem(std::isinf(v) ? QStringLiteral("inf") : QString::number(v)));
    }
    updating_ = false;
    validate();
}

} // namespace sl::ui
