#include "TextElide.h"

#include <QFontMetrics>
#include <QTextLayout>

namespace sl::ui {

QString elideToLines(const QString& text, const QFont& font, int width, int lines) {
    if (text.isEmpty() || width <= 0 || lines <= 0) return text;
    QTextLayout layout(text, font);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    int kept = 0; // characters of the lines before the last one shown
    int shown = 0;
    bool more = false;
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        if (shown == lines) {
            more = true;
            break;
        }
        if (shown < lines - 1) kept = line.textStart() + line.textLength();
        ++shown;
    }
    layout.endLayout();
    if (!more) return text;
    // The last line shown: the rest of the text elided to the width.
    const QString last = QFontMetrics(font).elidedText(text.mid(kept), Qt::ElideRight, width);
    return text.left(kept) + last;
}

} // namespace sl::ui
