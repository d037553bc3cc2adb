#pragma once
#include <QFrame>

class QLabel;

namespace sl::ui {

// A dismissable bar at the top of the window for load errors and warnings; the trace that was
// open stays open underneath.
class MessageBar : public QFrame {
    Q_OBJECT
public:
    enum class Level { Info, Warning, Error };
    explicit MessageBar(QWidget* parent = nullptr);
    void showMessage(const QString& text, Level level);
    QString text() const;
    Level level() const { return level_; }

private:
    QLabel* label_;
    Level level_ = Level::Info;
};

} // namespace sl::ui
