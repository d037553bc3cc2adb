#pragma once
#include "EventSearch.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QToolButton;

namespace sl::ui {

// The Ctrl+F bar: a text field, a whole-name toggle, previous / next (Shift+Enter / Enter, F3), the
// match count. Emits found() with the event to select and show, and matchesChanged() when the set of
// matches (which the panes outline) changes.
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
    // "Find similar": every event named exactly `name`, the cursor on `from` (when it is one of them),
    // so that next / previous go on from it.
    void findName(const QString& name, EventId from = {});
    bool wholeName() const;
    // Moves the cursor to match `index` and shows it (found()).
    void showMatch(int index);
    // Runs the search for the current text now (otherwise it runs at the first next / previous).
    void refresh();

signals:
    void found(sl::ui::EventId e);
    void matchesChanged();

protected:
    void keyPressEvent(QKeyEvent* event) override;

protected:
    void hideEvent(QHideEvent* event) override;

private:
    void updateLabel();
    void reset();

    std::shared_ptr<const TimelineData> data_;
    EventSearch search_;
    QString searched_;
    QLineEdit* field_;
    QLabel* count_;
    QToolButton* whole_;
    bool searchedWhole_ = false;
};

} // namespace sl::ui
