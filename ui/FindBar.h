#pragma once
#include "EventSearch.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;

namespace sl::ui {

// The Ctrl+F bar: a text field, previous / next (Shift+Enter / Enter, F3), the match count.
// Emits found() with the event to select and show.
class FindBar : public QWidget {
    Q_OBJECT
public:
    explicit FindBar(QWidget* parent = nullptr);
    void setData(std::shared_ptr<const TimelineData> timeline);
    void activate(); // shows the bar and focuses the text
    QLineEdit* field() const { return field_; }
    const EventSearch& search() const { return search_; }
    void findNext();
    void findPrevious();

signals:
    void found(sl::ui::EventId e);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void refresh();
    void updateLabel();

    std::shared_ptr<const TimelineData> data_;
    EventSearch search_;
    QString searched_;
    QLineEdit* field_;
    QLabel* count_;
};

} // namespace sl::ui
