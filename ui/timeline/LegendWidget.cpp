#include "LegendWidget.h"

#include "Palette.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QVBoxLayout>

namespace sl::ui {

namespace {
QLabel* swatch(QWidget* parent, const QColor& c, const QString& text) {
    auto* label = new QLabel(parent);
    label->setText(QStringLiteral("<span style='background:%1;color:%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span> %2")
                       .arg(c.name(), text));
    return label;
}
} // namespace

LegendWidget::LegendWidget(QWidget* parent) : QWidget(parent) {
    auto* rows = new QVBoxLayout(this);
    rows->setContentsMargins(6, 2, 6, 2);
    rows->setSpacing(2);
    auto* layout = new QHBoxLayout;
    layout->setSpacing(8);
    rows->addLayout(layout);
    for (int c = 0; c < kCategoryCount; ++c) {
        const auto cat = static_cast<Category>(c);
        layout->addWidget(swatch(this, palette::color(cat), categoryLabel(cat)));
    }
    path_ = new QWidget(this);
    auto* pl = new QHBoxLayout(path_);
    pl->setContentsMargins(0, 0, 0, 0);
    pl->setSpacing(6);
    pl->addWidget(new QLabel(tr("<b>Critical path:</b>"), path_));
    for (int l = 0; l < kPathLabelCount; ++l) {
        const auto label = static_cast<PathLabel>(l);
        pl->addWidget(swatch(path_, palette::pathColor(label), palette::pathLabelText(label)));
    }
    auto* second = new QHBoxLayout;
    second->setSpacing(8);
    rows->addLayout(second);
    second->addWidget(path_);
    exposed_ = new QWidget(this);
    auto* el = new QHBoxLayout(exposed_);
    el->setContentsMargins(12, 0, 0, 0);
    el->setSpacing(4);
    auto* hatch = new QLabel(exposed_);
    QPixmap pm(22, 12);
    pm.fill(QColor(0xfff0f0));
    {
        QPainter p(&pm);
        p.setPen(Qt::NoPen);
        p.setBrush(QBrush(palette::exposed(), Qt::BDiagPattern));
        p.drawRect(pm.rect());
    }
    hatch->setPixmap(pm);
    el->addWidget(hatch);
    el->addWidget(new QLabel(tr("Exposed comm"), exposed_));
    second->addWidget(exposed_);
    second->addStretch(1);
    layout->addStretch(1);
    path_->hide();
    exposed_->hide();
}

void LegendWidget::setCriticalPath(bool on) {
    path_->setVisible(on);
}

void LegendWidget::setExposed(bool on) {
    exposed_->setVisible(on);
}

} // namespace sl::ui
