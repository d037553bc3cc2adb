#pragma once
// Text cut to a number of lines: a long sentence in a short window keeps its first lines and ends
// in "…", the whole of it in the tooltip (the result card's "What limits" line, the message bar).
#include <QFont>
#include <QString>

namespace sl::ui {

// `text` word-wrapped at `width` pixels in `font`, cut after `lines` lines with an ellipsis; the
// text unchanged when it fits.
QString elideToLines(const QString& text, const QFont& font, int width, int lines);

} // namespace sl::ui
