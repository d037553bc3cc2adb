#pragma once
#include <QWidget>

namespace sl::ui {

// The colour legend: one swatch per event category.
class LegendWidget : public QWidget {
    Q_OBJECT
public:
    explicit LegendWidget(QWidget* parent = nullptr);
};

} // namespace sl::ui
