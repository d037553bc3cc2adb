#pragma once
#include "TimeFormat.h"
#include "TimeMapping.h"

#include <QString>
#include <QWidget>

#include <vector>

class QFontMetrics;

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

    // The labels of a widthPx-wide axis: at round values after origin (a 1-2-5 step), far enough
    // apart that none touches the next in fm, none cut by the right edge.
    struct Label {
        TimeNs time = 0;
        double x = 0;
        QString text;
        double right = 0; // x + its width
    };
    static std::vector<Label> labels(const TimeMapping& m, int widthPx, TimeNs origin, const QFontMetrics& fm,
                                     std::vector<Tick>* ticks = nullptr);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    ViewController* controller_;
    int gutter_;
    int rightMargin_ = 0;
};

} // namespace sl::ui
