#pragma once
#include <QWidget>

namespace sl::ui {

class ViewController;

// The time axis above the panes: ticks and labels relative to the start of the trace, the
// window's duration in the gutter. Follows the shared ViewController.
class TimeAxis : public QWidget {
    Q_OBJECT
public:
    TimeAxis(ViewController* controller, int gutterWidth, QWidget* parent = nullptr);
    QSize sizeHint() const override { return {600, 26}; }
    void setRightMargin(int px) { rightMargin_ = px; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    ViewController* controller_;
    int gutter_;
    int rightMargin_ = 0;
};

} // namespace sl::ui
