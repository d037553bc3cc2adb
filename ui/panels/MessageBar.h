#pragma once
#include <QFrame>

#include <functional>

class QLabel;
class QPushButton;

namespace sl::ui {

// A dismissable bar at the top of the window for load errors and warnings; the trace that was
// open stays open underneath.
class MessageBar : public QFrame {
    Q_OBJECT
public:
    enum class Level { Info, Warning, Error };
    Q_ENUM(Level)
    explicit MessageBar(QWidget* parent = nullptr);
    void showMessage(const QString& text, Level level);
    // The same with a button that runs `action` (and hides the bar), e.g. "Open the good ranks".
    void showMessage(const QString& text, Level level, const QString& actionText,
                     std::function<void()> action);
    QString text() const;
    // A short window (under 800 px): the message in one line, whole in the tooltip (the
    // Warnings panel lists a load's warnings anyway).
    void setCompact(bool compact);
    QPushButton* actionButton() const { return action_; }
    Level level() const { return level_; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitText();
    QLabel* label_;
    QString text_;
    bool compact_ = false;
    QPushButton* action_;
    std::function<void()> onAction_;
    Level level_ = Level::Info;
};

} // namespace sl::ui
