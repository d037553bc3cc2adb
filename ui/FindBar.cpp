#include "FindBar.h"

#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

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
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("\u2715"));
    close->setToolTip(tr("Close (Esc)"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 3, 6, 3);
    layout->addWidget(new QLabel(tr("Find:"), this));
    layout->addWidget(field_, 1);
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
    connect(field_, &QLineEdit::textChanged, this, [this] {
        search_.clear();
        searched_.clear();
        count_->clear();
    });
}

void FindBar::setData(std::shared_ptr<const TimelineData> timeline) {
    data_ = std::move(timeline);
    search_.clear();
    searched_.clear();
    updateLabel();
}

void FindBar::activate() {
    show();
    field_->setFocus();
    field_->selectAll();
}

void FindBar::refresh() {
    if (!data_ || searched_ == field_->text()) return;
    searched_ = field_->text();
    search_.search(*data_, searched_);
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
