#pragma once
#include <QObject>
#include <QStringList>

class QMenu;

namespace sl::ui {

// The File > Open Recent menu, kept in QSettings ("recent"): each entry is the list of paths of one
// opened trace set (files or a folder).
class RecentFiles : public QObject {
    Q_OBJECT
public:
    RecentFiles(QMenu* menu, QObject* parent = nullptr);
    void add(const QStringList& paths);
    QList<QStringList> entries() const;
    // The menu label of an entry: the file or folder name with the folder it is in ("kineto  -
    // .../traces/dlrm-8rank-v100"), since trace folders are often all named alike.
    static QString label(const QStringList& paths);
    // The full path of an entry (the first path, "and N more" for several).
    static QString fullLabel(const QStringList& paths);

signals:
    void openRequested(QStringList paths);
    void changed();

private:
    void rebuild();
    QMenu* menu_;
    static constexpr int kMax = 10;
};

} // namespace sl::ui
