#include "ResultCard.h"

#include "ScenarioRunner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace sl::ui {

ResultCard::ResultCard(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("resultCard"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(10, 6, 10, 6);
    outer->setSpacing(2);
    auto* top = new QHBoxLayout;
    title_ = new QLabel(this);
    headline_ = new QLabel(this);
    QFont big = headline_->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    headline_->setFont(big);
    QFont bold = title_->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    title_->setFont(bold);
    top->addWidget(title_);
    top->addSpacing(12);
    top->addWidget(headline_);
    top->addStretch(1);
    outer->addLayout(top);
    knobs_ = new QLabel(this);
    limit_ = new QLabel(this);
    reason_ = new QLabel(this);
    pathNote_ = new QLabel(this);
    for (QLabel* l : {knobs_, limit_, reason_, pathNote_}) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        outer->addWidget(l);
    }
    QFont small = pathNote_->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    pathNote_->setFont(small);
    pathNote_->setStyleSheet(QStringLiteral("color: palette(mid);"));
    reason_->setStyleSheet(QStringLiteral("color: #a05a00;"));
    setResult(nullptr, false);
}

void ResultCard::setResult(const ScenarioResult* r, bool isBaseline, const QString& baselineName) {
    setVisible(r != nullptr);
    if (!r) return;
    title_->setText(isBaseline ? tr("%1 (replay of the trace):").arg(r->name)
                               : tr("%1 vs %2:").arg(r->name, baselineName));
    headline_->setText(r->headline);
    knobs_->setText(r->changedKnobs.isEmpty()
                        ? tr("Knobs: all at their replay defaults")
                        : tr("Knobs: %1").arg(r->changedKnobs.join(QStringLiteral(", "))));
    limit_->setText(r->limit.isEmpty() ? QString() : tr("What limits this step: %1").arg(r->limit));
    limit_->setVisible(!r->limit.isEmpty());
    reason_->setText(r->noEffect.isEmpty() ? QString() : tr("Why so little change: %1").arg(r->noEffect));
    reason_->setVisible(!r->noEffect.isEmpty());
    pathNote_->setText(r->pathNote);
    pathNote_->setToolTip(r->pinnedDetail);
    pathNote_->setVisible(!r->pathNote.isEmpty());
}

QString ResultCard::text() const {
    QStringList lines;
    lines << title_->text() + QLatin1Char(' ') + headline_->text();
    for (QLabel* l : {knobs_, limit_, reason_, pathNote_})
        if (!l->text().isEmpty()) lines << l->text();
    return lines.join(QLatin1Char('\n'));
}

} // namespace sl::ui
