#include "MessageBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace sl::ui {

MessageBar::MessageBar(QWidget* parent) : QFrame(parent), label_(new QLabel(this)) {
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
    layout->addWidget(close);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
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
    label_->setText(text);
    show();
}

QString MessageBar::text() const {
    return label_->text();
}

} // namespace sl::ui
