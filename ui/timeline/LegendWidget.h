#pragma once
#include <QWidget>

class QLabel;

namespace sl::ui {

// The colour legend: one swatch per event category; with the critical path shown, one per path
// label; with exposed communication shown, its hatch.
class LegendWidget : public QWidget {
    Q_OBJECT
public:
    explicit LegendWidget(QWidget* parent = nullptr);
    void setCriticalPath(bool on);
    void setExposed(bool on);

private:
    void refresh();
    QLabel* text_;
    bool path_ = false;
    bool exposed_ = false;
};

} // namespace sl::ui
