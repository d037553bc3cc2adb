#include "LegendWidget.h"

#include "Palette.h"

#include <QHBoxLayout>
#include <QLabel>

namespace sl::ui {

LegendWidget::LegendWidget(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->setSpacing(12);
    for (int c = 0; c < kCategoryCount; ++c) {
        const auto cat = static_cast<Category>(c);
        auto* label = new QLabel(this);
        label->setText(
            QStringLiteral("<span style='background:%1;color:%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span> %2")
                .arg(palette::color(cat).name(), categoryLabel(cat)));
        layout->addWidget(label);
    }
    layout->addStretch(1);
}

} // namespace sl::ui
