#include "LegendWidget.h"

#include "Palette.h"

#include <QLabel>
#include <QStringList>
#include <QVBoxLayout>

namespace sl::ui {

namespace {
// One swatch and its name, unbreakable inside; the legend wraps between items only.
QString swatch(const QColor& c, const QString& text) {
    return QStringLiteral("<span style='background:%1;color:%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2")
        .arg(c.name(), text.toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
}
} // namespace

LegendWidget::LegendWidget(QWidget* parent) : QWidget(parent) {
    // One word-wrapped line of items: it wraps onto a second line when the window is narrow instead
    // of widening the window (with the critical path and exposed communication shown it needed
    // about 890 px, more than the central area of a 1280 px window; docs/MainWindow.md, "Layout").
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    text_ = new QLabel(this);
    text_->setObjectName(QStringLiteral("legendText"));
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::RichText);
    layout->addWidget(text_);
    refresh();
}

void LegendWidget::setCriticalPath(bool on) {
    path_ = on;
    refresh();
}

void LegendWidget::setExposed(bool on) {
    exposed_ = on;
    refresh();
}

void LegendWidget::refresh() {
    QStringList items;
    for (int c = 0; c < kCategoryCount; ++c) {
        const auto cat = static_cast<Category>(c);
        items << swatch(palette::color(cat), categoryLabel(cat));
    }
    if (path_) {
        items << tr("<b>Critical&nbsp;path:</b>");
        for (int l = 0; l < kPathLabelCount; ++l) {
            const auto label = static_cast<PathLabel>(l);
            items << swatch(palette::pathColor(label), palette::pathLabelText(label));
        }
    }
    // The hatch of exposed communication, as slashes on its pale ground.
    if (exposed_)
        items << QStringLiteral("<span style='background:#fff0f0;color:%1'>&nbsp;////&nbsp;</span>&nbsp;%2")
                     .arg(palette::exposed().name(), tr("Exposed&nbsp;comm"));
    text_->setText(items.join(QStringLiteral(" &nbsp; ")));
}

} // namespace sl::ui
