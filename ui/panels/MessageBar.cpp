#include "MessageBar.h"

#include "TextElide.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace sl::ui {

MessageBar::MessageBar(QWidget* parent)
    : QFrame(parent), label_(new QLabel(this)), action_(new QPushButton(this)) {
    setObjectName(QStringLiteral("messageBar"));
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("\u2715"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 4, 4, 4);
    layout->addWidget(label_, 1);
    layout->addWidget(action_);
    layout->addWidget(close);
    action_->hide();
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    connect(action_, &QPushButton::clicked, this, [this] {
        auto run = std::move(onAction_);
        onAction_ = {};
        hide();
        if (run) run();
    });
    hide();
}

void MessageBar::showMessage(const QString& text, Level level) {
    level_ = level;
    static const char* styles[] = {
        "#messageBar { background: #cfe2ff; border-bottom: 1px solid #9ec5fe; color: #052c65; }",
        "#messageBar { background: #fff3cd; border-bottom: 1px solid #ffe69c; color: #664d03; }",
        "#messageBar { background: #f8d7da; border-bottom: 1px solid #f1aeb5; color: #58151c; }",
    };
    setStyleSheet(QString::fromLatin1(styles[static_cast<int>(level)]));
    text_ = text;
    fitText();
    onAction_ = {};
    action_->hide();
    show();
}

void MessageBar::showMessage(const QString& text, Level level, const QString& actionText,
                             std::function<void()> action) {
    showMessage(text, level);
    onAction_ = std::move(action);
    action_->setText(actionText);
    action_->show();
}

QString MessageBar::text() const {
    return text_;
}

void MessageBar::setCompact(bool compact) {
    if (compact_ == compact) return;
    compact_ = compact;
    fitText();
}

void MessageBar::resizeEvent(QResizeEvent* event) {
    QFrame::resizeEvent(event);
    if (compact_) fitText();
}

void MessageBar::fitText() {
    const int width = label_->width() > 40 ? label_->width() : this->width() - 80;
    const QString shown = compact_ ? elideToLines(text_, label_->font(), width, 1) : text_;
    label_->setText(shown);
    label_->setToolTip(shown != text_ ? text_ : QString());
}

} // namespace sl::ui
