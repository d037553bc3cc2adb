#include "FindBar.h"

#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

#include <limits>

namespace sl::ui {

FindBar::FindBar(QWidget* parent) : QWidget(parent), field_(new QLineEdit(this)), count_(new QLabel(this)) {
    field_->setPlaceholderText(tr("Find events by name"));
    field_->setClearButtonEnabled(true);
    auto* prev = new QToolButton(this);
    prev->setText(QStringLiteral("\u25B2"));
    prev->setToolTip(tr("Previous match (Shift+Enter)"));
    auto* next = new QToolButton(this);
    next->setText(QStringLiteral("\u25BC"));
    next->setToolTip(tr("Next match (Enter)"));
    whole_ = new QToolButton(this);
    whole_->setText(tr("Whole name"));
    whole_->setCheckable(true);
    whole_->setToolTip(tr("Match the whole event name exactly (case-sensitive) instead of a part of it"));
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("\u2715"));
    close->setToolTip(tr("Close (Esc)"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 3, 6, 3);
    layout->addWidget(new QLabel(tr("Find:"), this));
    layout->addWidget(field_, 1);
    layout->addWidget(whole_);
    layout->addWidget(prev);
    layout->addWidget(next);
    layout->addWidget(count_);
    layout->addWidget(close);
    count_->setMinimumWidth(110);
    connect(prev, &QToolButton::clicked, this, &FindBar::findPrevious);
    connect(next, &QToolButton::clicked, this, &FindBar::findNext);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    connect(field_, &QLineEdit::returnPressed, this, [this] {
        (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier) ? findPrevious() : findNext();
    });
    connect(field_, &QLineEdit::textChanged, this, &FindBar::reset);
    connect(whole_, &QToolButton::toggled, this, &FindBar::reset);
}

void FindBar::reset() {
    const bool had = search_.count() > 0;
    search_.clear();
    searched_.clear();
    count_->clear();
    if (had) emit matchesChanged();
}

bool FindBar::wholeName() const {
    return whole_->isChecked();
}

void FindBar::hideEvent(QHideEvent* event) {
    // Closing the bar takes the outlines away; reopening it searches again.
    reset();
    QWidget::hideEvent(event);
}

void FindBar::findName(const QString& name, EventId from) {
    show();
    {
        const QSignalBlocker a(field_), b(whole_);
        field_->setText(name);
        whole_->setChecked(true);
    }
    searched_.clear();
    refresh();
    if (!search_.setCurrent(from)) search_.seek(std::numeric_limits<TimeNs>::min());
    updateLabel();
}

void FindBar::setData(std::shared_ptr<const TimelineData> timeline) {
    data_ = std::move(timeline);
    reset();
    updateLabel();
}

void FindBar::activate() {
    show();
    field_->setFocus();
    field_->selectAll();
}

void FindBar::refresh() {
    if (!data_ || (searched_ == field_->text() && searchedWhole_ == wholeName() && !searched_.isEmpty()))
        return;
    searched_ = field_->text();
    searchedWhole_ = wholeName();
    search_.search(*data_, searched_, 2'000'000, searchedWhole_);
    emit matchesChanged();
}

void FindBar::showMatch(int index) {
    refresh();
    if (index < 0 || static_cast<std::size_t>(index) >= search_.count()) return;
    search_.setCurrentIndex(index);
    updateLabel();
    emit found(search_.match(static_cast<std::size_t>(index)));
}

void FindBar::findNext() {
    refresh();
    const EventId e = search_.next();
    updateLabel();
    if (e.valid()) emit found(e);
}

void FindBar::findPrevious() {
    refresh();
    const EventId e = search_.previous();
    updateLabel();
    if (e.valid()) emit found(e);
}

void FindBar::updateLabel() {
    if (field_->text().isEmpty() || searched_.isEmpty()) {
        count_->clear();
    } else if (search_.count() == 0) {
        count_->setText(tr("no match"));
    } else {
        count_->setText(tr("%1 / %2%3")
                            .arg(search_.current() + 1)
                            .arg(search_.count())
                            .arg(search_.truncated() ? QStringLiteral("+") : QString()));
    }
}

void FindBar::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape) {
        hide();
    } else if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) &&
               (event->modifiers() & Qt::ShiftModifier)) {
        findPrevious();
    } else if (event->key() == Qt::Key_F3) {
        (event->modifiers() & Qt::ShiftModifier) ? findPrevious() : findNext();
    } else {
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

} // namespace sl::ui
