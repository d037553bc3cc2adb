#include "WelcomePage.h"

#include "RecentFiles.h"

#include <QCommandLinkButton>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace sl::ui {

namespace {
QLabel* heading(const QString& text, QWidget* parent, qreal scale = 1.25) {
    auto* label = new QLabel(text, parent);
    QFont f = label->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * scale);
    label->setFont(f);
    return label;
}
} // namespace

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent), samples_(bundledSamples()) {
    setObjectName(QStringLiteral("welcomePage"));
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(40, 28, 40, 28);
    column->setSpacing(10);

    column->addWidget(heading(tr("Sightline"), content, 1.8));
    auto* intro =
        new QLabel(tr("Measured and simulated timelines of distributed training: open the PyTorch "
                      "profiler traces of every rank, see where time goes, and ask what-if questions "
                      "(faster kernels, a faster network, a straggler) with the knobs on the left."),
                   content);
    intro->setWordWrap(true);
    column->addWidget(intro);

    auto* buttons = new QHBoxLayout;
    auto* openFiles = new QPushButton(tr("Open Files..."), content);
    openFiles->setObjectName(QStringLiteral("welcomeOpenFiles"));
    auto* openFolder = new QPushButton(tr("Open Folder..."), content);
    openFolder->setObjectName(QStringLiteral("welcomeOpenFolder"));
    connect(openFiles, &QPushButton::clicked, this, &WelcomePage::openFilesRequested);
    connect(openFolder, &QPushButton::clicked, this, &WelcomePage::openFolderRequested);
    buttons->addWidget(openFiles);
    buttons->addWidget(openFolder);
    buttons->addStretch(1);
    column->addLayout(buttons);
    auto* drop =
        new QLabel(tr("... or drop trace files (PyTorch profiler .json / .json.gz, Nsight Systems .sqlite, "
                      "Chakra .et; told apart by their content) or a folder of per-rank files "
                      "anywhere in this window."),
                   content);
    drop->setStyleSheet(QStringLiteral("color:#6c757d"));
    column->addWidget(drop);

    if (!samples_.isEmpty()) {
        column->addSpacing(12);
        column->addWidget(heading(tr("Try a sample"), content));
        for (const Sample& s : samples_) {
            auto* b = new QCommandLinkButton(s.name, s.description, content);
            b->setObjectName(QStringLiteral("sample:") + s.name);
            b->setToolTip(s.path);
            connect(b, &QCommandLinkButton::clicked, this,
                    [this, path = s.path] { emit openRequested({path}); });
            column->addWidget(b);
        }
    }

    column->addSpacing(12);
    column->addWidget(heading(tr("Recent"), content));
    recentLayout_ = new QVBoxLayout;
    recentLayout_->setSpacing(2);
    column->addLayout(recentLayout_);
    column->addStretch(1);
}

void WelcomePage::setRecent(const QList<QStringList>& recent) {
    while (QLayoutItem* item = recentLayout_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (recent.isEmpty()) {
        auto* none = new QLabel(tr("Nothing opened yet."), this);
        none->setStyleSheet(QStringLiteral("color:#6c757d"));
        recentLayout_->addWidget(none);
        return;
    }
    for (const QStringList& paths : recent) {
        // The full path: sets are often all named "kineto" or "traces", the folders above tell them apart.
        auto* b = new QPushButton(RecentFiles::fullLabel(paths), this);
        b->setObjectName(QStringLiteral("recentEntry"));
        b->setFlat(true);
        b->setStyleSheet(QStringLiteral("text-align:left; color:#1c64c8; padding:2px"));
        b->setToolTip(paths.join(QChar('\n')));
        b->setCursor(Qt::PointingHandCursor);
        connect(b, &QPushButton::clicked, this, [this, paths] { emit openRequested(paths); });
        recentLayout_->addWidget(b);
    }
}

} // namespace sl::ui
