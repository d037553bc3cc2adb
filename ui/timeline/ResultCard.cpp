#include "ResultCard.h"

#include "ScenarioRunner.h"
#include "TextElide.h"

#include <QLabel>
#include <QVBoxLayout>

namespace sl::ui {

ResultCard::ResultCard(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("resultCard"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(10, 4, 10, 4);
    outer->setSpacing(2);
    // The scenario's name and its headline share one label that wraps (rich text, two sizes): two
    // labels side by side in a row could not wrap, and held the central area ~700 px wide, which
    // squeezed the right dock column of a 1280 px window (docs/MainWindow.md, "Layout").
    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("resultTitle"));
    title_->setWordWrap(true);
    title_->setTextFormat(Qt::RichText);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    outer->addWidget(title_);
    limit_ = new QLabel(this);
    reason_ = new QLabel(this);
    modelled_ = new QLabel(this);
    modelled_->setObjectName(QStringLiteral("resultModelled"));
    pathNote_ = new QLabel(this);
    for (QLabel* l : {limit_, reason_, modelled_, pathNote_}) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        outer->addWidget(l);
    }
    // Throughput against the baseline (docs/Scaling.md), right under the headline: a step that does
    // more work reads "slower" in the headline alone.
    throughput_ = new QLabel(this);
    throughput_->setObjectName(QStringLiteral("resultThroughput"));
    throughput_->setWordWrap(true);
    throughput_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = throughput_->font();
    bold.setBold(true);
    throughput_->setFont(bold);
    outer->insertWidget(1, throughput_);
    comparison_ = new QLabel(this);
    comparison_->setObjectName(QStringLiteral("resultComparison"));
    comparison_->setWordWrap(true);
    comparison_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    comparison_->setFont(bold);
    comparison_->setStyleSheet(QStringLiteral("color: #1c4f8a;"));
    outer->insertWidget(1, comparison_);
    QFont small = pathNote_->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    pathNote_->setFont(small);
    pathNote_->setStyleSheet(QStringLiteral("color: palette(mid);"));
    reason_->setStyleSheet(QStringLiteral("color: #a05a00;"));
    modelled_->setStyleSheet(QStringLiteral("color: #5c3d99;"));
    setResult(nullptr, false);
}

void ResultCard::setResult(const ScenarioResult* r, bool isBaseline, const QString& baselineName) {
    setVisible(r != nullptr);
    if (!r) return;
    titleText_ = isBaseline ? tr("%1 (replay of the trace):").arg(r->name)
                            : tr("%1 vs %2:").arg(r->name, baselineName);
    headlineText_ = r->headline;
    knobsText_ = r->changedKnobs.isEmpty() ? tr("Knobs: all at their replay defaults")
                                           : tr("Knobs: %1").arg(r->changedKnobs.join(QStringLiteral(", ")));
    throughput_->setText(r->throughput.isEmpty() ? QString() : tr("Throughput: %1").arg(r->throughput));
    limitText_ = r->limit.isEmpty() ? QString() : tr("What limits this %1: %2").arg(r->stepWord, r->limit);
    reason_->setText(r->noEffect.isEmpty() ? QString() : tr("Why so little change: %1").arg(r->noEffect));
    // A new layout's kernels and collectives are predicted, not measured: the card says which.
    modelled_->setText(r->modelled.isEmpty() ? QString() : tr("Layout: %1").arg(r->modelled));
    pathNote_->setText(r->pathNote);
    pinnedDetail_ = r->pinnedDetail;
    refresh();
}

void ResultCard::setComparisonLine(const QString& line) {
    comparison_->setText(line);
    refresh();
}

void ResultCard::setCompact(bool compact) {
    if (compact_ == compact) return;
    compact_ = compact;
    refresh();
}

void ResultCard::refresh() {
    const auto size = [this](double factor) {
        const QFont f = font();
        return f.pointSizeF() > 0 ? QStringLiteral("%1pt").arg(f.pointSizeF() * factor, 0, 'f', 1)
                                  : QStringLiteral("%1px").arg(qRound(f.pixelSize() * factor));
    };
    // One line when the width allows: the scenario, the headline in large type, then its knobs.
    title_->setText(QStringLiteral("<span style=\"font-size:%1; font-weight:600\">%2</span>&nbsp;&nbsp; "
                                   "<span style=\"font-size:%3; font-weight:600\">%4</span>&nbsp;&nbsp; "
                                   "<span>%5</span>")
                        .arg(size(1.15), titleText_.toHtmlEscaped(), size(1.5), headlineText_.toHtmlEscaped(),
                             knobsText_.toHtmlEscaped()));
    throughput_->setVisible(!throughput_->text().isEmpty());
    comparison_->setVisible(!comparison_->text().isEmpty());
    limit_->setVisible(!limitText_.isEmpty());
    reason_->setVisible(!reason_->text().isEmpty());
    modelled_->setVisible(!modelled_->text().isEmpty());
    // Compact (a short window): the path's note moves into the tooltip of the limit line, so that the
    // card leaves the panes half of a 1280x720 window (docs/MainWindow.md, "Layout").
    const QString note = pathNote_->text();
    pathNote_->setToolTip(pinnedDetail_);
    pathNote_->setVisible(!note.isEmpty() && !compact_);
    QString tip = compact_ && !note.isEmpty()
                      ? (pinnedDetail_.isEmpty() ? note : note + QStringLiteral("\n") + pinnedDetail_)
                      : QString();
    // Compact: the sentence in two lines at most, whole in the tooltip.
    fitLimit();
    if (compact_ && limit_->text() != limitText_)
        tip = tip.isEmpty() ? limitText_ : limitText_ + QStringLiteral("\n\n") + tip;
    limit_->setToolTip(tip);
    fitHeight();
}

void ResultCard::resizeEvent(QResizeEvent* event) {
    QFrame::resizeEvent(event);
    if (compact_) fitLimit();
    fitHeight();
}

void ResultCard::fitLimit() {
    const int width =
        limit_->contentsRect().width() > 0 ? limit_->contentsRect().width() : this->width() - 24;
    limit_->setText(compact_ ? elideToLines(limitText_, limit_->font(), width, 2) : limitText_);
}

void ResultCard::fitHeight() {
    // The lines wrap: the height their width needs, as a minimum, so that the layout above (a
    // stacked page, which does not ask heightForWidth) never clips the last line.
    const int h = layout()->heightForWidth(width());
    if (h > 0 && h != minimumHeight()) setMinimumHeight(h);
}

QString ResultCard::text() const {
    QStringList lines;
    lines << titleText_ + QLatin1Char(' ') + headlineText_ << knobsText_;
    for (QLabel* l : {comparison_, throughput_, limit_, reason_, modelled_, pathNote_}) {
        const QString shown = l == limit_ ? limitText_ : l->text(); // the whole sentence
        if (!shown.isEmpty() && (l != pathNote_ || !compact_)) lines << shown;
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace sl::ui
