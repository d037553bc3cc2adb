#pragma once
// The knob cpu.speedup[<regex>] as an editable list of (pattern, factor) rows: CPU ops, annotations
// and python functions whose name matches run factor times faster, "inf" removes them (what if the
// data loader ran in worker processes, the optimizer step were fused, this .item() were gone).
#include <QWidget>

#include <string>
#include <utility>
#include <vector>

class QTableWidget;

namespace sl::ui {

class CpuRegionEditor : public QWidget {
    Q_OBJECT
public:
    explicit CpuRegionEditor(QWidget* parent = nullptr);

    // The valid rows (a regular expression and a factor > 0 or inf); invalid rows are marked in
    // the table and left out.
    std::vector<std::pair<std::string, double>> regions() const;
    void setRegions(const std::vector<std::pair<std::string, double>>& regions);
    // Adds a row (pattern, factor text), e.g. from "find all with this name".
    void addRegion(const QString& pattern, const QString& factor = QStringLiteral("inf"));
    QTableWidget* table() const { return table_; }

signals:
    void changed();

private:
    void validate();
    QTableWidget* table_ = nullptr;
    bool updating_ = false;
};

} // namespace sl::ui
