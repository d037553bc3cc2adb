#pragma once
// Help > Keyboard and Mouse (? or F1) and Help > Glossary: two non-modal tool windows of text that
// can stay open beside the timeline while the keys work (docs/ARCHITECTURE.md, "GUI").
#include <QObject>
#include <QString>

class QWidget;

namespace sl::ui {

class HelpSheets : public QObject {
    Q_OBJECT
public:
    // parent: the window the sheets belong to (they are its tool windows).
    explicit HelpSheets(QWidget* parent);

    // Creates the window on first use, then shows it and brings it to the front.
    void showKeySheet();
    void showGlossary();
    // Null until first shown. Object names "keySheet" / "glossary"; their text browsers add "Text".
    QWidget* keySheet() const { return keySheet_; }
    QWidget* glossary() const { return glossary_; }

    // The texts: the keys and gestures, and the words of the panes, charts and knobs.
    static QString keySheetHtml();
    static QString glossaryHtml();

private:
    QWidget* parent_;
    QWidget* keySheet_ = nullptr;
    QWidget* glossary_ = nullptr;
};

} // namespace sl::ui
